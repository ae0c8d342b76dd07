import { pyStrip } from "../runtime/pystr.js";
import { PyFloat, pyInteger } from "../runtime/py-value.js";

// Python's int()/float() accept surrounding whitespace, a sign, and single underscores between
// digits; float() also takes inf/infinity/nan in any case. Unicode decimal digits are accepted by
// Python too; we accept ASCII digits only (no directive in either corpus era uses others).
const INT = /^[+-]?\d+(?:_\d+)*$/;
const FLOAT = /^[+-]?(?:(?:\d+(?:_\d+)*)?\.\d+(?:_\d+)*|\d+(?:_\d+)*\.?)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

/** Python `int(s)` (a bigint beyond 2^53), or undefined where Python raises ValueError. */
export function pyInt(s: string): number | bigint | undefined {
  const t = pyStrip(s);
  return INT.test(t) ? pyInteger(t.replaceAll("_", "")) : undefined;
}

/** Python `float(s)`, or undefined where Python raises ValueError. */
export function pyFloat(s: string): number | undefined {
  const t = pyStrip(s);
  if (FLOAT.test(t)) return Number(t.replaceAll("_", ""));
  if (SPECIAL.test(t)) {
    const neg = t.startsWith("-");
    return /nan/i.test(t) ? NaN : neg ? -Infinity : Infinity;
  }
  return undefined;
}

/** A Python value read from XML text: int, float (kept a float even when whole: `1.0`), bool or the text. */
export type XmlScalar = number | bigint | PyFloat | boolean | string;

/** Python `float(s)` as a value that stays a float, or undefined. */
function asFloat(s: string): PyFloat | undefined {
  const x = pyFloat(s);
  return x === undefined ? undefined : new PyFloat(x);
}

/** `<limits>` attribute values: float when the text has a ".", else int, else the text itself. */
export function coerceLimit(v: string): number | bigint | PyFloat | string {
  return (v.includes(".") ? asFloat(v) : pyInt(v)) ?? v;
}

/** `<runtime>` attribute values: booleans first, then the limits rule. */
export function coerceRuntime(v: string): XmlScalar {
  const lower = v.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  return coerceLimit(v);
}

/** Hook `<condition value=…>`: booleans, then int, then float, else the text. */
export function coerceCondition(v: string): XmlScalar {
  const lower = v.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  return pyInt(v) ?? asFloat(v) ?? v;
}
