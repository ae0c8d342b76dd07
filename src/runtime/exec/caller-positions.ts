// The run-time half of two rules about where a caller's value may go (docs/security-model.md):
//   - launch positions (launch-code.ts): where the launcher walk cannot prove what reads an argv
//     element, a caller's value there is refused, whole or spliced as launch-code.ts says;
//   - stdin (stdin-readers.ts): `input_data` carries a caller's value only where the program reading
//     it reads it as data; inert values only where rye cannot tell; refused where stdin is program text.
import { pyStr } from "../pystr.js";
import { envValue, followTemplate, walkWords, type ValueOrigin } from "./bind-script-args.js";
import type { EnvMap } from "./expand-env.js";
import { CONTEXT_KEYS } from "./caller-params.js";
import { inertProblem } from "./inert.js";
import { pathValueProblem } from "./path-values.js";
import { COMMAND_RUNNERS } from "./program-grammars.js";
import { launchCode, launchCodeProblem } from "./launch-code.js";
import { walkLaunchers } from "./launchers.js";
import { wholeArgProblem, wholeArgRule } from "./whole-args.js";
import type { Word } from "./shell-options.js";
import { scriptPlaceholders } from "./shell-script.js";
import { isWholePlaceholder } from "./spliced-args.js";
import { stdinRole } from "./stdin-readers.js";

/** What the checks need: the chain's templates, the caller's names, and how values resolve. */
export interface CallerValues {
  chainConfig: Readonly<Record<string, unknown>>;
  callerParams: Readonly<Record<string, unknown>>;
  env: EnvMap;
  param: (name: string) => unknown;
  origin: ValueOrigin;
}

/**
 * The first caller value in `command args…` that a launch position refuses, as a message, or null:
 * the launch rule (launch-code.ts), then the program's own grammar for each whole value (whole-args.ts).
 */
export function launchPositionProblem(command: string, args: readonly string[], v: CallerValues): string | null {
  const words = scriptAsWritten(walkWords(command, args, v.chainConfig, v.callerParams, v.origin), v);
  const code = launchCode(words);
  const actual = [command, ...args];
  const templates = [v.chainConfig.command, ...(Array.isArray(v.chainConfig.args) ? v.chainConfig.args : [])];
  for (const [i, raw] of templates.entries()) {
    if (typeof raw !== "string") continue;
    const template = followTemplate(raw, v.chainConfig, v.callerParams);
    const whole = isWholePlaceholder(template);
    for (const p of scriptPlaceholders(template, v.origin.known)) {
      if (p.system === "param" && !v.origin.fromCaller(p.expr) && i > 0) {
        const problem = runnerPathProblem(words, i, template.slice(p.start, p.end), p.expr, actual[i] ?? "");
        if (problem) return problem;
      }
      if (p.system !== "param" || !v.origin.fromCaller(p.expr)) continue;
      const name = template.slice(p.start, p.end);
      const problem = launchCodeProblem(code, name, i, whole) ?? (whole && i > 0 ? wholeArgProblem(name, actual[i] ?? "", wholeArgRule(words, i, command)) : null);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * A command runner (`script -qec`, `su -c`, `watch`, `flock -c`) hands its arguments to a shell: a
 * path of rye's there (a folder a checkout named `x$(…)`) is read as code, so it must be path-safe.
 */
function runnerPathProblem(words: readonly Word[], index: number, placeholder: string, name: string, value: string): string | null {
  if (!(CONTEXT_KEYS as readonly string[]).includes(name)) return null;
  const launch = walkLaunchers(words);
  if (launch.program < 0 || index <= launch.program || !COMMAND_RUNNERS.has(launch.name)) return null;
  return pathValueProblem(placeholder, value, `an argument of ${launch.name}, which runs its arguments as a command or as code`);
}

/**
 * Why the caller's values in `input_data` may not reach the program's stdin, or null. The program is
 * read from the argv as it runs, with a caller's word left unknown; the environment's are the operator's.
 */
export function stdinProblem(command: string, args: readonly string[], v: CallerValues): string | null {
  const own = Object.hasOwn(v.callerParams, "input_data");
  const raw = own ? "{input_data}" : v.chainConfig.input_data;
  if (typeof raw !== "string") return null;
  const template = own ? raw : followTemplate(raw, v.chainConfig, v.callerParams);
  const placeholders = scriptPlaceholders(template, v.origin.known);
  const outside = placeholders.filter((p) => p.system === "env" || v.origin.fromCaller(p.expr));
  // rye's paths name folders a checkout chose (`x$(…)`): where stdin is not data, only path-safe ones.
  const paths = placeholders.filter((p) => p.system === "param" && !v.origin.fromCaller(p.expr) && (CONTEXT_KEYS as readonly string[]).includes(p.expr));
  if (outside.length === 0 && paths.length === 0) return null;
  const role = stdinRole(scriptAsWritten(operatorWords(command, args, v), v));
  for (const p of role.role === "full" ? [] : paths) {
    const problem = pathValueProblem(template.slice(p.start, p.end), pyStr(v.param(p.expr)), `input_data, the ${role.reason}`);
    if (problem) return problem;
  }
  for (const p of outside) {
    const name = template.slice(p.start, p.end);
    if (role.role === "refuse") {
      return `placeholder '${name}' in input_data reaches the ${role.reason}, so its value would be read as code; refused. Give the program its code as a file or a -c/-e argument and read the value from stdin there, or pass the value as a whole argument`;
    }
    if (role.role === "inert") {
      const value = p.system === "env" ? envValue(v.env, p.expr) : own ? pyStr(v.callerParams.input_data) : pyStr(v.param(p.expr));
      const problem = inertProblem(name, value, `input_data, the ${role.reason}`);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * The argv with a shell's `-c` script put back as the chain wrote it, so that what the script runs is
 * judged as the build judged it (`{tool_path}` is the tool's own file, not whatever path it became).
 */
function scriptAsWritten(words: Word[], v: CallerValues): Word[] {
  const launch = walkLaunchers(words);
  const templates = [v.chainConfig.command, ...(Array.isArray(v.chainConfig.args) ? v.chainConfig.args : [])];
  const raw = launch.family !== null && launch.script >= 0 && words[launch.script] !== null ? templates[launch.script] : undefined;
  if (typeof raw !== "string") return words;
  const out = [...words];
  out[launch.script] = followTemplate(raw, v.chainConfig, v.callerParams);
  return out;
}

/** The argv as it runs, with null for a word that holds a caller's value. */
function operatorWords(command: string, args: readonly string[], v: CallerValues): Word[] {
  const templates = [v.chainConfig.command, ...(Array.isArray(v.chainConfig.args) ? v.chainConfig.args : [])];
  return [command, ...args].map((actual, i) => {
    const raw = templates[i];
    if (typeof raw !== "string") return null;
    const template = followTemplate(raw, v.chainConfig, v.callerParams);
    return scriptPlaceholders(template, v.origin.known).some((p) => p.system === "param" && v.origin.fromCaller(p.expr)) ? null : actual;
  });
}
