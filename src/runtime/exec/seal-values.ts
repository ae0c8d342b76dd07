// A caller's value is never a template (docs/security-model.md): the executor's passes expand
// `${VAR}` and re-scan substituted text for `{name}` up to three times, which is right for the
// chain's own text and wrong for a value, where `${API_KEY}` or `{tool_path}` would be filled in. So
// before templating each caller string that holds `{` or `$` is replaced by an opaque token (no
// `{`, `}` or `$`, ASCII only, so every pass and Python's repr leave it as it is), and the tokens
// are put back once templating is done: substitution is single-pass for values.
import { randomBytes } from "node:crypto";
import { defineKey, isPlainObject } from "./expand-env.js";

/** Tokens for values, and the way back. */
export interface ValueSeal {
  /** The value, or its token when it holds a templating character. */
  seal: (value: unknown) => unknown;
  /** Puts every token in `value` (strings, arrays, objects) back to its original text. */
  restore: <T>(value: T) => T;
}

/** A fresh seal with its own random token part, so no caller can write a token of another value. */
export function valueSeal(): ValueSeal {
  const nonce = randomBytes(8).toString("hex");
  const values: string[] = [];
  const token = new RegExp(`@rye-value-${nonce}-(\\d+)@`, "g");
  const seal = (value: unknown): unknown => {
    if (typeof value === "string") {
      if (!/[{$]/.test(value)) return value;
      values.push(value);
      return `@rye-value-${nonce}-${values.length - 1}@`;
    }
    return deep(value, seal);
  };
  const restore = <T>(value: T): T => {
    if (values.length === 0) return value;
    const one = (v: unknown): unknown => (typeof v === "string" ? v.replace(token, (_m, i: string) => values[Number(i)]!) : deep(v, one));
    return one(value) as T;
  };
  return { seal, restore };
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
