// Every user string that reaches generated code passes through one of these functions.
import { PyFloat } from "../runtime/py-value.js";

/**
 * A JS/TS string literal for any string: quotes, backslashes, control characters, lone
 * surrogates (JSON.stringify escapes them), U+2028/2029 and bidirectional formatting characters
 * are all escaped, so backticks, `${`, `*\/` or `</script>` in a directive are inert data.
 * @example lit('a"b`${c}') === '"a\\"b`${c}"'
 */
export function lit(s: string): string {
  // Most strings a module holds are plain: quoted as they are, without a JSON round and two scans.
  return PLAIN.test(s) ? `"${s}"` : escapeRawSpecials(JSON.stringify(s));
}

/** Strings whose JSON form is the string in quotes and that hold nothing `escapeRawSpecials` rewrites. */
// eslint-disable-next-line no-control-regex
const PLAIN = /^[^"\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]*$/;

/**
 * A template literal whose value is `s`, for long text: newlines, quotes and tabs stay as they are
 * (a JSON literal would write each as an escape). A backslash, a backtick and `${` are escaped, and
 * so are CR (a template literal reads CR and CRLF as LF), U+2028/2029, controls, bidirectional
 * formatting characters and lone surrogates, as `lit` escapes them.
 * @example template("a`${b}\\") === "`a\\`\\${b}\\\\`"
 */
export function template(s: string): string {
  return `\`${s.replace(TEMPLATE_SPECIAL, templateEscape)}\``;
}

// eslint-disable-next-line no-control-regex
const TEMPLATE_SPECIAL = /[\\`\r\u2028\u2029\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\$\{|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function templateEscape(c: string): string {
  if (c === "\\" || c === "`") return `\\${c}`;
  if (c === "${") return "\\${";
  if (c === "\r") return "\\r";
  return hex(c);
}

const SEPARATORS = /[\u2028\u2029]/;

/**
 * JSON text may hold U+2028/2029 and bidirectional formatting characters raw; escape them (rarely
 * present, so test before replacing). JSON.stringify has already escaped the C0 controls.
 */
function escapeRawSpecials(s: string): string {
  if (SEPARATORS.test(s)) s = s.replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
  return INVISIBLE_TEST.test(s) ? s.replace(INVISIBLE, hex) : s;
}

/** A JSON value as a JS expression (same escaping as `lit`). @example json({a: 1}) === '{"a":1}' */
export function json(value: unknown, indent?: number): string {
  if (!hasProtoKey(value)) return escapeRawSpecials(JSON.stringify(value, null, indent));
  // In an object literal `"__proto__": v` sets the prototype instead of a property; a computed
  // key does not (and is also valid in a type literal). Rename such keys to a marker that no
  // serialised user string can contain (its quotes are unescaped), then rewrite the marker.
  const text = JSON.stringify(value, (_k, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) && Object.hasOwn(v, "__proto__") ? renameProto(v as object) : v), indent);
  return escapeRawSpecials(text.split(`"${PROTO_MARK_JSON}":`).join('["__proto__"]:'));
}

const PROTO_MARK = "\u0000rye:__proto__\u0000";
const PROTO_MARK_JSON = JSON.stringify(PROTO_MARK).slice(1, -1);

function renameProto(v: object): object {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k === "__proto__" ? PROTO_MARK : k] = x;
  return out;
}

/**
 * Deepest value an emitted module may hold (decisions.md #25). V8 parses a nested literal recursively
 * and fails near 2,000 levels (less on a deep stack), so a module holding one would verify and then
 * not import. Every reader bounds its input below this (calls and YAML 128, XML 256, tool metadata
 * 100): reaching it is a compiler bug, reported at the item (RYE1010) instead of written.
 */
export const MAX_EMIT_DEPTH = 512;

function tooDeepToEmit(): never {
  throw new RangeError(`a value nested deeper than ${MAX_EMIT_DEPTH} levels cannot be emitted`);
}

function hasProtoKey(v: unknown, depth = 0): boolean {
  if (!v || typeof v !== "object") return false;
  if (depth > MAX_EMIT_DEPTH) tooDeepToEmit();
  if (Array.isArray(v)) return v.some((x) => hasProtoKey(x, depth + 1));
  return Object.hasOwn(v, "__proto__") || Object.values(v).some((x) => hasProtoKey(x, depth + 1));
}

/**
 * `a+b+c` for generated string parts; long runs become `[a, b, c].join("")`, because V8
 * parses a chain of `+` recursively and a body with thousands of placeholders overflowed its stack.
 */
export function concat(parts: readonly string[]): string {
  if (parts.length === 0) return '""';
  return parts.length <= 64 ? parts.join("+") : `[${parts.join(",")}].join("")`;
}

/** Text for a doc comment: it cannot close the comment early or start a new line of code. */
export function doc(s: string): string {
  return s.replace(/\*\//g, "*\\/").replace(LINE_BREAKS, " ").replace(INVISIBLE, hex);
}

/**
 * Every ECMAScript LineTerminator (LF, CR, LS, PS). One of them inside a `//` comment ends it, and
 * whatever follows is code. (U+0085 is not one: inside a comment it is plain text.)
 */
const LINE_BREAKS = /[\n\r\u2028\u2029]+/g;

/**
 * Characters escaped as `\uXXXX` in comments and string literals: controls, and the bidirectional
 * formatting characters that make code read differently from how it parses.
 */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const INVISIBLE_TEST = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const hex = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Text for any comment, `//` or block, such as the source path in a module's header: every line
 * terminator and invisible character becomes a visible `\uXXXX`, and `*\/` cannot close a block.
 * @example comment("a\u2028b*\/c") === "a\\u2028b*\\/c"
 */
export function comment(s: string): string {
  return s.replace(/[\n\r\u2028\u2029]/g, hex).replace(INVISIBLE, hex).replace(/\*\//g, "*\\/");
}

/**
 * A relative import specifier as a string literal, for a path that may hold any file name.
 * Node resolves a specifier as a URL, so the characters a URL reads differently from a path
 * (`%` starts an escape, `?` a query, `#` a fragment; tabs and newlines are dropped) are
 * percent-encoded. Everything else stays literal, so TypeScript and bundlers, which resolve
 * specifiers as paths, find the same file; a space or non-ASCII name resolves either way.
 * @example specifier("./directives/p%41x.js") === '"./directives/p%2541x.js"'
 */
export function specifier(path: string): string {
  // A lone surrogate becomes U+FFFD, as it does in the file name the output is written under.
  return lit(path.replace(LONE_SURROGATE, "\uFFFD").replace(URL_SPECIAL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`));
}
// eslint-disable-next-line no-control-regex
const URL_SPECIAL = /[%?#\u0000-\u001f\u007f]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key: bare when it is a plain identifier, else a string literal. @example key("my-input") === '"my-input"' */
export function key(name: string): string {
  // A bare or quoted `__proto__:` in an object literal sets the prototype; a computed key does not.
  if (name === "__proto__") return '["__proto__"]';
  return IDENTIFIER.test(name) ? name : lit(name);
}

/** Property access on `obj`: `obj.name` or `obj["name"]`. @example access("p", "a b") === 'p["a b"]' */
export function access(obj: string, name: string): string {
  return IDENTIFIER.test(name) ? `${obj}.${name}` : `${obj}[${lit(name)}]`;
}

/** True when `code` from `value` may construct a PyFloat (a string holding that text over-reports: an unused import, never a missing one). */
export function usesPyFloat(code: string): boolean {
  return code.includes("new PyFloat(");
}

/** A number as JS source that evaluates to exactly it (`-0`, `NaN` and the infinities included). */
function numberLiteral(x: number): string {
  return Object.is(x, -0) ? "-0" : String(x);
}

/**
 * A Python value (runtime/py-value.ts) as a compact JS expression: a float stays a float
 * (`new PyFloat(1)`: the module must import PyFloat, see `usesPyFloat`), an int beyond 2^53 keeps
 * its digits (`12345678901234567890n`), a Map keeps its order, an array's hole stays one; one line, no spaces, bare keys where
 * a key is a plain identifier (`{name:"x","a b":1}`), `__proto__` a computed key. `text` writes each
 * string value (a literal, or an emitted module's shared constant).
 * @example value({ spend: new PyFloat(1), "a-b": [1n] }) === '{spend:new PyFloat(1),"a-b":[1n]}'
 */
export function value(v: unknown, text: (s: string) => string = lit, depth = 0): string {
  if (typeof v === "string") return text(v);
  if (typeof v === "number" || typeof v === "boolean" || v === null) return v === null ? "null" : (JSON.stringify(v) ?? "null");
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v !== "object") return "null";
  if (v instanceof PyFloat) return `new PyFloat(${numberLiteral(v.value)})`;
  if (depth > MAX_EMIT_DEPTH) tooDeepToEmit();
  let out: string;
  if (Array.isArray(v)) {
    out = "[";
    // A hole stays a hole (`[1,,3]`): positional data reads it as an absent value.
    for (let i = 0; i < v.length; i++) out += (i ? "," : "") + (i in v ? value(v[i] === undefined ? null : v[i], text, depth + 1) : "");
    return `${out}${v.length > 0 && !(v.length - 1 in v) ? "," : ""}]`;
  }
  if (v instanceof Map) return `new Map([${[...v].map(([k, x]) => `[${value(k, text, depth + 1)},${value(x, text, depth + 1)}]`).join(",")}])`;
  out = "{";
  let first = true;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined) continue;
    out += `${first ? "" : ","}${key(k)}:${value(x, text, depth + 1)}`;
    first = false;
  }
  return `${out}}`;
}
