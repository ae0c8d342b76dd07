// Input validation as the original's `processors/inputs/validate.py` (rye-reference.md §3), plus
// the type checks of decisions.md #7 kept separate so the original's payloads stay exact.
import { MAX_VALUE_DEPTH, PyFloat, isPyDict, nestedDeeperThan, pyGet, pyHas, pyKeys, type PyDict } from "./py-value.js";

/** A declared directive input, as the parser produces it. */
export interface DeclaredInput {
  name: string;
  type?: string;
  required?: boolean;
  default?: unknown;
  description?: string;
}

export type InputValidation =
  | { status: "success"; inputs: Record<string, unknown>; declared_inputs: DeclaredInput[] }
  | { status: "error"; error: string; declared_inputs: DeclaredInput[] };

/**
 * Unknown parameters (only when inputs are declared), then defaults for absent keys, then
 * missing required inputs. "Valid inputs" are listed in declaration order; the original listed
 * a Python set, whose order varied between runs.
 */
export function validateInputs(declared: DeclaredInput[], params: PyDict): InputValidation {
  const names = [...new Set(declared.map((d) => d.name))];
  const known = new Set(names);
  const keys = pyKeys(params).map(String);
  const unknown = keys.filter((k) => !known.has(k));
  if (unknown.length > 0 && declared.length > 0) {
    return { status: "error", error: `Unknown parameters: ${unknown.join(", ")}. Valid inputs: ${names.join(", ")}`, declared_inputs: declared };
  }
  // Rendering (repr, json.dumps) recurses once per level: a value deeper than any prompt needs is refused here, before it.
  const deep = keys.filter((k) => nestedDeeperThan(pyGet(params, k), MAX_VALUE_DEPTH));
  if (deep.length > 0) {
    return { status: "error", error: `Inputs nested deeper than ${MAX_VALUE_DEPTH} levels: ${deep.join(", ")}`, declared_inputs: declared };
  }
  const inputs: Record<string, unknown> = {};
  for (const k of keys) Object.defineProperty(inputs, k, { value: pyGet(params, k), enumerable: true, writable: true, configurable: true });
  for (const d of declared) {
    if (!Object.hasOwn(inputs, d.name) && "default" in d) Object.defineProperty(inputs, d.name, { value: d.default, enumerable: true, writable: true, configurable: true });
  }
  const missing = declared.filter((d) => d.required && !Object.hasOwn(inputs, d.name)).map((d) => d.name);
  if (missing.length > 0) return { status: "error", error: `Missing required inputs: ${missing.join(", ")}`, declared_inputs: declared };
  return { status: "success", inputs, declared_inputs: declared };
}

const isInt = (v: unknown) => (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
const isNumber = (v: unknown) => typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat;

// No prototype: a declared type such as `constructor` or `__proto__` has no check, like any unknown type.
const FITS: Record<string, (v: unknown) => boolean> = Object.assign(Object.create(null) as Record<string, (v: unknown) => boolean>, {
  string: (v: unknown) => typeof v === "string",
  integer: isInt,
  number: isNumber,
  float: isNumber,
  boolean: (v: unknown) => typeof v === "boolean",
  object: isPyDict,
  dict: isPyDict,
  array: Array.isArray,
  list: Array.isArray,
});

/** Values given by the caller that do not fit their input's declared `type` (defaults are never checked: they are XML strings). */
export function checkInputTypes(declared: DeclaredInput[], params: PyDict): string[] {
  const problems: string[] = [];
  for (const d of declared) {
    if (!pyHas(params, d.name) || d.type === undefined) continue;
    const fits = FITS[d.type];
    const v = pyGet(params, d.name);
    if (fits && !fits(v)) problems.push(`'${d.name}' must be ${withArticle(d.type)}, got ${describe(v)}`);
  }
  return problems;
}

/** "an integer", "an object", "an array", "a string": the article English puts before a type name. */
export const withArticle = (word: string): string => `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;

/** How a value is named in a type error (JSON's words: null, an array, an object). */
export function describe(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "an array";
  if (v instanceof PyFloat || (typeof v === "number" && !Number.isInteger(v))) return "a float";
  if (typeof v === "number" || typeof v === "bigint") return "an integer";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}
