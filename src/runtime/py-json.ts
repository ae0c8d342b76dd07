// JSON as Python's json module reads and writes it: floats stay floats (PyFloat), and dumps()
// uses Python's default separators and ASCII escaping, as `params_json` needs.
import { PyFloat, floatRepr } from "./pystr.js";

// Sticky patterns read at the cursor without copying the rest of the text.
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/**
 * Parses JSON like `json.loads`: numbers written with `.`, `e` or `E` become PyFloat, others plain
 * numbers. Objects are plain objects in source key order, except that JavaScript lists
 * integer-like keys first (a language limit).
 */
export function parsePyJson(text: string): unknown {
  let i = 0;
  const fail = (msg: string): never => {
    throw new SyntaxError(`${msg} at position ${i}`);
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === "}") return i++, obj;
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a string key");
        const k = str();
        ws();
        if (text[i++] !== ":") fail("expected ':'");
        Object.defineProperty(obj, k, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return i++, obj;
        else fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === "]") return i++, arr;
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return i++, arr;
        else fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [["true", true], ["false", false], ["null", null], ["NaN", new PyFloat(NaN)], ["Infinity", new PyFloat(Infinity)], ["-Infinity", new PyFloat(-Infinity)]] as const) {
      if (text.startsWith(word, i)) return (i += word.length), v;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail("unexpected character");
    i += m[0].length;
    return m[1] || m[2] ? new PyFloat(Number(m[0])) : Number(m[0]);
  };
  const str = (): string => {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (!m) return fail("bad string");
    i += m[0].length;
    return JSON.parse(m[0]) as string;
  };
  const result = value();
  ws();
  if (i !== text.length) fail("extra data");
  return result;
}

const SHORT: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/** Python `json.dumps(s)` of a string (ensure_ascii=True). */
function dumpString(s: string): string {
  let out = '"';
  for (let k = 0; k < s.length; k++) {
    const ch = s[k]!;
    const code = s.charCodeAt(k);
    if (SHORT[ch]) out += SHORT[ch];
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return out + '"';
}

/** Python `json.dumps(v)` with default arguments. */
export function pyJsonDumps(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return dumpString(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isInteger(v) ? (Object.is(v, -0) ? "0" : BigInt(v).toString()) : floatJson(v);
  if (v instanceof PyFloat) return floatJson(v.value);
  if (Array.isArray(v)) return `[${v.map(pyJsonDumps).join(", ")}]`;
  if (typeof v === "object") {
    const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
    return `{${entries.map(([k, x]) => `${dumpString(String(k))}: ${pyJsonDumps(x)}`).join(", ")}}`;
  }
  return dumpString(String(v));
}

function floatJson(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return floatRepr(x);
}
