import { PyFloat } from "../pystr.js";
import { bindScriptArgs, type ScriptSource } from "./bind-script-args.js";
import type { EnvMap } from "./expand-env.js";
import { runProcess, type Execa, type ProcessResult } from "./run-process.js";
import { templateExecStages } from "./template-exec.js";

/** Options of one primitive run. */
export interface PrimitiveOptions {
  osEnv: Readonly<Record<string, string | undefined>>;
  maxOutputBytes?: number;
  execa?: Execa;
  /** The chain's `-c` script, bound after templating so its values reach the shell as data. */
  script?: { source: ScriptSource; env: EnvMap; parameters: Readonly<Record<string, unknown>> } | null;
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
  try {
    t = templateExecStages(config, params, options.osEnv);
  } catch (e) {
    return failure(e instanceof Error ? e.message : String(e), started);
  }
  if (!t.command) return failure("No command specified", started);
  const nonString = [t.command, ...t.args, t.cwd ?? "", t.input_data ?? ""].find((v) => typeof v !== "string");
  if (nonString !== undefined) return failure(`expected str for a process argument, got ${JSON.stringify(nonString)}`, started);
  let args = t.args as string[];
  if (options.script) {
    const { parameters } = options.script;
    const c = config as Record<string, unknown>;
    // A parameter's value as the caller gave it: the original's later passes would re-scan it for
    // placeholders. `command`/`args` and the chain's own keys resolve as pass 2 leaves them.
    const own = (o: object, name: string) => Object.hasOwn(o, name);
    const param = (name: string) =>
      !CONFIG_KEYS.has(name) && own(parameters, name) ? parameters[name] : own(c, name) ? c[name] : own(params, name) ? params[name] : undefined;
    try {
      args = bindScriptArgs(t.command as string, args, options.script.source, param, options.script.env);
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
