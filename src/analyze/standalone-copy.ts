// A copy of parsed data that keeps no source text alive. V8 makes a substring of 13 or more
// characters a view into its parent string, so an input's name or a context id kept from a parse
// holds the directive's whole text: a lookup view kept for each of 10k directives held ~24 MB of
// texts per thread for a few hundred KB of names.

/** Levels copied; deeper values are kept as they are (parsed metadata is rarely more than 4 deep). */
const MAX_DEPTH = 32;

/** `value` with every string copied into its own storage, and the arrays and plain objects that hold them copied too. */
export function standaloneCopy<T>(value: T, depth = 0): T {
  if (typeof value === "string") return standaloneString(value) as T;
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((x) => standaloneCopy(x, depth + 1)) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  for (const k of Object.keys(value)) {
    const copy = standaloneCopy((value as Record<string, unknown>)[k], depth + 1);
    // A key named `__proto__` stays an own property, as it was; every other key is assigned, which
    // is a third of the cost of defining it (a lookup view: ~15 µs → ~5 µs).
    if (k === "__proto__") Object.defineProperty(out, k, { value: copy, writable: true, enumerable: true, configurable: true });
    else out[standaloneString(k)] = copy;
  }
  return out as T;
}

/**
 * A string with storage of its own, exactly its length: shorter ones are never views, longer ones
 * go through the structured clone algorithm, which makes a flat string of the same code units
 * (lone surrogates included). Joining a character and slicing would keep a view, and behind it a
 * copy one character longer; a JSON round trip costs as much per character as it escapes (a
 * 1,500-character text 4.2 µs against 0.4 µs).
 */
export function standaloneString(s: string): string {
  return s.length < 13 ? s : structuredClone(s);
}
