// JSON as Python's json module reads and writes it: floats stay floats (PyFloat), integers keep
// every digit, objects keep their key order; dumps() uses Python's default separators and ASCII
// escaping, as `params_json` needs.
import { floatRepr } from "./pystr.js";
import { MAX_VALUE_DEPTH, PyFloat, isPyDict, pyDict, pyInteger, pyItems } from "./py-value.js";

// Sticky patterns read at the cursor without copying the rest of the text.
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/**
 * Parses JSON like `json.loads`: numbers written with `.`, `e` or `E` become PyFloat, other numbers
 * are ints (a bigint beyond 2^53). An object is a plain object, or a Map where a plain object
 * would list integer-like keys out of order (see `pyDict`). Strict as Python's default: no raw
 * control characters in strings, no `1.`, `.5`, `01` or `+1`, nothing after the value but whitespace.
 */
export function parsePyJson(text: string): unknown {
  let i = 0;
  // Open arrays and objects: the reader recurses once per level (decisions.md #25).
  let depth = 0;
  const fail = (msg: string): never => {
    throw new SyntaxError(`${msg} at position ${i}`);
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      if (++depth > MAX_VALUE_DEPTH) fail(`nested deeper than ${MAX_VALUE_DEPTH} levels`);
      const v = c === "{" ? object() : array();
      depth--;
      return v;
    }
    return c === '"' ? str() : scalar();
  };
  const object = (): unknown => {
    i++;
    const entries: [string, unknown][] = [];
    ws();
    if (text[i] === "}") return i++, pyDict(entries);
    for (;;) {
      ws();
      if (text[i] !== '"') fail("expected a string key");
      const k = str();
      ws();
      if (text[i] !== ":") fail("expected ':'");
      i++;
      entries.push([k, value()]);
      ws();
      if (text[i] === ",") i++;
      else if (text[i] === "}") return i++, pyDict(entries);
      else fail("expected ',' or '}'");
    }
  };
  const array = (): unknown[] => {
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
  };
  const scalar = (): unknown => {
    for (const [word, v] of [["true", true], ["false", false], ["null", null], ["NaN", new PyFloat(NaN)], ["Infinity", new PyFloat(Infinity)], ["-Infinity", new PyFloat(-Infinity)]] as const) {
      if (text.startsWith(word, i)) return (i += word.length), v;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail("unexpected character");
    i += m[0].length;
    return m[1] || m[2] ? new PyFloat(Number(m[0])) : pyInteger(m[0]);
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
export function pyJsonDumps(v: unknown, depth = 0): string {
  // Python raises RecursionError; here a value too deep to write is a clear error, not a stack overflow.
  if (depth > MAX_VALUE_DEPTH) throw new RangeError(`json.dumps: a value nested deeper than ${MAX_VALUE_DEPTH} levels`);
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return dumpString(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isInteger(v) ? (Object.is(v, -0) ? "0" : BigInt(v).toString()) : floatJson(v);
  if (v instanceof PyFloat) return floatJson(v.value);
  if (Array.isArray(v)) return `[${v.map((x) => pyJsonDumps(x, depth + 1)).join(", ")}]`;
  // Python writes a non-string key (a Map's) as the JSON text of that key: 1 -> "1", None -> "null".
  if (isPyDict(v)) return `{${pyItems(v).map(([k, x]) => `${dumpString(typeof k === "string" ? k : pyJsonDumps(k, depth + 1))}: ${pyJsonDumps(x, depth + 1)}`).join(", ")}}`;
  return dumpString(String(v));
}

function floatJson(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return floatRepr(x);
}
