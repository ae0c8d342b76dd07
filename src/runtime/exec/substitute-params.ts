import { PyFloat, pyStr, pyStrip } from "../pystr.js";
import { defineKey, expandEnvDeep, isPlainObject, type EnvMap, type EnvPassOptions } from "./expand-env.js";

// System 2 (`{param}`). Python's `\w` is Unicode-aware, hence the property classes.
const WHOLE_PLACEHOLDER = /^\{([\p{L}\p{N}_]+)\}$/u;
const MIXED_PLACEHOLDER = /\{([^}]+)\}/g;
const WORD_PLACEHOLDER = /\{([\p{L}\p{N}_]+)\}/gu;

/** Maximum number of `{param}` passes of the executor's pass 2. */
export const MAX_PARAM_PASSES = 3;

const has = (params: object, key: string) => Object.hasOwn(params, key);

/**
 * One `{param}` pass over a nested value: a string that is exactly one `{name}` (after `.strip()`)
 * becomes the parameter's typed value; otherwise each `{…}` becomes `str(value)`. Unknown names stay.
 */
export function substituteParamsDeep(value: unknown, params: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const whole = WHOLE_PLACEHOLDER.exec(pyStrip(value));
    if (whole) return has(params, whole[1]!) ? params[whole[1]!] : value;
    return value.replace(MIXED_PLACEHOLDER, (m, name: string) => (has(params, name) ? pyStr(params[name]) : m));
  }
  if (Array.isArray(value)) return value.map((item) => substituteParamsDeep(item, params));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) defineKey(out, k, substituteParamsDeep(v, params));
    return out;
  }
  return value;
}

/** Pass 2 of `_template_config`: the config is its own parameter set; up to 3 passes, until stable. */
export function substituteConfigParams(config: Record<string, unknown>): Record<string, unknown> {
  let result = config;
  for (let pass = 0; pass < MAX_PARAM_PASSES; pass++) {
    const next = substituteParamsDeep(result, result) as Record<string, unknown>;
    if (pyEquals(next, result)) break;
    result = next;
  }
  return result;
}

/**
 * `PrimitiveExecutor._template_config`: `${VAR}` pass 1 over the whole config, then `{param}` pass 2.
 * With `options.seal` (the execution path), what pass 1 puts in is one token pass 2 cannot read.
 */
export function templateConfig(config: Record<string, unknown>, env: EnvMap, options: EnvPassOptions): Record<string, unknown> {
  return substituteConfigParams(expandEnvDeep(config, env, options) as Record<string, unknown>);
}

/**
 * The execute primitive's stage 2 (`_template_params`): each `{…}` becomes `str(value)`, unknown names
 * stay. A falsy value is returned as is; any other non-string raises Python's TypeError.
 */
export function templateParams(text: unknown, params: Record<string, unknown>): unknown {
  if (!pyTruthy(text)) return text;
  if (typeof text !== "string") throw new TypeError(`expected string or bytes-like object, got '${pyTypeName(text)}'`);
  return text.replace(MIXED_PLACEHOLDER, (m, name: string) => (has(params, name) ? pyStr(params[name]) : m));
}

/**
 * `_template_string` (anchor paths, `cwd`, env_config values): `{word}` → the context value, unknown
 * names stay. As with Python's `re.sub`, a `None` value drops the placeholder and any other non-string
 * raises TypeError.
 */
export function templateString(template: string, ctx: Readonly<Record<string, unknown>>): string {
  const pieces: unknown[] = [];
  let last = 0;
  for (const m of template.matchAll(WORD_PLACEHOLDER)) {
    if (m.index > last) pieces.push(template.slice(last, m.index));
    const value = has(ctx, m[1]!) ? ctx[m[1]!] : m[0];
    if (value !== null) pieces.push(value);
    last = m.index + m[0].length;
  }
  if (last < template.length) pieces.push(template.slice(last));
  const bad = pieces.findIndex((p) => typeof p !== "string");
  if (bad >= 0) throw new TypeError(`sequence item ${bad}: expected str instance, ${pyTypeName(pieces[bad])} found`);
  return pieces.join("");
}

/** `_template_dict`: `templateString` over every string of a nested value. */
export function templateDeep(data: unknown, ctx: Readonly<Record<string, unknown>>): unknown {
  if (typeof data === "string") return templateString(data, ctx);
  if (Array.isArray(data)) return data.map((item) => templateDeep(item, ctx));
  if (isPlainObject(data)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(data)) defineKey(out, k, templateDeep(v, ctx));
    return out;
  }
  return data;
}

/** Python truthiness of JSON-like data. */
export function pyTruthy(value: unknown): boolean {
  if (value instanceof PyFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Python's `type(value).__name__` for JSON-like data. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (value instanceof PyFloat) return "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return "dict";
}

/** Python `==` on JSON-like data: `True == 1 == 1.0`, containers compared element-wise. */
export function pyEquals(a: unknown, b: unknown): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) return na === nb;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]));
  }
  return a === b;
}

function numeric(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof PyFloat) return v.value;
  return undefined;
}
