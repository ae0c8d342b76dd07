// The original's directive interpolation as run-time interpreters (rye-reference.md §2.1). Compiled
// modules only call these for fields that need them ({env:} refs, `${inputs.}` second pass); they
// are also the reference the compiled fast paths are tested against.
import { pyStr } from "./pystr.js";

/** `\{input:(\w+)(\?|[:|][^}]*)?\}` with Python's Unicode `\w`. */
export const INPUT_REF = /\{input:([\p{L}\p{N}_]+)(\?|[:|][^}]*)?\}/gu;
/** `\$\{inputs\.(\w+)\}`. */
export const DOLLAR_INPUT = /\$\{inputs\.([\p{L}\p{N}_]+)\}/gu;
/** `\{env:(\w+)(?::([^}]*))?\}` (era C). */
export const ENV_REF = /\{env:([\p{L}\p{N}_]+)(?::([^}]*))?\}/gu;

/**
 * The text a pattern ending in `}` can match in: up to its last `}`. Past it no match can end, and
 * cut there every `[^}]*` run stops at a `}` that completes its match, so no opener's run is read
 * again by the next (the whole text would make `{input:a|` repeated quadratic).
 */
export const upToLastCloser = (text: string): string => text.slice(0, text.lastIndexOf("}") + 1);

/** `text.replace(pattern, fn)` for a global `pattern` whose every match ends in `}`, in linear time. */
export function replaceBeforeLastCloser(text: string, pattern: RegExp, fn: (whole: string, ...groups: string[]) => string): string {
  const head = upToLastCloser(text);
  return head.replace(pattern, fn as (whole: string, ...rest: unknown[]) => string) + text.slice(head.length);
}

const has = (inputs: Readonly<Record<string, unknown>>, key: string) => Object.hasOwn(inputs, key) && inputs[key] !== undefined;

/** One pass of input refs, then (only if the result holds `${inputs.`) one pass of `${inputs.x}`. */
export function resolveInputRefs(text: string, inputs: Readonly<Record<string, unknown>>): string {
  const out = text.includes("{input:")
    ? replaceBeforeLastCloser(text, INPUT_REF, (whole, key: string, modifier: string | undefined) => {
        if (has(inputs, key)) return pyStr(inputs[key]);
        if (modifier === "?") return "";
        if (modifier) return modifier.slice(1);
        return whole;
      })
    : text;
  return resolveDollarRefs(out, inputs);
}

/** The second pass alone: `${inputs.x}` for present keys, only if the text holds `${inputs.`. */
export function resolveDollarRefs(text: string, inputs: Readonly<Record<string, unknown>>): string {
  if (!text.includes("${inputs.")) return text;
  return replaceBeforeLastCloser(text, DOLLAR_INPUT, (whole, key: string) => (has(inputs, key) ? pyStr(inputs[key]) : whole));
}

/** `{env:VAR}` and `{env:VAR:default}`: a set variable (even empty) wins, then the default, else the literal. */
export function resolveEnvRefs(text: string, env: Readonly<Record<string, string | undefined>>): string {
  if (!text.includes("{env:")) return text;
  return replaceBeforeLastCloser(text, ENV_REF, (whole, name: string, fallback: string | undefined) => {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    return value !== undefined ? value : fallback !== undefined ? fallback : whole;
  });
}

/** `_interpolate_parsed`: body, content and raw get env then input refs; actions get input refs only. */
export function interpolateParsed<T extends Record<string, unknown>>(
  parsed: T,
  inputs: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): T {
  const out: Record<string, unknown> = { ...parsed };
  for (const key of ["body", "content", "raw"]) {
    const v = out[key];
    if (typeof v === "string") out[key] = resolveInputRefs(resolveEnvRefs(v, env), inputs);
  }
  if (Array.isArray(out.actions)) {
    out.actions = (out.actions as Record<string, unknown>[]).map((action) => {
      const a: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(action)) a[k] = typeof v === "string" ? resolveInputRefs(v, inputs) : v;
      const params = action.params;
      if (params && typeof params === "object" && !Array.isArray(params)) {
        const p: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(params)) p[k] = typeof v === "string" ? resolveInputRefs(v, inputs) : v;
        a.params = p;
      }
      return a;
    });
  }
  return out as T;
}
