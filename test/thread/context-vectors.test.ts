import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { interpolateAction, interpolateContext, matches, resolvePath, resolvePathTestRunner } from "../../src/runtime/context/index.js";
import { parsePyJson } from "../../src/runtime/py-json.js";
import { sharedRows, SHARED_DIR, at, hasShared, type Vector } from "../helpers/shared.js";

// System 3 and condition vectors (era current), read with parsePyJson so floats stay floats.
const vectors: Vector[] = hasShared
  ? (parsePyJson(readFileSync(resolve(SHARED_DIR, "vectors/rye-vectors.json"), "utf8")) as Vector[]).filter((v) => v.system === "context" && v.era === "current")
  : [];

function run(v: Vector): unknown {
  const fn = v.function.split("::").pop()!;
  if (fn === "interpolate") return interpolateContext(v.template, v.context);
  if (fn === "interpolate_action") return interpolateAction(v.input, v.context);
  if (fn === "resolve_path") return resolvePath(v.context, v.path);
  if (fn === "_resolve_path") return resolvePathTestRunner(v.context, v.path);
  if (fn === "matches") return matches(v.context, v.input);
  throw new Error(`unmapped function ${v.function}`);
}

describe.skipIf(!hasShared)("context vectors (era current)", () => {
  test.each(sharedRows("context vectors", vectors.map((v) => [v.id, v] as const)))("%s", (_id, v) => {
    const actual = run(v);
    expect(actual).toEqual(v.expected);
    for (const c of v.expected_contains ?? []) {
      if (c.op === "eq") expect(at(actual, c.path)).toEqual(c.value);
      else if (c.op === "len") expect(at(actual, c.path)).toHaveLength(c.value as number);
      else if (c.op === "type") expect(Array.isArray(at(actual, c.path)) ? "list" : typeof at(actual, c.path)).toBeDefined();
    }
  });
});

describe("context interpolation (own cases)", () => {
  const ctx = { state: { n: 3, items: [{ name: "a" }, { name: "b" }], s: "Hi", none: null, empty: "" }, inputs: { who: "bob" } };
  test("whole expressions keep their type; mixed text uses str() and '' for missing", () => {
    expect(interpolateContext("${state.items}", ctx)).toEqual([{ name: "a" }, { name: "b" }]);
    expect(interpolateContext("${state.missing}", ctx)).toBeNull();
    expect(interpolateContext("n=${state.n} m=${state.missing}", ctx)).toBe("n=3 m=");
    expect(interpolateContext("${state.items[1].name} ${state.items.-1.name}", ctx)).toBe("b b");
  });
  test("fallbacks skip only null; pipes; {input:} from ctx.inputs", () => {
    expect(interpolateContext("${state.empty || state.s}", ctx)).toBe("");
    expect(interpolateContext("${state.none || state.s | upper}", ctx)).toBe("HI");
    expect(interpolateContext("${state.items | length}", ctx)).toBe(2);
    expect(interpolateContext("${state.missing | length}", ctx)).toBeNull();
    expect(interpolateContext("hi {input:who} {input:x?}", ctx)).toBe("hi bob ");
  });
  test("conditions", () => {
    expect(matches(ctx, { path: "state.n", op: "gte", value: 3 })).toBe(true);
    expect(matches(ctx, { any: [{ path: "state.s", op: "contains", value: "i" }, { path: "x", op: "exists" }] })).toBe(true);
    expect(matches(ctx, { not: { path: "state.n", op: "in", value: [1, 2] } })).toBe(true);
    expect(matches(ctx, {})).toBe(true);
  });
});

