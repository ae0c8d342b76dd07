// Which names a tool's caller may give values to. The original merges the caller's parameters over
// everything (rye's path context, the chain's config), so a caller could repoint `{tool_dir}` or
// replace the program text a tool's author wrote (`python3 -c {code}`, `command: "{prog}"`). Here:
//   1. rye's own names (every key of the path context, plus the keys the executor injects) are
//      rye's: a caller parameter with such a name is refused, whatever the chain does with it;
//   2. a config value the chain's authors wrote that reaches what runs (command, args, cwd,
//      input_data, directly or through other config keys) may be replaced by a caller only when the
//      tool declares that name as a parameter (a property of its CONFIG_SCHEMA); `cwd` and
//      `input_data` themselves count as such values even when the chain leaves them unset.
// Config keys nothing reaches (`timeout`, a provider's options…) keep the original's override.
import { readParamSchema } from "./check-params.js";
import type { PlanContext } from "./plan.js";

/** Every key of the path context rye builds for a run (plan.ts `PlanContext`). */
export const CONTEXT_KEYS: readonly (keyof PlanContext)[] = [
  "tool_path", "tool_dir", "tool_parent", "anchor_path", "runtime_lib", "project_path", "user_space", "system_space",
];

/** Names the executor sets itself while building the config (execution-config.ts, config_resolve). */
export const INJECTED_KEYS: readonly string[] = ["env", "params_json", "resolved_config"];

/** The primitive's own fields: what runs, where, and with which stdin. */
const PROCESS_FIELDS = ["command", "args", "cwd", "input_data"] as const;

// `command`/`args` parameters never reach the config (the original leaves them out of the merge), so
// a caller passing them replaces nothing: the bash runtime's `{command}` pattern relies on that.
const NOT_MERGED = new Set(["command", "args"]);

const PLACEHOLDER = /\{([^}]+)\}/g;

/** Every `{name}` in a value (strings, arrays, objects), each as written and stripped, as the executor looks names up. */
export function placeholdersOf(value: unknown, into: string[]): void {
  if (typeof value === "string") {
    // The mixed form looks the name up as written (spaces included), the whole form after strip(): both.
    for (const m of value.matchAll(PLACEHOLDER)) into.push(m[1]!, m[1]!.trim());
  } else if (Array.isArray(value)) {
    for (const v of value) placeholdersOf(v, into);
  } else if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) placeholdersOf(v, into);
  }
}

/**
 * The config keys whose values reach the spawned process: the process fields, then every config key
 * a `{name}` in a reached value names, transitively (the executor resolves names up to 3 passes deep,
 * the closure is taken to any depth).
 */
export function reachedConfigKeys(chainConfig: Readonly<Record<string, unknown>>): Set<string> {
  const reached = new Set<string>(["cwd", "input_data"]);
  const queue: string[] = [];
  for (const f of PROCESS_FIELDS) if (Object.hasOwn(chainConfig, f)) placeholdersOf(chainConfig[f], queue);
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (reached.has(name) || !Object.hasOwn(chainConfig, name)) continue;
    reached.add(name);
    placeholdersOf(chainConfig[name], queue);
  }
  return reached;
}

/** The parameter names a tool's CONFIG_SCHEMA declares (empty when it declares none). */
export function declaredParams(configSchema: unknown): Set<string> {
  return new Set(readParamSchema(configSchema)?.properties ?? []);
}

/**
 * Why a caller's parameters may not run, naming the first refused key, or null. `contextKeys` are the
 * keys of the context rye built for this run (at least `CONTEXT_KEYS`).
 */
export function callerParamsProblem(
  params: Readonly<Record<string, unknown>>,
  chainConfig: Readonly<Record<string, unknown>>,
  contextKeys: Iterable<string>,
  configSchema: unknown,
): string | null {
  const rye = new Set<string>([...CONTEXT_KEYS, ...INJECTED_KEYS, ...contextKeys]);
  let reached: Set<string> | undefined;
  let declared: Set<string> | undefined;
  const chooses = { command: namesReachedFrom(chainConfig, "command"), cwd: namesReachedFrom(chainConfig, "cwd") };
  for (const key of Object.keys(params)) {
    if (rye.has(key)) {
      return `Parameter '${key}' is refused: '${key}' is set by rye itself (its path context), and a caller may not replace it`;
    }
    // Declared or not: the program and the folder it starts in are the tool's, never the caller's.
    if (chooses.command.has(key)) return `Parameter '${key}' is refused: ${commandFillMessage(`{${key}}`)}`;
    if (key === "cwd" || chooses.cwd.has(key)) return `Parameter '${key}' is refused: ${cwdFillMessage(key === "cwd" ? "cwd" : `{${key}}`)}`;
    if (NOT_MERGED.has(key)) continue;
    reached ??= reachedConfigKeys(chainConfig);
    if (!reached.has(key)) continue;
    declared ??= declaredParams(configSchema);
    if (declared.has(key)) continue;
    const what = Object.hasOwn(chainConfig, key) ? `the tool's own '${key}'` : `the process's '${key}'`;
    return `Parameter '${key}' is refused: it would replace ${what}, which decides what runs, and the tool does not declare '${key}' as a parameter (CONFIG_SCHEMA properties)`;
  }
  return null;
}

/**
 * Every name a process field's template reaches: its placeholders, then those of each config key
 * they name, transitively (the field itself counts, since a caller's `cwd` would replace it).
 */
export function namesReachedFrom(chainConfig: Readonly<Record<string, unknown>>, field: "command" | "cwd"): Set<string> {
  const reached = new Set<string>();
  const queue: string[] = [];
  if (Object.hasOwn(chainConfig, field)) placeholdersOf(chainConfig[field], queue);
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (reached.has(name)) continue;
    reached.add(name);
    if (Object.hasOwn(chainConfig, name)) placeholdersOf(chainConfig[name], queue);
  }
  return reached;
}

/** The refusal of a caller's value naming the program, at build and at run. */
export function commandFillMessage(raw: string): string {
  return `placeholder '${raw}' would let a caller's value choose the program that runs; refused. The command is the tool's: write it in the tool's files, and offer a fixed choice as separate tools or as a literal word the program itself checks (args: [..., "${raw}"])`;
}

/** The refusal of a caller's value choosing the working directory, at build and at run. */
export function cwdFillMessage(raw: string): string {
  const what = raw === "cwd" ? "parameter 'cwd'" : `placeholder '${raw}'`;
  return `${what} would let a caller's value choose the working directory; refused. Programs load code from the folder they start in (git reads a repository's config there, python -c imports from it, relative names resolve against it), so the cwd is the tool's: pass the folder as a whole argument (args: [..., "--", "{folder}"]) to a program that reads it as data`;
}

/**
 * Why a chain's `args` cannot be judged, or null: argv is a list written in the tool's files, each
 * template one element. A placeholder (or any text) standing for the whole `args` would supply
 * several elements nothing judged by position (options, scripts, programs), so it is refused.
 */
export function argsShapeProblem(chainConfig: Readonly<Record<string, unknown>>): string | null {
  const args = chainConfig.args;
  if (args === undefined || args === null || Array.isArray(args)) return null;
  return argsShapeMessage(typeof args === "string" ? args : JSON.stringify(args) ?? String(args));
}

/** The refusal of a non-list `args`, at build and at run. */
export function argsShapeMessage(written: string): string {
  return `args is ${JSON.stringify(written)}, not a list; refused. A placeholder never supplies several argv elements: each would escape the rules that judge an argument by its position (options, scripts, programs). Write args as a list in the tool's files, each value a whole element of its own (args: ["-c", "...", "{name}"])`;
}
