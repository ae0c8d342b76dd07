// A placeholder spliced into a larger argument that is not a proven shell script (a `python -c`
// program, `node -e`, an awk program, `ssh host cmd`, a wrapper rye does not know…) gets its value
// pasted into that argument's text, read by a program rye cannot see into. Such a value must be
// inert (inert.ts), or, for a value that is neither the caller's nor the chain's constant text (rye's
// paths), path-safe (path-values.ts). A placeholder that is the whole argument passes its value as
// exactly that argument and needs no check.
import { pyStr, pyStrip } from "../pystr.js";
import { envValue, followTemplate } from "./bind-script-args.js";
import type { EnvMap } from "./expand-env.js";
import { inertProblem } from "./inert.js";
import { isPathArgument, pathValueProblem } from "./path-values.js";
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
  /**
   * Whether a System 2 name's value is text the chain wrote as a constant (no placeholder in it), so
   * the build saw it; anything else (rye's paths, a key built from them) is checked by content.
   * Without it, every value that is not the caller's is checked.
   */
  constant?: (name: string) => boolean;
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
 * refused, as a message naming the placeholder; null when there is none. Values from the environment
 * and from the caller must be inert; every other value but the chain's constant text must be
 * path-safe, unless the argument is one path (`{anchor_path}/Gemfile`).
 */
export function splicedValueProblem(program: string, skip: number, v: SplicedValues): string | null {
  const templates: [string, unknown][] = [["the command", v.chainConfig.command]];
  const args = Array.isArray(v.chainConfig.args) ? v.chainConfig.args : [];
  args.forEach((a, i) => i !== skip && templates.push([`argument ${i + 1} of ${program}`, a]));
  for (const [where, raw] of templates) {
    if (typeof raw !== "string") continue;
    const problem = templateProblem(followTemplate(raw, v.chainConfig, v.callerParams), where, v);
    if (problem) return problem;
  }
  return null;
}

function templateProblem(template: string, where: string, v: SplicedValues): string | null {
  const placeholders = splicedPlaceholders(template, (name) => v.param(name) !== undefined);
  const onePath = isPathArgument(template, placeholders);
  for (const p of placeholders) {
    const text = template.slice(p.start, p.end);
    if (p.system === "env") {
      const problem = inertProblem(text, envValue(v.env, p.expr), where);
      if (problem) return problem;
      continue;
    }
    const value = pyStr(v.param(p.expr));
    if (v.fromCaller(p.expr)) {
      const problem = inertProblem(text, value, where);
      if (problem) return problem;
      continue;
    }
    // A leading value still starts the argument, and a leading `-` makes it an option.
    if (v.constant?.(p.expr) || (onePath && !(p.start === 0 && value.startsWith("-")))) continue;
    const problem = pathValueProblem(text, value, where);
    if (problem) return problem;
  }
  return null;
}
