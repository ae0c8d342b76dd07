import { sha256Hex } from "./hash-region.js";

/** Marks a number as a Python float, so `canonicalJson` writes `1.0` / `1e+20` where Python would. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Wraps a number as a Python float for `canonicalJson`. */
export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}

// Python's float repr: shortest round-trip digits, scientific below 1e-4 or from 1e16, always a '.0' or exponent.
function pyFloatRepr(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = n.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  // Within [1e-4, 1e16) JS's own shortest form is already positional.
  const fixed = String(n);
  return fixed.includes(".") ? fixed : `${fixed}.0`;
}

function pyNumber(n: number): string {
  return Number.isInteger(n) && !Object.is(n, -0) ? BigInt(n).toString() : pyFloatRepr(n);
}

// json.dumps(ensure_ascii=True): \uXXXX for everything outside printable ASCII, surrogate pairs for astral code points.
function pyString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (c < 0x20 || c > 0x7e) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

// Python sorts str keys by code point; JS's default sort compares UTF-16 units, which differs above U+FFFF.
function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Python's `json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`. */
export function canonicalJson(data: unknown): string {
  if (data === null || data === undefined) return "null";
  if (data instanceof PyFloat) return pyFloatRepr(data.value);
  if (typeof data === "boolean") return data ? "true" : "false";
  if (typeof data === "number") return pyNumber(data);
  if (typeof data === "bigint") return data.toString();
  if (typeof data === "string") return pyString(data);
  if (Array.isArray(data)) return `[${data.map(canonicalJson).join(",")}]`;
  if (typeof data === "object") {
    const entries = Object.keys(data).sort(byCodePoint);
    return `{${entries.map((k) => `${pyString(k)}:${canonicalJson((data as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  throw new TypeError(`Object of type ${typeof data} is not JSON serializable`);
}

/** sha256 hex of `canonicalJson(data)`, the original's lockfile integrity hash. */
export function computeIntegrity(data: unknown): string {
  return sha256Hex(canonicalJson(data));
}
