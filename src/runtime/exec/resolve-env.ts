import { pyStr, pyStrip } from "../pystr.js";
import { expandEnvVars, isPlainObject, type SealText } from "./expand-env.js";
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

/**
 * Where each variable's text came from, for the executor: only the chain's own `env_config` values
 * are templates. Every other text (the OS's, `.env`'s, an interpreter path, what a `${VAR}` of the
 * chain's text put in) is data from the moment it is read, so the `{param}` passes must never read it.
 */
export interface EnvTrack {
  /** Seals a text (seal-text.ts): what the resolver's own `${VAR}` puts in goes in sealed where a later pass could read it. */
  seal: SealText;
  /** The names whose text the chain wrote (a static `env` value), as the resolution ends. */
  authored: Set<string>;
}

/** Sets static variables in written order, expanding `${VAR}` against what is set so far. */
export function applyStaticEnv(env: Env, vars: Record<string, unknown>, track?: EnvTrack): Env {
  for (const [key, value] of Object.entries(vars)) {
    env[key] = typeof value === "string" ? expandEnvVars(value, env, track?.seal) : pyStr(value);
    track?.authored.add(key);
  }
  return env;
}

/** The names whose value differs between two snapshots of an env. */
export function changedNames(before: Readonly<Env>, after: Readonly<Env>): string[] {
  return Object.keys(after).filter((k) => !Object.hasOwn(before, k) || before[k] !== after[k]);
}

/**
 * The env as the executor's passes see it: every variable the chain did not write is sealed whole
 * when its text holds `{`, `}` or `$` (a text with none of them can neither hold nor, standing
 * alone as a variable's whole value, complete a placeholder). The chain's own values stay templates.
 */
export function sealUnauthored(env: Readonly<Env>, track: EnvTrack): Env {
  const out: Env = {};
  for (const [k, v] of Object.entries(env)) out[k] = track.authored.has(k) || !/[{}$]/.test(v) ? v : track.seal(v);
  return out;
}

/**
 * `EnvResolver.resolve`: OS environment, then `.env`, then the interpreter, then static variables,
 * then `toolEnv` (taken verbatim, not expanded).
 */
export function resolveEnv(envConfig: EnvConfig | null | undefined, toolEnv: Env | null | undefined, sources: EnvSources, track?: EnvTrack): Env {
  return resolveOnto(copyEnv(sources.osEnv), envConfig, toolEnv, sources, track);
}

function resolveOnto(env: Env, envConfig: EnvConfig | null | undefined, toolEnv: Env | null | undefined, sources: EnvSources, track?: EnvTrack): Env {
  if ((sources.includeDotenv ?? true) && sources.dotenv !== undefined) applyDotenv(env, sources.dotenv);
  if (envConfig && Object.keys(envConfig).length > 0) {
    if (envConfig.interpreter && typeof envConfig.interpreter === "object") {
      const before = { ...env };
      resolveInterpreter(env, envConfig.interpreter, { osEnv: sources.osEnv, projectPath: sources.projectPath, checkout: sources.checkout });
      // A path the resolver found is data, whatever the variable held before.
      for (const k of changedNames(before, env)) track?.authored.delete(k);
    }
    if (envConfig.env && typeof envConfig.env === "object") applyStaticEnv(env, envConfig.env, track);
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
export function resolveChainEnv(configs: readonly ChainEnvConfig[], ctx: Readonly<Record<string, unknown>>, sources: EnvSources, track?: EnvTrack): Env {
  let env = copyEnv(sources.osEnv);
  if ((sources.includeDotenv ?? true) && sources.dotenv !== undefined) applyDotenv(env, sources.dotenv);
  const layered = { ...sources, includeDotenv: false };
  for (const { env_config } of configs) {
    env = resolveOnto(env, withContext(env_config, ctx, track), undefined, layered, track);
  }
  return env;
}

/**
 * An element's env_config with its `{anchor_path}`-style context filled in. With `track`, a context
 * path put into a static `env` value goes in sealed when it holds `{`, `}` or `$`, so the resolver's
 * `${VAR}` and the later passes read it as the path it is (interpreter search paths get it raw: they
 * name files).
 */
function withContext(envConfig: EnvConfig, ctx: Readonly<Record<string, unknown>>, track: EnvTrack | undefined): EnvConfig {
  const out = templateDeep(envConfig, ctx) as EnvConfig;
  if (!track || !isPlainObject(envConfig) || !isPlainObject(envConfig.env)) return out;
  const sealed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ctx)) sealed[k] = typeof v === "string" && /[{}$]/.test(v) ? track.seal(v) : v;
  return { ...out, env: templateDeep(envConfig.env, sealed) as Record<string, unknown> };
}

/**
 * The original `_resolve_chain_env`, for comparison: each element is resolved from the OS environment
 * with everything merged so far passed as `tool_env`, so the element nearest the primitive (and the OS
 * environment) wins over the tool's own settings. Returns `{}` when no element has an env_config.
 */
export function resolveChainEnvOriginal(configs: readonly ChainEnvConfig[], ctx: Readonly<Record<string, unknown>>, sources: EnvSources, track?: EnvTrack): Env {
  const merged: Env = {};
  for (const { env_config } of configs) {
    if (!env_config || Object.keys(env_config).length === 0) continue;
    const own = track ? { seal: track.seal, authored: new Set<string>() } : undefined;
    const next = resolveEnv(withContext(env_config, ctx, own), merged, sources, own);
    // What was merged so far is laid over this element's result as it is, origin included.
    if (track && own) {
      for (const k of Object.keys(next)) {
        if (Object.hasOwn(merged, k) ? track.authored.has(k) : own.authored.has(k)) track.authored.add(k);
        else track.authored.delete(k);
      }
    }
    Object.assign(merged, next);
  }
  return merged;
}
