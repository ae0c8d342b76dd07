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
import { takesDataArgument } from "./program-grammars.js";
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
  // Words the program reads as options: before a literal `--`, and before a shell's script.
  const ended = (i: number) => (skip >= 0 && i > skip) || args.slice(0, i).includes("--");
  const options: boolean[] = [false];
  args.forEach((a, i) => {
    if (i === skip) return;
    templates.push([`argument ${i + 1} of ${program}`, a]);
    options.push(!ended(i));
  });
  for (const [k, [where, raw]] of templates.entries()) {
    if (typeof raw !== "string") continue;
    const template = followTemplate(raw, v.chainConfig, v.callerParams);
    const problem = (options[k] ? optionWordProblem(program, template, v) : null) ?? templateProblem(template, where, v);
    if (problem) return problem;
  }
  return null;
}

/**
 * A caller's or the environment's value spliced into an option word (`--name={v}`, `-X{v}`) is that
 * option's argument: refused unless the program's grammar lists the option as taking data
 * (program-grammars.ts), whatever the value's characters. One letter is a whole program (`sh`) or a
 * whole sed script (`e`). The message, or null.
 */
export function optionWordProblem(program: string, template: string, v: Pick<SplicedValues, "fromCaller" | "param">): string | null {
  if (!template.startsWith("-") || isWholePlaceholder(template)) return null;
  const outside = splicedPlaceholders(template, (name) => v.param(name) !== undefined).find((p) => p.system === "env" || v.fromCaller(p.expr));
  if (!outside) return null;
  return optionArgumentMessage(program, template, outside);
}

/** The option a spliced placeholder is the argument of, or null when the word is not one readable option. */
function optionOf(template: string, at: number): string | null {
  const head = template.slice(0, at);
  const long = /^(--[A-Za-z0-9][A-Za-z0-9-]*)=/.exec(head);
  if (long) return long[1]!;
  return /^-[A-Za-z0-9]$/.test(head) ? head : null;
}

/** The refusal of a value spliced into an option word, at build and at run; null when the option takes data. */
export function optionArgumentMessage(program: string, template: string, p: { start: number; end: number }): string | null {
  const option = optionOf(template, p.start);
  if (option !== null && takesDataArgument(program, option)) return null;
  const raw = template.slice(p.start, p.end);
  const what = option === null ? `the option word ${JSON.stringify(template)}, which rye cannot read as one option` : `${program}'s option ${option}`;
  return `placeholder '${raw}' is spliced into ${what}, so its value is that option's argument, which may name a program, code or a file of code (sort --compress-program=, sed -e, git clone --template=); refused whatever its characters. Pass the value as a whole argument after "--" to a program that reads it as data, or offer fixed choices as literal options in the tool`;
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
