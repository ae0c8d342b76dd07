// Python's str()/repr() for JavaScript values, so rendered prompts are byte-identical to the
// original's (rye-reference.md §2.5). CPython 3.11 rules; Unicode tables are Node's (ICU).
import { PyFloat, pyItems, type PyDict } from "./py-value.js";

export { PyFloat };

/** Python `str.isspace()` for one UTF-16 code unit (all such characters are in the BMP). */
export function isPyWhitespace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    (code >= 28 && code <= 32) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Python `s.strip()` (not JS `trim()`, which differs on U+FEFF and U+001C–U+001F, U+0085). */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isPyWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Python `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac || "0"}`;
}

/** Python `str()` of a number: integer-valued JS numbers are Python ints. */
function numberStr(x: number): string {
  if (Number.isInteger(x)) return Object.is(x, -0) ? "0" : BigInt(x).toString();
  return floatRepr(x);
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python `repr(str)`: quote choice and escapes as CPython. */
export function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp < 0x7f || ch === " ") out += ch;
    else if (!NON_PRINTABLE.test(ch)) out += ch;
    else if (cp <= 0xff) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (cp <= 0xffff) out += `\\u${cp.toString(16).padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return out + quote;
}

/** Python `repr()` of a value (see `PyValue` for how JavaScript values map to Python's). */
export function pyRepr(v: unknown): string {
  if (typeof v === "string") return strRepr(v);
  return pyStr(v, true);
}

/** Python `str()` of a value (strings as themselves, containers as repr; a Map is an ordered dict). */
export function pyStr(v: unknown, inner = false): string {
  switch (typeof v) {
    case "string":
      return inner ? strRepr(v) : v;
    case "number":
      return numberStr(v);
    case "bigint":
      return v.toString();
    case "boolean":
      return v ? "True" : "False";
    case "undefined":
      return "None";
    case "object": {
      if (v === null) return "None";
      if (v instanceof PyFloat) return floatRepr(v.value);
      if (Array.isArray(v)) return `[${v.map((x) => pyStr(x, true)).join(", ")}]`;
      return `{${pyItems(v as PyDict).map(([k, x]) => `${pyStr(k, true)}: ${pyStr(x, true)}`).join(", ")}}`;
    }
    default:
      return String(v);
  }
}
