// Every user string that reaches generated code passes through one of these functions.

/**
 * A JS/TS string literal for any string: quotes, backslashes, control characters, lone
 * surrogates (JSON.stringify escapes them), and U+2028/2029 are all escaped, so backticks,
 * `${`, `*\/` or `</script>` in a directive are inert data.
 * @example lit('a"b`${c}') === '"a\\"b`${c}"'
 */
export function lit(s: string): string {
  return escapeLineSeparators(JSON.stringify(s));
}

const SEPARATORS = /[\u2028\u2029]/;

/** JSON text may hold U+2028/2029 raw; escape them (rarely present, so test before replacing). */
function escapeLineSeparators(s: string): string {
  return SEPARATORS.test(s) ? s.replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029")) : s;
}

/** A JSON value as a JS expression (same escaping as `lit`). @example json({a: 1}) === '{"a":1}' */
export function json(value: unknown, indent?: number): string {
  return escapeLineSeparators(JSON.stringify(value, null, indent));
}

/** Text for a doc comment: it cannot close the comment early or start a new line of code. */
export function doc(s: string): string {
  return s.replace(/\*\//g, "*\\/").replace(/[\r\n\u2028\u2029]+/g, " ");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key: bare when it is a plain identifier, else a string literal. @example key("my-input") === '"my-input"' */
export function key(name: string): string {
  return IDENTIFIER.test(name) ? name : lit(name);
}

/** Property access on `obj`: `obj.name` or `obj["name"]`. @example access("p", "a b") === 'p["a b"]' */
export function access(obj: string, name: string): string {
  return IDENTIFIER.test(name) ? `${obj}.${name}` : `${obj}[${lit(name)}]`;
}
