// System 2 (`{param}`) and the executor's string templating (src/runtime/exec/substitute-params.ts).
// Expected values follow rye-reference.md §2.3; re.sub and TypeError texts were checked with CPython 3.11.
import { describe, expect, it } from "vitest";
import { PyFloat } from "../../src/runtime/pystr.js";
import {
  MAX_PARAM_PASSES,
  pyEquals,
  pyTruthy,
  pyTypeName,
  substituteConfigParams,
  substituteParamsDeep,
  templateConfig,
  templateDeep,
  templateParams,
  templateString,
} from "../../src/runtime/exec/substitute-params.js";

describe("substituteParamsDeep", () => {
  const params = { a: "A", n: 300, d: { k: 1 }, l: [1, "x"], t: true, f: new PyFloat(2), "a b": "spaced", ü: "U" };

  it("a whole-string placeholder keeps the value's type, even with surrounding whitespace", () => {
    expect(substituteParamsDeep("{n}", params)).toBe(300);
    expect(substituteParamsDeep("  {d}\n", params)).toBe(params.d);
    expect(substituteParamsDeep("{ü}", params)).toBe("U");
    expect(substituteParamsDeep("{missing}", params)).toBe("{missing}");
    expect(substituteParamsDeep(" {missing} ", params)).toBe(" {missing} ");
  });

  it("mixed strings get str() of each known value, from the first { to the first }", () => {
    expect(substituteParamsDeep("x {a} {n} {d} {l} {t} {f} {zz} {a b}", params)).toBe("x A 300 {'k': 1} [1, 'x'] True 2.0 {zz} spaced");
    expect(substituteParamsDeep("{{a}}", params)).toBe("{{a}}");
    expect(substituteParamsDeep("{a}{a}", params)).toBe("AA");
    expect(substituteParamsDeep("", params)).toBe("");
  });

  it("recurses through arrays and objects, keeping other values; __proto__ stays a key", () => {
    const value = JSON.parse('{"x": ["{a}", 1, null, {"y": "{n}"}], "__proto__": "{a}", "z": false}') as Record<string, unknown>;
    const out = substituteParamsDeep(value, params) as Record<string, any>;
    expect(out.x).toEqual(["A", 1, null, { y: 300 }]);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(out.__proto__).toBe("A");
    expect(out.z).toBe(false);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(substituteParamsDeep(new PyFloat(1), params)).toBeInstanceOf(PyFloat);
  });

  it("only own keys count as parameters", () => {
    expect(substituteParamsDeep("{toString}", {})).toBe("{toString}");
    expect(substituteParamsDeep("x{constructor}", {})).toBe("x{constructor}");
  });
});

describe("substituteConfigParams", () => {
  it("the config is its own parameter set; chains resolve one level per pass, at most three passes", () => {
    expect(MAX_PARAM_PASSES).toBe(3);
    // Each pass reads the previous pass's result, so a chain of 2^3 links is the longest resolved.
    expect(substituteConfigParams({ a: "{b}", b: "{c}", c: "{d}", d: "{e}", e: "end" })).toEqual({ a: "end", b: "end", c: "end", d: "end", e: "end" });
    const chain = { a: "{b}", b: "{c}", c: "{d}", d: "{e}", e: "{f}", f: "{g}", g: "{h}", h: "{i}", i: "end" };
    expect(substituteConfigParams(chain)).toEqual({ a: "{i}", b: "end", c: "end", d: "end", e: "end", f: "end", g: "end", h: "end", i: "end" });
    expect(substituteConfigParams({ a: "x{b}", b: 2 })).toEqual({ a: "x2", b: 2 });
  });

  it("stops as soon as a pass changes nothing (a self-reference stays)", () => {
    const config = { a: "{a}", b: 1 };
    expect(substituteConfigParams(config)).toBe(config);
    // A cycle never settles: it turns once per pass, three times in all.
    expect(substituteConfigParams({ a: "{b}", b: "{a}" })).toEqual({ a: "{a}", b: "{b}" });
    expect(substituteConfigParams({ a: "{b}", b: "{c}", c: "{a}" })).toEqual({ a: "{c}", b: "{a}", c: "{b}" });
  });

  it("templateConfig expands ${VAR} first, quoting for a shell only when asked, then {param}", () => {
    const env = { HOME: "/h", X: "a;b" };
    expect(templateConfig({ cmd: "${HOME}/{p}", p: "${X}" }, env, { shellQuote: true })).toEqual({ cmd: "/h/'a;b'", p: "'a;b'" });
    expect(templateConfig({ cmd: "${HOME}/{p}", p: "${X}" }, env, { shellQuote: false })).toEqual({ cmd: "/h/a;b", p: "a;b" });
  });
});

describe("templateParams", () => {
  const params = { a: "A", n: null, i: 3, l: [1, "x"], d: { k: new PyFloat(1) }, t: true };

  it("each {…} becomes str(value); unknown names stay", () => {
    expect(templateParams("{a} {n} {i} {l} {d} {t} {zz} {a b}", params)).toBe("A None 3 [1, 'x'] {'k': 1.0} True {zz} {a b}");
    expect(templateParams("{{a}}", params)).toBe("{{a}}");
  });

  it("falsy values come back as they are; other non-strings raise Python's TypeError", () => {
    for (const v of ["", null, 0, false, [], {}, new PyFloat(0)]) expect(templateParams(v, params)).toBe(v);
    expect(() => templateParams(5, params)).toThrow(new TypeError("expected string or bytes-like object, got 'int'"));
    expect(() => templateParams(["x"], params)).toThrow(new TypeError("expected string or bytes-like object, got 'list'"));
    expect(() => templateParams(new PyFloat(1.5), params)).toThrow(new TypeError("expected string or bytes-like object, got 'float'"));
  });
});

describe("templateString and templateDeep", () => {
  const ctx = { a: "A", n: null, i: 3, f: new PyFloat(1.5), l: [1] };

  it("replaces {word} with string values, drops None, leaves unknown and non-word names", () => {
    expect(templateString("x{a}y{b}z", ctx)).toBe("xAy{b}z");
    expect(templateString("{n}-{a}", ctx)).toBe("-A");
    expect(templateString("", ctx)).toBe("");
    expect(templateString("{a-b}{}{ü}", ctx)).toBe("{a-b}{}{ü}");
    expect(templateString("plain", ctx)).toBe("plain");
    expect(templateString("{a}", ctx)).toBe("A");
    expect(templateString("{a}tail", ctx)).toBe("Atail");
  });

  it("a value that is not a string raises re.sub's TypeError, counting pieces as Python does", () => {
    expect(() => templateString("p{i}q", ctx)).toThrow(new TypeError("sequence item 1: expected str instance, int found"));
    expect(() => templateString("{f}", ctx)).toThrow(new TypeError("sequence item 0: expected str instance, float found"));
    expect(() => templateString("{l}", ctx)).toThrow(new TypeError("sequence item 0: expected str instance, list found"));
    expect(() => templateString("{a}{a}{n}{i}", ctx)).toThrow(new TypeError("sequence item 2: expected str instance, int found"));
  });

  it("templateDeep walks arrays and objects and leaves other values", () => {
    const data = JSON.parse('{"p": ["{a}/x", 2, {"q": "{a}"}], "__proto__": "{a}", "b": true}') as Record<string, unknown>;
    const out = templateDeep(data, ctx) as Record<string, unknown>;
    expect(out.p).toEqual(["A/x", 2, { q: "A" }]);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(out.__proto__).toBe("A");
    expect(out.b).toBe(true);
    expect(templateDeep(null, ctx)).toBe(null);
  });
});

describe("Python semantics helpers", () => {
  it("pyTruthy", () => {
    expect([0, "", null, undefined, false, [], {}, new PyFloat(0), NaN].map(pyTruthy)).toEqual([false, false, false, false, false, false, false, false, false]);
    expect([1, "x", true, [0], { a: 0 }, new PyFloat(0.5), -1].map(pyTruthy)).toEqual([true, true, true, true, true, true, true]);
  });

  it("pyTypeName", () => {
    expect([null, undefined, true, 1, 1.5, new PyFloat(1), "s", [], {}].map(pyTypeName)).toEqual(["NoneType", "NoneType", "bool", "int", "float", "float", "str", "list", "dict"]);
  });

  it("pyEquals: True == 1 == 1.0, containers element-wise", () => {
    expect(pyEquals(true, 1)).toBe(true);
    expect(pyEquals(false, 0)).toBe(true);
    expect(pyEquals(new PyFloat(1), 1)).toBe(true);
    expect(pyEquals(1, new PyFloat(1))).toBe(true);
    expect(pyEquals(1, 2)).toBe(false);
    expect(pyEquals(1, "1")).toBe(false);
    expect(pyEquals("1", 1)).toBe(false);
    expect(pyEquals(true, "x")).toBe(false);
    expect(pyEquals("a", "a")).toBe(true);
    expect(pyEquals("a", "b")).toBe(false);
    expect(pyEquals(null, null)).toBe(true);
    expect(pyEquals(null, undefined)).toBe(false);
    expect(pyEquals([1, [true]], [1, [1]])).toBe(true);
    expect(pyEquals([1, 2], [1, 3])).toBe(false);
    expect(pyEquals([1], [1, 2])).toBe(false);
    expect(pyEquals([1], { 0: 1 })).toBe(false);
    expect(pyEquals({ 0: 1 }, [1])).toBe(false);
    expect(pyEquals({ a: 1, b: [2] }, { b: [2], a: new PyFloat(1) })).toBe(true);
    expect(pyEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(pyEquals({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(pyEquals({ a: 1 }, { a: 2 })).toBe(false);
    expect(pyEquals({}, "x")).toBe(false);
    expect(pyEquals({}, {})).toBe(true);
    // A dict is never a list, even one with list-like keys; None is no dict.
    expect(pyEquals({ 0: 1, length: 1 }, [1])).toBe(false);
    expect(pyEquals([1], { 0: 1, length: 1 })).toBe(false);
    expect(pyEquals({}, null)).toBe(false);
    expect(pyEquals(null, {})).toBe(false);
  });
});
