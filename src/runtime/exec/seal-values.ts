// A caller's value is never a template (docs/security-model.md): the executor's passes expand
// `${VAR}` and re-scan substituted text for `{name}` up to three times, which is right for the
// chain's own text and wrong for a value, where `${API_KEY}` or `{tool_path}` would be filled in. So
// before templating, each caller value whose text could hold a template is replaced by ONE opaque
// token (no `{`, `}` or `$`, ASCII only, so every pass and Python's repr leave it as it is) standing
// for the whole value: a string, or a dict or list with its keys, nested reprs and numbers, all of
// whose text comes from the caller. Sealing parts (strings inside a container) is not enough: str()
// of a dict writes its keys raw. Restoring puts back, once templating is done, the text the original
// would have substituted, computed once from the raw value: the value itself where a token is the
// whole field (a typed substitution), its str() where a token sits inside larger text.
import { randomBytes } from "node:crypto";
import { PyFloat, pyStr } from "../pystr.js";
import { defineKey, isPlainObject } from "./expand-env.js";

/** Tokens for values, and the way back. */
export interface ValueSeal {
  /** The value, or one token for all of it when its text could hold a template. */
  seal: (value: unknown) => unknown;
  /**
   * Puts every token in `value` (strings, arrays, plain objects) back: a string that is exactly a
   * token becomes the raw value (typed), a token inside text becomes the raw value's str().
   */
  restore: <T>(value: T) => T;
}

/** Whether str() of `value` could hold a template: it has `{` or `$` and is not an empty container. */
export function mayHoldTemplate(value: unknown): boolean {
  if (typeof value === "string") return /[{$]/.test(value);
  if (!isContainer(value)) return false;
  // An empty container renders as `{}` or `[]`: no placeholder, and sealing it would change its truth.
  if (containerSize(value) === 0) return false;
  return /[{$]/.test(pyStr(value));
}

/** A fresh seal with its own random token part, so no caller can write a token of another value. */
export function valueSeal(): ValueSeal {
  const nonce = randomBytes(8).toString("hex");
  const values: unknown[] = [];
  const texts: string[] = [];
  const token = new RegExp(`@rye-value-${nonce}-(\\d+)@`, "g");
  const whole = new RegExp(`^@rye-value-${nonce}-(\\d+)@$`);
  const seal = (value: unknown): unknown => {
    if (!mayHoldTemplate(value)) return value;
    values.push(value);
    texts.push(pyStr(value));
    return `@rye-value-${nonce}-${values.length - 1}@`;
  };
  const restore = <T>(value: T): T => {
    if (values.length === 0) return value;
    const one = (v: unknown): unknown => {
      if (typeof v !== "string") return deep(v, one);
      const w = whole.exec(v);
      if (w) return values[Number(w[1])];
      return v.replace(token, (_m, i: string) => texts[Number(i)]!);
    };
    return one(value) as T;
  };
  return { seal, restore };
}

// Arrays, Maps and plain objects alike: Object.keys of an array counts its elements.
function isContainer(value: unknown): value is object {
  return value !== null && typeof value === "object" && !(value instanceof PyFloat);
}

function containerSize(value: object): number {
  return value instanceof Map ? value.size : Object.keys(value).length;
}

function deep(value: unknown, f: (v: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map(f);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) defineKey(out, k, f(v));
    return out;
  }
  return value;
}

/**
 * Every value of `values` sealed: the caller's parameters and rye's own paths alike, since a folder
 * a checkout names (`{text}`, `{env}`) is no more a template than a caller's text is.
 */
export function sealAll<T extends Readonly<Record<string, unknown>>>(seal: ValueSeal, values: T): T {
  // A token is a string; a string stays a string, so a record of strings stays one.
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, seal.seal(v)])) as T;
}
