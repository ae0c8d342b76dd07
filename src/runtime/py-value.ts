// Python values as JavaScript holds them, so JSON text, XML metadata and JS callers all reach
// str(), repr() and json.dumps() with what Python would have: a dict keeps insertion order, an int
// keeps every digit, a float stays a float. No imports: everything else in the runtime builds on it.

const BRAND = Symbol.for("rye-build.PyFloat");

/** A number Python holds as a float: JavaScript cannot tell `1` from `1.0`, so callers mark it. */
export class PyFloat {
  readonly [BRAND] = true;
  constructor(readonly value: number) {}

  // Compiled output carries its own copy of this runtime; `instanceof` must work across copies.
  static [Symbol.hasInstance](v: unknown): boolean {
    return typeof v === "object" && v !== null && (v as Record<symbol, unknown>)[BRAND] === true;
  }
}

/**
 * A Python dict. A `Map` keeps any insertion order; a plain object keeps it too, except that
 * JavaScript lists integer-like keys (`"2"`) first, in numeric order. Pass a Map when that matters.
 */
export type PyDict = ReadonlyMap<unknown, unknown> | { readonly [key: string]: unknown };

/**
 * A value as Python sees it: `number` is an int when integer-valued, else a float; `bigint` is an
 * int of any size; `PyFloat` is a float even when whole (`1.0`); `undefined` is None.
 */
export type PyValue = null | undefined | boolean | number | bigint | string | PyFloat | readonly PyValue[] | PyDict;

/** True for a dict: a Map or a plain object (not an array, not a PyFloat). */
export function isPyDict(v: unknown): v is PyDict {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof PyFloat);
}

/** A dict's items in Python's order. */
export function pyItems(d: PyDict): [unknown, unknown][] {
  return d instanceof Map ? [...d.entries()] : Object.entries(d);
}

/** A dict's keys in Python's order. */
export function pyKeys(d: PyDict): unknown[] {
  return d instanceof Map ? [...d.keys()] : Object.keys(d);
}

/** `key in d`. */
export function pyHas(d: PyDict, key: string): boolean {
  return d instanceof Map ? d.has(key) : Object.hasOwn(d, key);
}

/** `d.get(key)`: undefined when absent (own properties only: `constructor` is a key like any other). */
export function pyGet(d: PyDict, key: string): unknown {
  return d instanceof Map ? d.get(key) : Object.hasOwn(d, key) ? (d as Record<string, unknown>)[key] : undefined;
}

/** A Python dict of `entries` in their order: a plain object when it keeps that order, else a Map. */
export function pyDict(entries: readonly (readonly [string, unknown])[]): PyDict {
  const obj: Record<string, unknown> = {};
  const order: string[] = [];
  for (const [k, v] of entries) {
    if (!Object.hasOwn(obj, k)) order.push(k);
    // defineProperty: a `__proto__` key is data, not the prototype.
    Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const keys = Object.keys(obj);
  return keys.every((k, i) => k === order[i]) ? (obj as PyDict) : (new Map(entries) as PyDict);
}

/** A plain object with the dict's items (for callers that index by name); integer-like keys move first. */
export function toPlainObject(d: PyDict): Record<string, unknown> {
  if (!(d instanceof Map)) return d as Record<string, unknown>;
  const obj: Record<string, unknown> = {};
  for (const [k, v] of d) Object.defineProperty(obj, String(k), { value: v, enumerable: true, writable: true, configurable: true });
  return obj;
}

const DECIMAL = /^[+-]?\d+$/;

/** Python `int(text)` for ASCII decimal digits with an optional sign: a number when exact, else a bigint. */
export function pyInteger(text: string): number | bigint {
  if (!DECIMAL.test(text)) throw new SyntaxError(`not an integer: ${text}`);
  const n = Number(text);
  return Number.isSafeInteger(n) ? (Object.is(n, -0) ? 0 : n) : BigInt(text);
}

/**
 * Deepest nesting of lists and dicts a runtime value may have (decisions.md #25). Python's own
 * json.loads and repr() stop near 1,000 with a RecursionError; the runtime's readers and writers
 * recurse once per level, so a bound well below any thread's stack keeps them total everywhere.
 */
export const MAX_VALUE_DEPTH = 256;

/** True when `v` nests lists, dicts or Maps more than `max` levels deep; walked without recursion, so any value can be asked. */
export function nestedDeeperThan(v: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [x, depth] = stack.pop()!;
    if (typeof x !== "object" || x === null || x instanceof PyFloat) continue;
    // A cycle (a JavaScript caller's value) is deeper than any limit, and is found so.
    if (depth >= max) return true;
    const children = Array.isArray(x) ? x : x instanceof Map ? [...x.keys(), ...x.values()] : Object.values(x);
    for (const c of children) if (typeof c === "object" && c !== null) stack.push([c, depth + 1]);
  }
  return false;
}
