// The channels by which a value reaches a spawned process, in one list, each put back from its seal
// (seal-values.ts) and checked by one entry here:
//   argv   command and args: the launch walk (launch-code.ts), the shell binder, and spliced values
//          inert or path-safe (spliced-args.ts);
//   stdin  input_data: the stdin rule (stdin-readers.ts);
//   env    the config's `env`: never a caller's value. Its reader is unseen, a variable can choose
//          code (PATH, BASH_ENV, LD_PRELOAD, PYTHONPATH), and a shell's arithmetic evaluates one;
//   cwd    never a caller's value (caller-params.ts): programs load code from the folder they start
//          in (git reads a repository's config there, python -c imports from it, relative names
//          resolve against it), so the working directory is the tool's own.
import { valueSeal } from "./seal-values.js";
import { scriptPlaceholders } from "./shell-script.js";
import { pyTypeName } from "./substitute-params.js";
import type { TemplatedExec } from "./template-exec.js";

/** The value channels of a process, as the execute primitive fills them. */
export const VALUE_CHANNELS = ["argv", "stdin", "env", "cwd"] as const;

type Restore = <T>(value: T) => T;

const WHOLE_FIELDS = ["command", "cwd", "input_data"] as const;

/**
 * Before templating: a field that is exactly one sealed value gets that value back typed, as the
 * original's whole-placeholder substitution leaves it (a dict there then fails stage 1 as in the
 * original, without its text being templated). A sealed list that is the whole `args` becomes its
 * elements, each sealed on its own so the stages template none of them.
 */
export function openWholeFields(config: Readonly<Record<string, unknown>>, restore: Restore): { config: Record<string, unknown>; restore: Restore } {
  const local = valueSeal();
  const typed = (v: unknown): unknown => {
    if (typeof v !== "string") return v;
    const r = restore(v);
    return typeof r === "string" ? v : r;
  };
  const out: Record<string, unknown> = { ...config };
  for (const f of WHOLE_FIELDS) if (Object.hasOwn(config, f)) out[f] = typed(config[f]);
  if (Object.hasOwn(config, "args")) {
    const args = typed(config.args);
    if (args !== config.args && Array.isArray(args)) out.args = args.map((a) => (typeof a === "string" ? local.seal(a) : a));
    else out.args = Array.isArray(args) ? args.map(typed) : args;
  }
  return { config: out, restore: <T>(v: T): T => restore(local.restore(v)) };
}

/** After templating: every channel put back from its tokens, the env included. */
export function restoreChannels(t: TemplatedExec, restore: Restore): TemplatedExec {
  return restore({ command: t.command, args: t.args, cwd: t.cwd, input_data: t.input_data, env: t.env });
}

/** Why the env cannot be handed to the process (a value that is not a string), or null. */
export function envTypeProblem(env: Readonly<Record<string, unknown>>): string | null {
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== "string") return `environment variable ${name}: expected str, bytes or os.PathLike object, not ${pyTypeName(value)}`;
  }
  return null;
}

/** How the env check resolves a placeholder of an env value's template. */
export interface EnvValues {
  /** Each variable's text before the `{param}` pass (the chain's env_config, resolved). */
  templates: Readonly<Record<string, string | undefined>>;
  /** A System 2 name's value, as the caller gave it. */
  param: (name: string) => unknown;
  fromCaller: (name: string) => boolean;
}

/**
 * The first env variable filled from a caller's value, as a message naming the placeholder and the
 * variable; null when there is none. Any value counts, inert or not: a variable's reader is unseen,
 * and even an inert word chooses code in PATH, BASH_ENV, ENV, LD_PRELOAD, PYTHONPATH or
 * NODE_OPTIONS (a relative file or folder), or names a variable a shell's arithmetic evaluates.
 */
export function envValueProblem(v: EnvValues): string | null {
  const known = (name: string) => v.param(name) !== undefined;
  for (const [name, template] of Object.entries(v.templates)) {
    if (typeof template !== "string" || !template.includes("{")) continue;
    for (const p of scriptPlaceholders(template, known)) {
      if (p.system !== "param" || !v.fromCaller(p.expr)) continue;
      return envFillMessage(template.slice(p.start, p.end), name);
    }
  }
  return null;
}

/** The refusal of a caller's placeholder `raw` in the environment variable `name`, at build and at run. */
export function envFillMessage(raw: string, name: string): string {
  return `placeholder '${raw}' fills the environment variable ${name} from a caller's value; refused. A caller's value never fills an environment variable: its reader is unseen, and a variable can choose the code that runs (PATH, BASH_ENV, LD_PRELOAD, PYTHONPATH) or be evaluated as arithmetic. Pass ${raw} as a whole argument (args: [..., "${raw}"]) or on stdin`;
}
