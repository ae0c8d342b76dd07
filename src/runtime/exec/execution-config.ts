import { pyJsonDumps } from "../py-json.js";
import { pyStrip } from "../pystr.js";
import { defineKey, isPlainObject, type EnvPassOptions } from "./expand-env.js";
import type { Env } from "./resolve-env.js";
import { templateConfig } from "./substitute-params.js";

/** Keys never serialised into `params_json` (rye-reference §2.3, current era). */
export const PARAMS_JSON_EXCLUDED: ReadonlySet<string> = new Set([
  "env", "tool_path", "tool_dir", "tool_parent", "anchor_path", "runtime_lib", "project_path", "user_space", "system_space",
  "cwd", "timeout", "server", "tool_name", "server_config_path", "fixed_params", "params_key",
]);
// Tool parameters with these names belong to the tool, never to the spawned command's config.
const CONFIG_KEYS = new Set(["command", "args"]);
const WHOLE_PLACEHOLDER = /^\{[\p{L}\p{N}_]+\}$/u;

/** Where the executor runs: the values it injects into every config. */
export interface ExecutorPaths {
  project_path: string;
  user_space: string;
  system_space: string;
  tool_path: string;
}

/** The tool parameters as the tool receives them in `params_json`, with `fixed_params` applied. */
export function toolParams(parameters: Readonly<Record<string, unknown>>, config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  let params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parameters)) if (!PARAMS_JSON_EXCLUDED.has(k) && !k.startsWith("__")) defineKey(params, k, v);
  const fixed = config.fixed_params;
  if (isPlainObject(fixed)) {
    const key = config.params_key;
    if (key) params = { ...fixed, [String(key)]: params };
    else params = { ...Object.fromEntries(Object.entries(params).filter(([k]) => !Object.hasOwn(fixed, k))), ...fixed };
  }
  return params;
}

/**
 * `_build_execution_config`: merged chain config + parameters (minus `command`/`args`/`__*`), the
 * resolved env, executor paths and `params_json`, then `${VAR}` pass 1 and `{param}` pass 2. Body
 * entries still a lone `{name}` are dropped; `__*` parameters are put back untemplated.
 */
export function buildExecutionConfig(
  chainConfig: Readonly<Record<string, unknown>>,
  resolvedEnv: Env,
  parameters: Readonly<Record<string, unknown>>,
  paths: ExecutorPaths,
  options: EnvPassOptions & { paramsJson?: string },
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(chainConfig)) defineKey(config, k, v);
  const passthrough = Object.entries(parameters).filter(([k]) => k.startsWith("__"));
  for (const [k, v] of Object.entries(parameters)) if (!k.startsWith("__") && !CONFIG_KEYS.has(k)) defineKey(config, k, v);
  config.env = resolvedEnv;
  config.project_path = paths.project_path;
  config.user_space = paths.user_space;
  config.system_space = paths.system_space;
  config.tool_path = paths.tool_path;
  config.params_json = options.paramsJson ?? pyJsonDumps(toolParams(parameters, config));
  const templated = templateConfig(config, resolvedEnv, options);
  const body = templated.body;
  if (isPlainObject(body)) {
    templated.body = Object.fromEntries(Object.entries(body).filter(([, v]) => !(typeof v === "string" && WHOLE_PLACEHOLDER.test(pyStrip(v)))));
  }
  for (const [k, v] of passthrough) defineKey(templated, k, v);
  return templated;
}
