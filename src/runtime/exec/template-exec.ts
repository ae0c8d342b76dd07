import { expandEnvVars, type SealText } from "./expand-env.js";
import { copyEnv, type Env } from "./resolve-env.js";
import { pyTruthy, pyTypeName, templateParams } from "./substitute-params.js";

/** The fields of an execute-primitive config after its two templating stages. */
export interface TemplatedExec {
  command: unknown;
  args: unknown[];
  cwd: unknown;
  input_data: unknown;
  /** The child's environment: the OS environment with the config's `env` over it. */
  env: Env;
}

/** Stage 1 on one field (`_template_env_vars`): falsy values pass, other non-strings raise TypeError. */
export function templateEnvVars(text: unknown, env: Env, seal?: SealText): unknown {
  if (!pyTruthy(text)) return text;
  if (typeof text !== "string") throw new TypeError(`expected string or bytes-like object, got '${pyTypeName(text)}'`);
  return expandEnvVars(text, env, seal);
}

/**
 * The execute primitive's templating, as `ExecutePrimitive.execute` runs it before spawning: the
 * process env is the OS environment plus `config.env`; stage 1 expands `${VAR}` (no quoting) in
 * command, args, cwd and input_data, then stage 2 substitutes `{param}` with `str()` values. With
 * `seal`, stage 1's substituted text goes in sealed, so stage 2 does not read it (the execution path).
 */
export function templateExecStages(
  config: Readonly<Record<string, unknown>>,
  params: Readonly<Record<string, unknown>>,
  osEnv: Readonly<Record<string, string | undefined>>,
  seal?: SealText,
): TemplatedExec {
  const env = { ...copyEnv(osEnv), ...((config.env as Env | undefined) ?? {}) };
  const args = Array.isArray(config.args) ? config.args : config.args == null ? [] : [...(config.args as Iterable<unknown>)];
  const orNull = (v: unknown) => (pyTruthy(v) ? v : null);
  const stage1 = {
    command: orNull(templateEnvVars(config.command, env, seal)),
    args: args.map((a) => templateEnvVars(a, env, seal)),
    cwd: orNull(templateEnvVars(config.cwd, env, seal)),
    input_data: orNull(templateEnvVars(config.input_data, env, seal)),
  };
  const p = params as Record<string, unknown>;
  return {
    command: orNull(templateParams(stage1.command, p)),
    args: stage1.args.map((a) => templateParams(a, p)),
    cwd: orNull(templateParams(stage1.cwd, p)),
    input_data: orNull(templateParams(stage1.input_data, p)),
    env,
  };
}
