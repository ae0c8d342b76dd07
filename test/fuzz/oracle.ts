// A deliberately naive interpreter of a directive's rendering, written from the original's
// description (rye-reference.md §2.1) and independent of the compiler: it never looks at an AST,
// it runs the original's regex passes over the text the generator wrote. The fuzz suite checks
// that every compiled `render()` agrees with it.

/** Python's `str.isspace()` characters, listed out rather than borrowed from the runtime. */
const PY_SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c\\x1d\\x1e\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "gu");

/** Python's `\w` for str patterns: letters, numbers and `_`. */
const W = "[\\p{L}\\p{N}_]";

export function pyStrip(s: string): string {
  return s.replace(STRIP, "");
}

/** Python `str()` of the few value kinds the fuzzer passes. */
export function pyStr(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number" && Number.isInteger(v)) return String(v);
  throw new Error(`oracle: no str() for ${typeof v}`);
}

export interface OracleInput {
  /** The file as written (any line endings). */
  text: string;
  /** Declared inputs with their `default` attribute, if any. */
  declared: { name: string; default?: string }[];
  /** What the caller passes (absent keys omitted). */
  given: Record<string, unknown>;
  env: Record<string, string>;
}

/** `_interpolate_parsed` over one field: env refs, then input refs, then `${inputs.x}` if present. */
export function interpolate(field: string, params: Record<string, unknown>, env: Record<string, string>): string {
  const has = (k: string) => Object.prototype.hasOwnProperty.call(params, k) && params[k] !== undefined && params[k] !== null;
  let out = field.replace(new RegExp(`\\{env:(${W}+)(?::([^}]*))?\\}`, "gu"), (whole, name: string, fallback: string | undefined) =>
    Object.prototype.hasOwnProperty.call(env, name) ? env[name]! : fallback !== undefined ? fallback : whole,
  );
  out = out.replace(new RegExp(`\\{input:(${W}+)(\\?|[:|][^}]*)?\\}`, "gu"), (whole, key: string, mod: string | undefined) => {
    if (has(key)) return pyStr(params[key]);
    if (mod === "?") return "";
    if (mod !== undefined && mod !== "") return mod.slice(1);
    return whole;
  });
  if (out.includes("${inputs.")) {
    out = out.replace(new RegExp(`\\$\\{inputs\\.(${W}+)\\}`, "gu"), (whole, key: string) => (has(key) ? pyStr(params[key]) : whole));
  }
  return out;
}

/** Body and raw as the original renders them, given the file text and where its metadata fence closes. */
export function oracleRender(input: OracleInput, afterFence: string): { body: string; raw: string } {
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input.given)) Object.defineProperty(params, k, { value: v, enumerable: true });
  for (const d of input.declared) if (!Object.prototype.hasOwnProperty.call(params, d.name) && d.default !== undefined) Object.defineProperty(params, d.name, { value: d.default, enumerable: true });
  const universal = (s: string) => s.split("\r\n").join("\n").split("\r").join("\n");
  return {
    body: interpolate(pyStrip(universal(afterFence)), params, input.env),
    raw: interpolate(universal(input.text), params, input.env),
  };
}
