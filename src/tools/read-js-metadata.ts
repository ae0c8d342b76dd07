import { LineIndex } from "../diagnostics/diagnostic.js";
import { JsLiteralProblem, parseJsObjectLiteral } from "./js-object-literal.js";
import type { Span } from "./read-python-metadata.js";

/** What the original `javascript/javascript` parser yields from a JS/TS tool, plus locations. */
export interface JsMetadata {
  values: Record<string, unknown>;
  spans: Record<string, Span>;
  /** Object literals the declaration regex found but that hold code rather than data. */
  problems: { name: string; message: string; span: Span }[];
}

// The declaration patterns are the original's, so the same declarations are found (and missed: a type
// annotation other than a bare identifier, such as `Record<string, unknown>`, hides an object).
const W = String.raw`[\p{L}\p{N}_]`;
const DUNDER_STRING_RE = new RegExp(String.raw`(?:export\s+)?(?:const|let|var)\s+(__${W}+__)\s*=\s*["']([^"']*)["']`, "gu");
const DUNDER_NULL_RE = new RegExp(String.raw`(?:export\s+)?(?:const|let|var)\s+(__${W}+__)\s*=\s*null\b`, "gu");
const objectRe = (name: string) => new RegExp(String.raw`(?:export\s+)?(?:const|let|var)\s+${name}\s*(?::\s*${W}+)?\s*=\s*(\{)`, "du");

/**
 * Reads `__x__ = "str"` / `= null` constants and the CONFIG_SCHEMA, ENV_CONFIG and CONFIG object
 * literals of a JavaScript/TypeScript tool. The objects are parsed as data literals rather than by the
 * original's text substitutions plus `json.loads`, so strings holding `//`, `'` or `key:` survive intact.
 */
export function readJsMetadata(text: string): JsMetadata {
  const index = new LineIndex(text);
  const span = (start: number, end: number): Span => ({ start: index.position(start), end: index.position(end) });
  const result: JsMetadata = { values: {}, spans: {}, problems: [] };
  const set = (name: string, value: unknown, start: number, end: number) => {
    Object.defineProperty(result.values, name, { value, enumerable: true, writable: true, configurable: true });
    result.spans[name] = span(start, end);
  };
  for (const m of text.matchAll(DUNDER_STRING_RE)) set(m[1]!, m[2]!, m.index + m[0].length - m[2]!.length - 1, m.index + m[0].length);
  for (const m of text.matchAll(DUNDER_NULL_RE)) {
    if (!Object.hasOwn(result.values, m[1]!)) set(m[1]!, null, m.index + m[0].length - 4, m.index + m[0].length);
  }
  for (const name of ["CONFIG_SCHEMA", "ENV_CONFIG", "CONFIG"]) {
    const m = objectRe(name).exec(text);
    const start = m?.indices?.[1]?.[0];
    if (start === undefined) continue;
    try {
      const { value, end } = parseJsObjectLiteral(text, start);
      set(name, value, start, end);
    } catch (e) {
      if (!(e instanceof JsLiteralProblem)) throw e;
      result.problems.push({ name, message: `${name} is not a data literal: ${e.message}`, span: span(e.offset, e.offset) });
    }
  }
  return result;
}
