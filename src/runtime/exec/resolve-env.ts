import { pyStr, pyStrip } from "../pystr.js";
import { expandEnvVars } from "./expand-env.js";
import { resolveInterpreter, type CheckoutPolicy } from "./resolve-interpreter.js";
import { templateDeep } from "./substitute-params.js";

/** An `env_config` block: optional interpreter resolution plus static variables in written order. */
export interface EnvConfig {
  interpreter?: Record<string, unknown>;
  env?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Where an EnvResolver looks things up; tests pass plain data instead of the process's own. */
export interface EnvSources {
  /** The inherited OS environment (`os.environ`). */
  osEnv: Readonly<Record<string, string | undefined>>;
  /** Root for `.env` and for relative interpreter search paths. */
  projectPath: string;
  /** Content of `<project>/.env`; `undefined` when there is no such file. */
  dotenv?: string;
  /** Whether to read `.env` (default true, as in the original). */
  includeDotenv?: boolean;
  /** A bundle run's checkout: interpreter resolution takes nothing inside it (see resolveInterpreter). */
  checkout?: CheckoutPolicy;
}

/** Environment variables as the original returns them: every value a string. */
export type Env = Record<string, string>;

/** Copies the defined entries of an environment. */
export function copyEnv(env: Readonly<Record<string, string | undefined>>): Env {
  const out: Env = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Applies `.env` lines: `#` comments and blank lines skipped, split on the first `=`, key and value
 * stripped, quotes kept, keys starting with `export ` dropped.
 */
export function applyDotenv(env: Env, content: string): Env {
  // Python's read_text turns every newline form into "\n" before the original splits lines.
  for (const rawLine of content.split(/\r\n|\r|\n/)) {
    const line = pyStrip(rawLine);
    if (!line || line.startsWith("#") || !line.includes("=")) continue;
    const eq = line.indexOf("=");
    const key = pyStrip(line.slice(0, eq));
    if (key && !key.startsWith("export ")) env[key] = pyStrip(line.slice(eq + 1));
  }
  return env;
}

/** Sets static variables in written order, expanding `${VAR}` against what is set so far. */
export function applyStaticEnv(env: Env, vars: Record<string, unknown>): Env {
  for (const [key, value] of Object.entries(vars)) env[key] = typeof value === "string" ? expandEnvVars(value, env) : pyStr(value);
  return env;
}

/**
 * `EnvResolver.resolve`: OS environment, then `.env`, then the interpreter, then static variables,
 * then `toolEnv` (taken verbatim, not expanded).
 */
export function resolveEnv(envConfig: EnvConfig | null | undefined, toolEnv: Env | null | undefined, sources: EnvSources): Env {
  return resolveOnto(copyEnv(sources.osEnv), envConfig, toolEnv, sources);
}

function resolveOnto(env: Env, envConfig: EnvConfig | null | undefined, toolEnv: Env | null | undefined, sources: EnvSources): Env {
  if ((sources.includeDotenv ?? true) && sources.dotenv !== undefined) applyDotenv(env, sources.dotenv);
  if (envConfig && Object.keys(envConfig).length > 0) {
    if (envConfig.interpreter && typeof envConfig.interpreter === "object") {
      resolveInterpreter(env, envConfig.interpreter, { osEnv: sources.osEnv, projectPath: sources.projectPath, checkout: sources.checkout });
    }
    if (envConfig.env && typeof envConfig.env === "object") applyStaticEnv(env, envConfig.env);
  }
  if (toolEnv && Object.keys(toolEnv).length > 0) Object.assign(env, toolEnv);
  return env;
}

/** One chain element's `env_config`, listed primitive first (the order both merges walk). */
export interface ChainEnvConfig {
  item_id: string;
  env_config: EnvConfig;
}

/**
 * Our chain merge (decisions.md #11): the tool's `env_config` overrides the runtime's, which overrides
 * the primitive's, which overrides `.env` and the inherited OS environment. Each element's values are
 * templated with `{anchor_path}`-style context first and may reference what lower layers set.
 */
export function resolveChainEnv(configs: readonly ChainEnvConfig[], ctx: Readonly<Record<string, unknown>>, sources: EnvSources): Env {
  let env = copyEnv(sources.osEnv);
  if ((sources.includeDotenv ?? true) && sources.dotenv !== undefined) applyDotenv(env, sources.dotenv);
  const layered = { ...sources, includeDotenv: false };
  for (const { env_config } of configs) {
    env = resolveOnto(env, templateDeep(env_config, ctx) as EnvConfig, undefined, layered);
  }
  return env;
}

/**
 * The original `_resolve_chain_env`, for comparison: each element is resolved from the OS environment
 * with everything merged so far passed as `tool_env`, so the element nearest the primitive (and the OS
 * environment) wins over the tool's own settings. Returns `{}` when no element has an env_config.
 */
export function resolveChainEnvOriginal(configs: readonly ChainEnvConfig[], ctx: Readonly<Record<string, unknown>>, sources: EnvSources): Env {
  const merged: Env = {};
  for (const { env_config } of configs) {
    if (!env_config || Object.keys(env_config).length === 0) continue;
    Object.assign(merged, resolveEnv(templateDeep(env_config, ctx) as EnvConfig, merged, sources));
  }
  return merged;
}
