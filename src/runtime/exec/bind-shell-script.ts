// Values reach a `sh -c` script as data (decisions.md #10): each placeholder of the script becomes a
// quoted reference to a shell variable, and a prelude fills those variables from positional
// parameters that carry the values as separate argv elements. No byte of a value is ever part of
// the script's text, so quotes, `$(…)`, backticks, newlines or a leading `-` cannot change it.
//
// Quoting alone is not enough: bash, ksh, mksh and zsh evaluate array subscripts (and the `$(…)` in
// them) wherever a value is read as arithmetic or as a variable name, quoted or not. So each
// placeholder's position is proven first (shell-context.ts): a data command's argument or a
// redirection target takes any value; any other position readable with confidence takes inert
// values only (no `[`, `$` or backquote, so nothing in them can open a subscript or expansion); any
// other position is refused. The variables get a random per-run name part so that no inert value can
// name the variable that holds a full value.
import { randomBytes } from "node:crypto";
import { inertProblem } from "./inert.js";
import { pathValueProblem } from "./path-values.js";
import { redirectTargetProblem } from "./redirect-target.js";
import { classifyScript, type Rec } from "./shell-context.js";
import type { ScriptPlaceholder } from "./shell-script.js";

/** A placeholder the binding cannot make safe, or a value its position does not accept. */
export class UnsafeScriptPlaceholder extends Error {}

/** The script to run and the values to pass after `$0`, in order. */
export interface BoundScript {
  script: string;
  values: string[];
}

export interface BindOptions {
  /** The per-run name part of the variables (default: 16 random hex digits). */
  nonce?: string;
  /** The shell's name, for messages. */
  shell?: string;
  /**
   * Whether a placeholder's value is the chain's own (its config keys, rye's paths) rather than the
   * caller's or the environment's: bound as data, any value where any value is data, and elsewhere
   * only a path-safe one (trustedValueProblem).
   */
  trusted?: (p: ScriptPlaceholder) => boolean;
}

const raw = (script: string, p: ScriptPlaceholder) => script.slice(p.start, p.end);

/** The first placeholder of `script` whose position is refused, with why; null when none is. */
export function refusedPlaceholder(script: string, placeholders: readonly ScriptPlaceholder[], recs: readonly Rec[], trusted?: (p: ScriptPlaceholder) => boolean): string | null {
  const bad = recs.find((r) => r.quote !== "comment" && r.role !== "full" && r.role !== "inert" && !trusted?.(placeholders[r.index]!));
  if (!bad) return null;
  const p = placeholders[bad.index]!;
  if (bad.unseen === true) {
    return `placeholder '${raw(script, p)}' is a value of a shell script that runs program text the build never sees: ${bad.reason ?? ""}. A script that carries a value may run only programs whose text rye has: commands by name, shells and interpreters with a literal -c/-e program, and the tool's own file ({tool_path}); put the program in the script or in the tool`;
  }
  if (bad.file === true) return fileWriteMessage(raw(script, p), bad.reason ?? "");
  return `placeholder '${raw(script, p)}' sits ${bad.reason ?? "where rye cannot read the script"} in the shell script, where rye cannot prove the shell reads its value as data; pass the value as an argument after the script and use "$1"`;
}

/** The refusal of a value (a placeholder or an expansion that carries one) that a script writes into a file. */
export function fileWriteMessage(name: string, how: string): string {
  return `placeholder '${name}' is a value the shell script writes into a file: ${how}. A value never reaches a file: what reads the file later (a name looked up in PATH, xargs, an interpreter under a name rye does not know) is not proven. Send the command's output to stdout or a pipe, and write files in the tool's own code`;
}

/** Why `value` is refused at the position `rec` gives it, or null when it is accepted. */
export function valueProblem(name: string, rec: Rec, value: string): string | null {
  if (rec.quote === "comment") return null;
  if (rec.role === "inert") return inertProblem(name, value, `a shell script ${rec.reason ?? ""}`.trimEnd());
  if (rec.target === true) {
    const problem = redirectTargetProblem(name, value);
    if (problem) return problem;
  }
  if (rec.noDash && value.startsWith("-")) {
    return `the value of ${name} starts with '-' and begins an argument where the command would read it as an option; write -- before it in the script (cat -- ${name}), or keep it from starting with '-'`;
  }
  return null;
}

/**
 * Why a value that is not the caller's (rye's paths, the chain's keys) is refused at `rec`, or null.
 * Where any value is data, any is taken; elsewhere (trap or eval text, a nested shell's script, a
 * command name, an argument of a program rye does not know) the shell reads its characters again, and
 * a folder name is chosen by whoever made the checkout (`x$(…)`): it must be path-safe, whose
 * characters neither end a word nor open an expansion or a quote in any shell.
 */
export function trustedValueProblem(name: string, rec: Rec, value: string): string | null {
  if (rec.quote === "comment" || rec.role === "full") return null;
  return pathValueProblem(name, value, `a shell script ${rec.reason ?? "where rye cannot read the script"}`.trimEnd());
}

/**
 * Rewrites `script` so each placeholder reads its value from a variable set from `$1…$n`, then
 * `shift n`, so the script's own `$1…` and `"$@"` are what they would have been. Placeholders inside a
 * comment stay literal. Throws UnsafeScriptPlaceholder for a refused position or a value its
 * position does not accept.
 */
export function bindShellScript(script: string, placeholders: readonly ScriptPlaceholder[], values: readonly string[], options: BindOptions = {}): BoundScript {
  if (placeholders.length === 0) return { script, values: [] };
  const trusted = options.trusted;
  // `{tool_path}` is the tool's own file only when the chain, not the caller, supplies it.
  const tool = (k: number) => placeholders[k]!.system === "param" && placeholders[k]!.expr === "tool_path" && trusted?.(placeholders[k]!) === true;
  const recs = classifyScript(script, placeholders, { tool });
  const refused = refusedPlaceholder(script, placeholders, recs, trusted);
  if (refused) throw new UnsafeScriptPlaceholder(refused);
  recs.forEach((r) => {
    const name = raw(script, placeholders[r.index]!);
    const problem = trusted?.(placeholders[r.index]!) === true ? trustedValueProblem(name, r, values[r.index] ?? "") : valueProblem(name, r, values[r.index] ?? "");
    if (problem) throw new UnsafeScriptPlaceholder(problem);
  });
  const nonce = options.nonce ?? randomBytes(8).toString("hex");
  const variable = (k: number) => `__rye_${nonce}_${k + 1}`;
  const out: string[] = [];
  let last = 0;
  placeholders.forEach((p, k) => {
    out.push(script.slice(last, p.start));
    const quote = recs[k]!.quote;
    const ref = variable(k);
    out.push(quote === "comment" ? raw(script, p) : quote === "dq" ? `\${${ref}}` : quote === "sq" ? `'"\${${ref}}"'` : `"\${${ref}}"`);
    last = p.end;
  });
  out.push(script.slice(last));
  const assignments = placeholders.map((_, k) => `${variable(k)}=\${${k + 1}}`).join(" ");
  return { script: `${assignments}; shift ${placeholders.length}; ${out.join("")}`, values: [...values] };
}
