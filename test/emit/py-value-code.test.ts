import { describe, expect, test } from "vitest";
import { json, usesPyFloat, value as pyValue } from "../../src/emit/escape.js";
import { PyFloat } from "../../src/runtime/py-value.js";
import { pyStr } from "../../src/runtime/pystr.js";

/** Evaluates emitted code with PyFloat in scope, as a compiled module that imports it. */
function evaluate(code: string): unknown {
  return new Function("PyFloat", `"use strict"; return (${code});`)(PyFloat);
}

describe("value(): Python values as emitted code", () => {
  test.each([
    [{ a: 1, b: "x", c: [true, null, { d: [] }], e: {} }],
    [["</script>", "`${x}`", "*/", "\u2028\u2029", "\ud800", 'q"\\']],
    [[1, -2.5, 0, 1e21]],
    [{ "my-key": 1, "2": 2, "": 3 }],
  ])("plain JSON values evaluate back to themselves, strings escaped as json() escapes them: %#", (value) => {
    expect(evaluate(pyValue(value))).toEqual(value);
    for (const s of JSON.stringify(value).match(/"(?:[^"\\]|\\.)*"/g) ?? []) {
      const text = JSON.parse(s) as string;
      if (Object.values(value).includes(text)) expect(pyValue(text)).toBe(json(text));
    }
  });

  test("undefined is left out of objects and is null in arrays, as in JSON", () => {
    expect(pyValue({ a: undefined, b: [undefined] })).toBe('{b:[null]}');
  });

  test("floats stay floats, whole, signed zero and non-finite ones included", () => {
    const value = { spend: new PyFloat(1), z: new PyFloat(-0), n: new PyFloat(NaN), i: new PyFloat(Infinity), m: new PyFloat(-Infinity), h: new PyFloat(0.1) };
    const code = pyValue(value);
    expect(code).toBe('{spend:new PyFloat(1),z:new PyFloat(-0),n:new PyFloat(NaN),i:new PyFloat(Infinity),m:new PyFloat(-Infinity),h:new PyFloat(0.1)}');
    const back = evaluate(code) as Record<string, PyFloat>;
    expect(Object.values(back).every((x) => x instanceof PyFloat)).toBe(true);
    expect(pyStr(back)).toBe("{'spend': 1.0, 'z': -0.0, 'n': nan, 'i': inf, 'm': -inf, 'h': 0.1}");
  });

  test("integers beyond 2^53 keep every digit", () => {
    const code = pyValue({ big: 12345678901234567890n, neg: -(2n ** 80n) });
    expect(code).toBe('{big:12345678901234567890n,neg:-1208925819614629174706176n}');
    expect(pyStr(evaluate(code))).toBe("{'big': 12345678901234567890, 'neg': -1208925819614629174706176}");
  });

  test("a Map keeps its order and its keys' types", () => {
    const value = new Map<unknown, unknown>([["b", 1], ["2", new PyFloat(2)], [3, [new Map([["k", "v"]])]]]);
    const code = pyValue({ m: value });
    expect(code).toBe('{m:new Map([["b",1],["2",new PyFloat(2)],[3,[new Map([["k","v"]])]]])}');
    expect(pyStr(evaluate(code))).toBe("{'m': {'b': 1, '2': 2.0, 3: [{'k': 'v'}]}}");
  });

  test("a __proto__ key is data, never the prototype", () => {
    const value = JSON.parse('{"__proto__": {"polluted": 1}}') as object;
    const code = pyValue({ x: value, y: new PyFloat(1) });
    expect(code).toBe('{x:{["__proto__"]:{polluted:1}},y:new PyFloat(1)}');
    const back = evaluate(code) as { x: object };
    expect(Object.getPrototypeOf(back.x)).toBe(Object.prototype);
    expect(Object.keys(back.x)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("strings that look like code stay strings", () => {
    const value = { s: "new PyFloat(1)", t: '"),process.exit(1),("' };
    expect(evaluate(pyValue(value))).toEqual(value);
  });

  test("usesPyFloat tells when the module must import PyFloat (a string holding the text only over-reports)", () => {
    expect(usesPyFloat(pyValue({ a: new PyFloat(1) }))).toBe(true);
    expect(usesPyFloat(pyValue({ a: 1, b: 2n }))).toBe(false);
    expect(usesPyFloat(pyValue({ s: "new PyFloat(" }))).toBe(true);
  });
});
