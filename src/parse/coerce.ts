import { pyStrip } from "../runtime/pystr.js";

// Python's int()/float() accept surrounding whitespace, a sign, and single underscores between
// digits; float() also takes inf/infinity/nan in any case. Unicode decimal digits are accepted by
// Python too; we accept ASCII digits only (no directive in either corpus era uses others).
const INT = /^[+-]?\d+(?:_\d+)*$/;
const FLOAT = /^[+-]?(?:(?:\d+(?:_\d+)*)?\.\d+(?:_\d+)*|\d+(?:_\d+)*\.?)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

/** Python `int(s)`, or undefined where Python raises ValueError. */
export function pyInt(s: string): number | undefined {
  const t = pyStrip(s);
  return INT.test(t) ? Number(t.replaceAll("_", "")) : undefined;
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

/** `<limits>` attribute values: float when the text has a ".", else int, else the text itself. */
export function coerceLimit(v: string): number | string {
  return (v.includes(".") ? pyFloat(v) : pyInt(v)) ?? v;
}

/** `<runtime>` attribute values: booleans first, then the limits rule. */
export function coerceRuntime(v: string): boolean | number | string {
  const lower = v.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  return coerceLimit(v);
}

/** Hook `<condition value=…>`: booleans, then int, then float, else the text. */
export function coerceCondition(v: string): boolean | number | string {
  const lower = v.toLowerCase();
  if (lower === "true" || lower === "false") return lower === "true";
  return pyInt(v) ?? pyFloat(v) ?? v;
}
