// System 1 (`${VAR}` / `${VAR:-default}`). Names are upper-case only, so context paths such as
// `${state.x}` pass through. The default applies only when the variable is absent: a set but empty
// variable wins, unlike the shell's `:-`.

/** The original's pattern, shared by all three copies of System 1. */
export const ENV_VAR_PATTERN = /\$\{([A-Z_][A-Z0-9_]*(?::-[^}]*)?)\}/g;

/** An environment to look names up in; only own string entries count. */
export type EnvMap = Readonly<Record<string, string | undefined>>;

// Characters whose presence made the original shell-quote a substituted value.
const SHELL_SPECIAL = /[$`;|&<>(){}[\]\\]/;
const SHLEX_SAFE = /^[\w@%+=:,./-]+$/;

/** Python's `shlex.quote`. */
export function shellQuote(value: string): string {
  if (value === "") return "''";
  if (SHLEX_SAFE.test(value)) return value;
  return `'${value.replace(/'/g, `'"'"'`)}'`;
}

function lookup(env: EnvMap, expr: string): string {
  const split = expr.indexOf(":-");
  const name = split < 0 ? expr : expr.slice(0, split);
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  if (value !== undefined) return value;
  return split < 0 ? "" : expr.slice(split + 2);
}

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string, with no quoting: the semantics of
 * `EnvResolver._expand_variables` and of the execute primitive's stage 1 (`_template_env_vars`).
 */
export function expandEnvVars(text: string, env: EnvMap): string {
  if (!text) return text;
  return text.replace(ENV_VAR_PATTERN, (_m, expr: string) => lookup(env, expr));
}

/** Options for the executor's pass 1. */
export interface EnvPassOptions {
  /**
   * Shell-quote substituted values that contain shell metacharacters, as the original always did.
   * We quote only when the command runs through a shell (decisions.md #10).
   */
  shellQuote: boolean;
}

/** `PrimitiveExecutor._template_config` pass 1: expands `${VAR}` in every string of a nested value. */
export function expandEnvDeep(value: unknown, env: EnvMap, options: EnvPassOptions): unknown {
  if (typeof value === "string") {
    return value.replace(ENV_VAR_PATTERN, (_m, expr: string) => {
      const raw = lookup(env, expr);
      if (!raw) return "";
      return options.shellQuote && SHELL_SPECIAL.test(raw) ? shellQuote(raw) : raw;
    });
  }
  if (Array.isArray(value)) return value.map((item) => expandEnvDeep(item, env, options));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) defineKey(out, k, expandEnvDeep(v, env, options));
    return out;
  }
  return value;
}

/** True for `{...}` data objects (not arrays, not class instances such as PyFloat). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Sets a key as data even when it is `__proto__`. */
export function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
