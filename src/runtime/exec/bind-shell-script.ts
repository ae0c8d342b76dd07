// Values reach a `sh -c` script as data (decisions.md #10): each placeholder of the script becomes a
// quoted reference to a shell variable, and a prelude fills those variables from positional
// parameters that carry the values as separate argv elements. No byte of a value is ever part of
// the script's text, so quotes, `$(…)`, backticks, newlines or a leading `-` cannot change it.
import type { ScriptPlaceholder } from "./shell-script.js";

/** A placeholder the binding cannot make safe (its shell context would re-read the value as code). */
export class UnsafeScriptPlaceholder extends Error {}

type Frame = "code" | "sub" | "bt" | "dq" | "sq" | "ansi" | "arith" | "brace" | "comment";

/** The script to run and the values to pass after `$0`, in order. */
export interface BoundScript {
  script: string;
  values: string[];
}

const variable = (n: number) => `__rye_${n}`;

/**
 * Rewrites `script` so each placeholder reads its value from a variable set from `$1…$n`, then
 * `shift n`, so the script's own `$1…` and `"$@"` are what they would have been. Placeholders inside a
 * comment stay literal; placeholders inside arithmetic, `${…}`, `$'…'`, a here-document or right after
 * a backslash or `$` are refused, since the shell would read the value there as code or mangle it.
 */
export function bindShellScript(script: string, placeholders: readonly ScriptPlaceholder[], values: readonly string[]): BoundScript {
  if (placeholders.length === 0) return { script, values: [] };
  const out: string[] = [];
  const stack: { frame: Frame; depth: number }[] = [{ frame: "code", depth: 0 }];
  let heredoc = false;
  let next = 0;
  let i = 0;
  const top = () => stack[stack.length - 1]!;
  const push = (frame: Frame, text: string) => {
    stack.push({ frame, depth: 0 });
    emit(text);
  };
  const pop = (text: string) => {
    stack.pop();
    emit(text);
  };
  const emit = (text: string) => {
    out.push(text);
    i += text.length;
  };
  const refuse = (p: ScriptPlaceholder, where: string) => {
    throw new UnsafeScriptPlaceholder(`placeholder '${script.slice(p.start, p.end)}' sits ${where} of the shell script, where the shell would read its value as code; pass the value as an argument after the script and use "$1"`);
  };
  while (i < script.length) {
    const p = placeholders[next];
    if (p && p.start < i) refuse(p, "across shell syntax");
    const { frame } = top();
    if (p && p.start === i) {
      next++;
      if (frame === "comment") emit(script.slice(p.start, p.end));
      else {
        if (heredoc) refuse(p, "in or after a here-document");
        if (frame === "arith" || frame === "brace" || frame === "ansi") refuse(p, `inside ${frame === "arith" ? "arithmetic" : frame === "brace" ? "a ${…} expansion" : "a $'…' string"}`);
        if (i > 0 && (script[i - 1] === "\\" || script[i - 1] === "$")) refuse(p, `right after '${script[i - 1]}'`);
        const ref = variable(next);
        out.push(frame === "dq" ? `\${${ref}}` : frame === "sq" ? `'"\${${ref}}"'` : `"\${${ref}}"`);
        i = p.end;
      }
      continue;
    }
    const c = script[i]!;
    const two = script.slice(i, i + 2);
    switch (frame) {
      case "comment":
        if (c === "\n") stack.pop();
        emit(c);
        break;
      case "sq":
        if (c === "'") pop(c);
        else emit(c);
        break;
      case "ansi":
        if (c === "\\") emit(script.slice(i, i + 2));
        else if (c === "'") pop(c);
        else emit(c);
        break;
      case "brace":
        if (c === "{") top().depth++;
        if (c === "}" && top().depth-- === 0) pop(c);
        else emit(c);
        break;
      case "arith":
        if (c === "(") top().depth++;
        if (c === ")" && top().depth === 0 && script[i + 1] === ")") pop("))");
        else {
          if (c === ")") top().depth--;
          emit(c);
        }
        break;
      case "dq":
        if (c === "\\") emit(script.slice(i, i + 2));
        else if (c === '"') pop(c);
        else if (!expansion(script, i, push)) emit(c);
        break;
      default:
        if (c === "\\") emit(script.slice(i, i + 2));
        else if (c === "'") push("sq", c);
        else if (c === '"') push("dq", c);
        else if (c === "`" && frame === "bt") pop(c);
        else if (two === "((") push("arith", two);
        else if (expansion(script, i, push)) break;
        else if (c === "#" && (i === 0 || /[\s;&|()]/.test(script[i - 1]!))) push("comment", c);
        else if (frame === "sub" && c === "(") {
          top().depth++;
          emit(c);
        } else if (frame === "sub" && c === ")") {
          if (top().depth-- === 0) pop(c);
          else emit(c);
        } else {
          if (two === "<<" && script[i + 2] !== "<") heredoc = true;
          emit(script.slice(i, i + (two === "<<" ? 2 : 1)));
        }
    }
  }
  const p = placeholders[next];
  if (p) refuse(p, "across shell syntax");
  const assignments = placeholders.map((_, k) => `${variable(k + 1)}=\${${k + 1}}`).join(" ");
  return { script: `${assignments}; shift ${placeholders.length}; ${out.join("")}`, values: [...values] };
}

/** Opens `$((`, `$(`, `${`, `$'` or a backtick at `i`; false when none starts there. */
function expansion(script: string, i: number, push: (frame: Frame, text: string) => void): boolean {
  const c = script[i]!;
  if (c === "`") {
    push("bt", c);
    return true;
  }
  if (c !== "$") return false;
  const after = script.slice(i, i + 3);
  if (after === "$((") push("arith", after);
  else if (after.startsWith("$(")) push("sub", "$(");
  else if (after.startsWith("${")) push("brace", "${");
  else if (after.startsWith("$'")) push("ansi", "$'");
  else return false;
  return true;
}
