import { describe, expect, test } from "vitest";
import { parseDirective } from "../../src/parse/parse-directive.js";
import { PyFloat } from "../../src/runtime/py-value.js";
import { sharedRows, at, hasShared, vectorsFor, type Vector } from "../helpers/shared.js";

// Conformance with the original parser (`parsers/markdown/xml.py::parse`, era current).
const vectors = vectorsFor("parse", "current");

/** Decisions where we differ on purpose; each keeps every other field of the vector exact. */
function adjustExpected(v: Vector): unknown {
  const expected = structuredClone(v.expected);
  // Real-file vectors abbreviate a raw equal to the input as "<<== input>>".
  if (expected.raw === "<<== input>>") expected.raw = v.input;
  if (expected.body === "<<== input>>") expected.body = v.input;
  if (typeof expected.error === "string" && expected.error.startsWith("Unknown tag <")) {
    // decisions.md #8: the accepted set is the union of both eras (adds load and search).
    expected.error = expected.error.replace("acknowledge, execute, fetch, sign", "acknowledge, execute, fetch, load, search, sign");
  }
  return expected;
}

/** The vectors are read with JSON.parse, where `1.0` is `1`: compare floats by their number. */
function floatsAsNumbers(v: unknown): unknown {
  if (v instanceof PyFloat) return v.value;
  if (Array.isArray(v)) return v.map(floatsAsNumbers);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, floatsAsNumbers(x)]));
  return v;
}

describe.skipIf(!hasShared)("parse vectors (era current)", () => {
  test.each(sharedRows("parse vectors", vectors.map((v) => [v.id, v] as const)))("%s", (_id, v) => {
    const { result } = parseDirective(v.input as string, "vector.md");
    const actual = floatsAsNumbers(result) as Record<string, unknown>;
    expect(actual).toEqual(adjustExpected(v));
    for (const c of v.expected_contains ?? []) {
      if (c.op === "eq") expect(at(actual, c.path)).toEqual(c.value);
      if (c.op === "len") expect(at(actual, c.path)).toHaveLength(c.value as number);
      if (c.op === "absent") expect(at(actual, c.path)).toBeUndefined();
      if (c.op === "has_key") expect(actual).toHaveProperty(c.value as string);
      if (c.op === "contains_at") expect(String(at(actual, c.path))).toContain(c.value);
      if (c.op === "regex_at") expect(String(at(actual, c.path))).toMatch(new RegExp(c.value as string));
      if (c.op === "in_map") expect((at(actual, c.path) as Record<string, unknown>[]).map((x) => x[c.field!])).toContain(c.value);
    }
  });
});

