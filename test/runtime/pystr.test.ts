import { describe, expect, test } from "vitest";
import { parsePyJson, pyJsonDumps } from "../../src/runtime/py-json.js";
import { PyFloat, floatRepr, pyRepr, pyStr, pyStrip } from "../../src/runtime/pystr.js";
import { resolveEnvRefs, resolveInputRefs } from "../../src/runtime/interpolate.js";
import { checkInputTypes, validateInputs } from "../../src/runtime/validate.js";

// Expected values are CPython 3.11's output for the same values.
describe("Python str()/repr()", () => {
  test("floats use Python's repr", () => {
    expect([1e16, 1e-5, 0.0001, 123456789012345680, -0, 1.5, 10, 2.5e-7, 1e22, 0.1 + 0.2].map(floatRepr)).toEqual([
      "1e+16", "1e-05", "0.0001", "1.2345678901234568e+17", "-0.0", "1.5", "10.0", "2.5e-07", "1e+22", "0.30000000000000004",
    ]);
    expect([NaN, Infinity, -Infinity].map(floatRepr)).toEqual(["nan", "inf", "-inf"]);
  });

  test("integer-valued numbers are ints unless marked PyFloat", () => {
    expect(pyStr(10)).toBe("10");
    expect(pyStr(new PyFloat(10))).toBe("10.0");
    expect(pyStr(2 ** 60)).toBe("1152921504606846976");
    expect(pyStr(-0)).toBe("0");
  });

  test("containers, quotes and constants", () => {
    expect(pyStr({ a: [1, "x", null, true], q: "it's", both: "a'b\"c" })).toBe(`{'a': [1, 'x', None, True], 'q': "it's", 'both': 'a\\'b"c'}`);
    expect(pyStr(false)).toBe("False");
    expect(pyStr(undefined)).toBe("None");
    expect(pyStr(new Map([["k", 1]]))).toBe("{'k': 1}");
  });

  test("string repr escapes exactly the non-printable characters", () => {
    expect(pyRepr("tab\there\nnew \\ \x7f \u00e9 \u200b \ud800 \u{1F600} \xa0")).toBe("'tab\\there\\nnew \\\\ \\x7f \u00e9 \\u200b \\ud800 \u{1F600} \\xa0'");
  });

  test("strip uses Python's whitespace set", () => {
    expect(pyStrip(" \x1c\x85\ufeffx\u3000 ")).toBe("\ufeffx");
    const s = "same";
    expect(pyStrip(s)).toBe(s);
  });
});

describe("Python JSON", () => {
  test("dumps with Python's separators and ASCII escapes", () => {
    expect(pyJsonDumps({ k: "\u00e9\u{1F600}\n\"", f: new PyFloat(1), n: [1, 2.5e-7, null, false] })).toBe(
      '{"k": "\\u00e9\\ud83d\\ude00\\n\\"", "f": 1.0, "n": [1, 2.5e-07, null, false]}',
    );
  });

  test("loads keeps float-ness and rejects bad JSON", () => {
    expect(parsePyJson('{"a": 10.0, "b": 1e+20, "c": 3, "__proto__": [true]}')).toEqual({ a: new PyFloat(10), b: new PyFloat(1e20), c: 3, ["__proto__"]: [true] });
    expect(pyStr(parsePyJson("[10.0, 1e+20]"))).toBe("[10.0, 1e+20]");
    expect(() => parsePyJson("{'a': 1}")).toThrow(SyntaxError);
    expect(() => parsePyJson("[1,]")).toThrow(SyntaxError);
  });
});

describe("interpolation and validation", () => {
  test("input refs: one pass, modifiers, present values win, ${inputs.} second pass", () => {
    expect(resolveInputRefs("{input:a}|{input:b?}|{input:c:x:y}|{input:d|p|q}|{input:e}", { a: "A", e: "" })).toBe("A||x:y|p|q|");
    expect(resolveInputRefs("{input:a}", { a: "{input:b}", b: "B" })).toBe("{input:b}");
    expect(resolveInputRefs("{input:a}", { a: "${inputs.b}", b: "B" })).toBe("B");
    expect(resolveInputRefs("{input:k:{x}}", {})).toBe("{x}");
    expect(resolveInputRefs("{input:名前}", { 名前: "taro" })).toBe("taro");
  });

  test("env refs: set (even empty) wins, then the default, else literal", () => {
    expect(resolveEnvRefs("{env:A}{env:B:x}{env:C}{env:D|y}", { A: "" })).toBe("x{env:C}{env:D|y}");
  });

  test("validation order and payloads; type checks are separate", () => {
    const declared = [{ name: "a", type: "integer", required: true }, { name: "b", required: false, default: "d" }];
    expect(validateInputs(declared, { z: 1 })).toMatchObject({ status: "error", error: "Unknown parameters: z. Valid inputs: a, b" });
    expect(validateInputs(declared, {})).toMatchObject({ status: "error", error: "Missing required inputs: a" });
    expect(validateInputs(declared, { a: null })).toMatchObject({ status: "success", inputs: { a: null, b: "d" } });
    expect(validateInputs([], { anything: 1 })).toMatchObject({ status: "success" });
    expect(checkInputTypes(declared, { a: "1" })).toEqual(["'a' must be an integer, got a string"]);
    expect(checkInputTypes(declared, { a: 2 })).toEqual([]);
  });
});
