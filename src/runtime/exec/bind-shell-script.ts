// Values reach a `sh -c` script as data (decisions.md #10): each placeholder of the script becomes a
// quoted reference to a shell variable, and a prelude fills those variables from positional
// parameters that carry the values as separate argv elements. No byte of a value is ever part of
// the script's text, so quotes, `$(…)`, backticks, newlines or a leading `-` cannot change it.
import type { ScriptPlaceholder } from "./shell-script.js";

/** A placeholder the binding cannot make safe (its shell context would re-read the value as code). */
export class UnsafeScriptPlaceholder extends Error {}

/** The script to run and the values to pass after `$0`, in order. */
export interface BoundScript {
  script: string;
  values: string[];
}

type Frame = "code" | "sub" | "bt" | "dq" | "sq" | "ansi" | "arith" | "brace" | "comment";

const UNSAFE: Partial<Record<Frame, string>> = { arith: "inside arithmetic", brace: "inside a ${…} expansion", ansi: "inside a $'…' string" };
const variable = (n: number) => `__rye_${n}`;

/**
 * Rewrites `script` so each placeholder reads its value from a variable set from `$1…$n`, then
 * `shift n`, so the script's own `$1…` and `"$@"` are what they would have been. Placeholders inside a
 * comment stay literal; placeholders inside arithmetic, `${…}`, `$'…'`, a here-document or right after
 * a backslash or `$` are refused, since the shell would read the value there as code or mangle it.
 */
export function bindShellScript(script: string, placeholders: readonly ScriptPlaceholder[], values: readonly string[]): BoundScript {
  if (placeholders.length === 0) return { script, values: [] };
  const body = new ScriptScanner(script, placeholders).run();
  const assignments = placeholders.map((_, k) => `${variable(k + 1)}=\${${k + 1}}`).join(" ");
  return { script: `${assignments}; shift ${placeholders.length}; ${body}`, values: [...values] };
}

/** One pass over the script, tracking the shell's quoting context well enough to place references. */
class ScriptScanner {
  private readonly out: string[] = [];
  private readonly stack: { frame: Frame; depth: number }[] = [{ frame: "code", depth: 0 }];
  private heredoc = false;
  private next = 0;
  private i = 0;

  constructor(
    private readonly script: string,
    private readonly placeholders: readonly ScriptPlaceholder[],
  ) {}

  run(): string {
    while (this.i < this.script.length) {
      const p = this.placeholders[this.next];
      if (p && p.start < this.i) this.refuse(p, "across shell syntax");
      if (p && p.start === this.i) this.reference(p);
      else this.step();
    }
    const left = this.placeholders[this.next];
    if (left) this.refuse(left, "across shell syntax");
    return this.out.join("");
  }

  private get top() {
    return this.stack[this.stack.length - 1]!;
  }

  private emit(text: string): void {
    this.out.push(text);
    this.i += text.length;
  }

  private push(frame: Frame, text: string): void {
    this.stack.push({ frame, depth: 0 });
    this.emit(text);
  }

  private pop(text: string): void {
    this.stack.pop();
    this.emit(text);
  }

  private refuse(p: ScriptPlaceholder, where: string): never {
    const raw = this.script.slice(p.start, p.end);
    throw new UnsafeScriptPlaceholder(`placeholder '${raw}' sits ${where} of the shell script, where the shell would read its value as code; pass the value as an argument after the script and use "$1"`);
  }

  private reference(p: ScriptPlaceholder): void {
    this.next++;
    const { frame } = this.top;
    if (frame === "comment") return this.emit(this.script.slice(p.start, p.end));
    if (this.heredoc) this.refuse(p, "in or after a here-document");
    const unsafe = UNSAFE[frame];
    if (unsafe) this.refuse(p, unsafe);
    const before = this.script[this.i - 1];
    if (before === "\\" || before === "$") this.refuse(p, `right after '${before}'`);
    const ref = variable(this.next);
    this.out.push(frame === "dq" ? `\${${ref}}` : frame === "sq" ? `'"\${${ref}}"'` : `"\${${ref}}"`);
    this.i = p.end;
  }

  private step(): void {
    const c = this.script[this.i]!;
    const { frame } = this.top;
    if (frame === "comment") return c === "\n" ? this.pop(c) : this.emit(c);
    if (frame === "sq") return c === "'" ? this.pop(c) : this.emit(c);
    if (frame === "ansi") return c === "\\" ? this.emit(this.script.slice(this.i, this.i + 2)) : c === "'" ? this.pop(c) : this.emit(c);
    if (frame === "brace") return this.stepBrace(c);
    if (frame === "arith") return this.stepArith(c);
    if (frame === "dq") return this.stepDouble(c);
    this.stepCode(c, frame);
  }

  private stepBrace(c: string): void {
    if (c === "{") this.top.depth++;
    if (c === "}" && this.top.depth-- === 0) this.pop(c);
    else this.emit(c);
  }

  private stepArith(c: string): void {
    if (c === "(") this.top.depth++;
    if (c === ")" && this.top.depth === 0 && this.script[this.i + 1] === ")") return this.pop("))");
    if (c === ")") this.top.depth--;
    this.emit(c);
  }

  private stepDouble(c: string): void {
    if (c === "\\") this.emit(this.script.slice(this.i, this.i + 2));
    else if (c === '"') this.pop(c);
    else if (!this.expansion(c)) this.emit(c);
  }

  /** Unquoted text, also inside `$(…)` and backticks. */
  private stepCode(c: string, frame: Frame): void {
    const two = this.script.slice(this.i, this.i + 2);
    if (c === "\\") this.emit(two);
    else if (c === "'") this.push("sq", c);
    else if (c === '"') this.push("dq", c);
    else if (c === "`" && frame === "bt") this.pop(c);
    else if (two === "((") this.push("arith", two);
    else if (this.expansion(c)) return;
    else if (c === "#" && (this.i === 0 || /[\s;&|()]/.test(this.script[this.i - 1]!))) this.push("comment", c);
    else if (frame === "sub" && c === "(") {
      this.top.depth++;
      this.emit(c);
    } else if (frame === "sub" && c === ")" && this.top.depth-- === 0) this.pop(c);
    else if (two === "<<") {
      if (this.script[this.i + 2] !== "<") this.heredoc = true;
      this.emit(two);
    } else this.emit(c);
  }

  /** Opens `$((`, `$(`, `${`, `$'` or a backtick here; false when none starts here. */
  private expansion(c: string): boolean {
    if (c === "`") {
      this.push("bt", c);
      return true;
    }
    if (c !== "$") return false;
    const three = this.script.slice(this.i, this.i + 3);
    if (three === "$((") this.push("arith", three);
    else if (three.startsWith("$(")) this.push("sub", "$(");
    else if (three.startsWith("${")) this.push("brace", "${");
    else if (three.startsWith("$'")) this.push("ansi", "$'");
    else return false;
    return true;
  }
}
