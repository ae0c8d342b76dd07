import { PyFloat } from "../pystr.js";
import { bindScriptArgs, scriptSource } from "./bind-script-args.js";
import type { EnvMap, SealText } from "./expand-env.js";
import { runProcess, type Execa, type ProcessResult } from "./run-process.js";
import { shellName } from "./shell-script.js";
import { splicedValueProblem } from "./spliced-args.js";
import { templateExecStages } from "./template-exec.js";
import { placeholdersOf } from "./caller-params.js";
import { launchPositionProblem, stdinProblem } from "./caller-positions.js";
import { evaluationProblem } from "./evaluation-channels.js";
import { envTypeProblem, envValueProblem, openWholeFields, restoreChannels } from "./value-channels.js";

/** The chain's templates and values, to bind a `-c` script and check spliced values after templating. */
export interface ScriptBinding {
  /** The chain's merged config as written (templates before any value went in). */
  chainConfig: Readonly<Record<string, unknown>>;
  env: EnvMap;
  /** The variables whose text the chain wrote, as templates (their inserted text sealed); default `env`. */
  envTemplates?: EnvMap;
  parameters: Readonly<Record<string, unknown>>;
  /** The parameters the caller passed, whose values are untrusted. */
  callerParams: Readonly<Record<string, unknown>>;
}

/** Options of one primitive run. */
export interface PrimitiveOptions {
  osEnv: Readonly<Record<string, string | undefined>>;
  maxOutputBytes?: number;
  execa?: Execa;
  /** The chain's templates: its `-c` script is bound after templating so values reach the shell as data. */
  script?: ScriptBinding | null;
  /** Puts caller values sealed for templating back (seal-values.ts). */
  restore?: <T>(value: T) => T;
  /** Seals the text stage 1 puts in, with the seal `restore` opens, so stage 2 never reads it. */
  seal?: SealText;
}

const CONFIG_KEYS = new Set(["command", "args"]);

const failure = (stderr: string, started: number): ProcessResult => ({
  success: false,
  stdout: "",
  stderr,
  return_code: -1,
  duration_ms: performance.now() - started,
  timed_out: false,
  truncated: false,
});

function seconds(value: unknown): number {
  const n = value instanceof PyFloat ? value.value : Number(value);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * The execute primitive: templates command/args/cwd/input_data (stages 1 and 2), then spawns the
 * command with the config's env over the OS env, `input_data` on stdin, and `timeout` (default 300 s).
 * A templating error (such as a non-string argument) is a failed result, as in the original.
 */
export async function executePrimitive(
  config: Readonly<Record<string, unknown>>,
  params: Readonly<Record<string, unknown>>,
  options: PrimitiveOptions,
): Promise<ProcessResult> {
  const started = performance.now();
  let t;
  const restore = options.restore ?? (<T>(v: T): T => v);
  try {
    const opened = options.restore ? openWholeFields(config, options.restore) : { config, restore };
    t = restoreChannels(templateExecStages(opened.config, params, options.osEnv, options.seal), opened.restore);
  } catch (e) {
    return failure(e instanceof Error ? e.message : String(e), started);
  }
  if (!t.command) return failure("No command specified", started);
  const nonString = [t.command, ...t.args, t.cwd ?? "", t.input_data ?? ""].find((v) => typeof v !== "string");
  if (nonString !== undefined) return failure(`expected str for a process argument, got ${JSON.stringify(nonString)}`, started);
  const badEnv = envTypeProblem(t.env);
  if (badEnv) return failure(badEnv, started);
  let args = t.args as string[];
  if (options.script) {
    try {
      args = bindValues(t.command as string, args, { config, params, restore }, options.script);
    } catch (e) {
      return failure(e instanceof Error ? e.message : String(e), started);
    }
  }
  return runProcess({
    command: t.command as string,
    args,
    cwd: t.cwd as string | null,
    env: t.env,
    input: t.input_data as string | null,
    timeoutSeconds: seconds(config.timeout ?? 300),
    maxOutputBytes: options.maxOutputBytes,
    execa: options.execa,
  });
}

/** What one run resolved: the templated config and the parameters it was templated with. */
interface RunValues {
  config: Readonly<Record<string, unknown>>;
  params: Readonly<Record<string, unknown>>;
  restore: <T>(value: T) => T;
}

/**
 * Binds the `-c` script a proven shell runs (through any launchers) and checks every value channel
 * (spliced values inert or path-safe, env values, launch positions, stdin); throws with a message naming the placeholder when a value is refused.
 */
function bindValues(command: string, args: string[], run: RunValues, b: ScriptBinding): string[] {
  const { parameters, chainConfig, callerParams } = b;
  const { config, params } = run;
  const c = config as Record<string, unknown>;
  // A parameter's value as the caller gave it: the original's later passes would re-scan it for
  // placeholders. `command`/`args` and the chain's own keys resolve as pass 2 leaves them.
  const own = (o: object, name: string) => Object.hasOwn(o, name);
  // A chain key templated with a caller's value holds that value sealed: put it back.
  const param = (name: string) =>
    run.restore(!CONFIG_KEYS.has(name) && own(parameters, name) ? parameters[name] : own(c, name) ? c[name] : own(params, name) ? params[name] : undefined);
  // params_json is the caller's parameters as JSON text: as untrusted as they are. Trust follows a
  // value's origin, not its name: a chain key whose authored text takes a caller's parameter or an
  // environment value (`n: "{count}"`, `m: "${X}"`) holds that value after pass 2, so it is the caller's too.
  const fromCaller = (name: string): boolean => tainted(name, new Set());
  const tainted = (name: string, seen: Set<string>): boolean => {
    if (name === "params_json" || (!CONFIG_KEYS.has(name) && own(callerParams, name))) return true;
    if (seen.has(name) || !own(chainConfig, name)) return false;
    seen.add(name);
    const authored = chainConfig[name];
    if ((typeof authored === "string" ? authored : (JSON.stringify(authored) ?? "")).includes("${")) return true;
    const names: string[] = [];
    placeholdersOf(authored, names);
    return names.some((n) => tainted(n, seen));
  };
  const origin = { fromCaller, known: (name: string) => param(name) !== undefined };
  const envProblem = envValueProblem({ templates: b.envTemplates ?? b.env, param, fromCaller });
  if (envProblem) throw new Error(envProblem);
  const positions = { chainConfig, callerParams, env: b.env, param, origin };
  const refused = launchPositionProblem(command, args, positions) ?? stdinProblem(command, args, positions) ?? evaluationProblem(positions);
  if (refused) throw new Error(refused);
  const source = scriptSource(command, args, chainConfig, callerParams, origin);
  const bound = source ? bindScriptArgs(args, source, param, b.env, { fromCaller }) : args;
  // The chain's own key holding text with no placeholder is constant: the build saw it.
  const constant = (name: string) => !own(parameters, name) && own(chainConfig, name) && isConstantText(chainConfig[name]);
  const problem = splicedValueProblem(shellName(command), source ? source.index : -1, { chainConfig, callerParams, env: b.env, param, fromCaller, constant });
  if (problem) throw new Error(problem);
  return bound;
}

function isConstantText(value: unknown): boolean {
  return typeof value === "string" ? !/[{$]/.test(value) : value === null || typeof value !== "object";
}
