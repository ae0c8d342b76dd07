import { pyStrip } from "../pystr.js";

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
 * Stands for the text a `${VAR}` puts in: one opaque token (seal-text.ts) that no later pass reads,
 * put back once templating is done. The variable's text is a value, not the chain's template.
 */
export type SealText = (text: string) => string;

// A text a pass puts in could hold `{name}` or `${VAR}`, or close or open one with the template's own
// braces around it (`{${G}}`, `{x${G}`).
const OPENS_TEMPLATE = /[{}$]/;

/**
 * Each `${VAR}` of `text` replaced by `valueOf(expr)`. With `seal`, a substituted text goes in sealed
 * when it or the template around it holds `{`, `}` or `$`: a later pass cannot read it, alone or
 * joined to the template's text. Other texts (`"${TIMEOUT}"`, `"${HOME}/bin"`) stay as they are, and
 * so does whitespace, which names no parameter and which the `{param}` pass strips off a lone
 * `{name}` as the original does.
 */
function substitute(text: string, valueOf: (expr: string) => string, seal: SealText | undefined): string {
  const around = OPENS_TEMPLATE.test(text.replace(ENV_VAR_PATTERN, ""));
  return text.replace(ENV_VAR_PATTERN, (_m, expr: string) => {
    const value = valueOf(expr);
    return seal && pyStrip(value) !== "" && (around || OPENS_TEMPLATE.test(value)) ? seal(value) : value;
  });
}

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string, with no quoting: the semantics of
 * `EnvResolver._expand_variables` and of the execute primitive's stage 1 (`_template_env_vars`).
 * With `seal`, substituted text goes in sealed where a later pass could read it.
 */
export function expandEnvVars(text: string, env: EnvMap, seal?: SealText): string {
  if (!text) return text;
  return substitute(text, (expr) => lookup(env, expr), seal);
}

/** Options for the executor's pass 1. */
export interface EnvPassOptions {
  /**
   * Shell-quote substituted values that contain shell metacharacters, as the original always did.
   * We quote only when the command runs through a shell (decisions.md #10).
   */
  shellQuote: boolean;
  /**
   * Seals each substituted text, so the `{param}` passes and the primitive's stages after this one
   * never read a variable's value as a template (`{name}`, `${VAR}` in it stay text). The execution
   * path always gives one; the ports compared with the original's vectors do not.
   */
  seal?: SealText;
}

/** `PrimitiveExecutor._template_config` pass 1: expands `${VAR}` in every string of a nested value. */
export function expandEnvDeep(value: unknown, env: EnvMap, options: EnvPassOptions): unknown {
  if (typeof value === "string") {
    return substitute(
      value,
      (expr) => {
        const raw = lookup(env, expr);
        return raw && options.shellQuote && SHELL_SPECIAL.test(raw) ? shellQuote(raw) : raw;
      },
      options.seal,
    );
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
