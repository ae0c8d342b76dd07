// A placeholder spliced into a larger argument that is not a proven shell script (a `python -c`
// program, `node -e`, an awk program, `ssh host cmd`, a wrapper rye does not know…) gets its value
// pasted into that argument's text, read by a program rye cannot see into. Such a value must be
// inert (inert.ts). A placeholder that is the whole argument passes its value as exactly that
// argument and needs no check.
import { pyStr, pyStrip } from "../pystr.js";
import { envValue, followTemplate } from "./bind-script-args.js";
import type { EnvMap } from "./expand-env.js";
import { inertProblem } from "./inert.js";
import { scriptPlaceholders, type ScriptPlaceholder } from "./shell-script.js";

/** How to look up a placeholder's value and whether it came from outside the chain. */
export interface SplicedValues {
  chainConfig: Readonly<Record<string, unknown>>;
  callerParams: Readonly<Record<string, unknown>>;
  env: EnvMap;
  /** The value a System 2 name resolves to (as the execute primitive resolves it). */
  param: (name: string) => unknown;
  /** Whether a System 2 name's value comes from the caller (not the chain or rye's own paths). */
  fromCaller: (name: string) => boolean;
}

const WHOLE = /^(?:\{[\p{L}\p{N}_]+\}|\$\{[A-Z_][A-Z0-9_]*(?::-[^}]*)?\})$/u;

/** Whether `template` is one placeholder and nothing else (after Python's `strip()`). */
export const isWholePlaceholder = (template: string): boolean => WHOLE.test(pyStrip(template));

/**
 * The placeholders of an argument template that are spliced into a larger text, with the text of
 * each, in order. A whole-argument placeholder gives none.
 */
export function splicedPlaceholders(template: string, known: (name: string) => boolean): ScriptPlaceholder[] {
  if (isWholePlaceholder(template)) return [];
  return scriptPlaceholders(template, known);
}

/**
 * The first spliced value of `command` or an argument (other than the bound script at `skip`) that is
 * not inert, as a message naming the placeholder; null when every such value is inert. Values from
 * the environment and from the caller are checked; the chain's own config keys and rye's paths are
 * the tool author's text.
 */
export function splicedValueProblem(program: string, skip: number, v: SplicedValues): string | null {
  const templates: [string, unknown][] = [["the command", v.chainConfig.command]];
  const args = Array.isArray(v.chainConfig.args) ? v.chainConfig.args : [];
  args.forEach((a, i) => i !== skip && templates.push([`argument ${i + 1} of ${program}`, a]));
  for (const [where, raw] of templates) {
    if (typeof raw !== "string") continue;
    const template = followTemplate(raw, v.chainConfig, v.callerParams);
    for (const p of splicedPlaceholders(template, (name) => v.param(name) !== undefined)) {
      if (p.system === "param" && !v.fromCaller(p.expr)) continue;
      const value = p.system === "env" ? envValue(v.env, p.expr) : pyStr(v.param(p.expr));
      const problem = inertProblem(template.slice(p.start, p.end), value, where);
      if (problem) return problem;
    }
  }
  return null;
}
