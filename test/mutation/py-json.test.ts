// `parsePyJson` reads what Python's `json.loads` reads (and refuses what it refuses); `pyJsonDumps`
// writes what `json.dumps` writes with default arguments. Expected texts were produced by CPython 3.11.
import { describe, expect, test } from "vitest";
import { parsePyJson, pyJsonDumps } from "../../src/runtime/py-json.js";
import { PyFloat } from "../../src/runtime/pystr.js";

const float = (v: unknown) => {
  expect(v).toBeInstanceOf(PyFloat);
  return (v as PyFloat).value;
};

describe("parsePyJson: values", () => {
  test("integers are numbers, anything with a fraction or exponent is a PyFloat", () => {
    expect(parsePyJson("0")).toBe(0);
    expect(parsePyJson("-12")).toBe(-12);
    expect(parsePyJson("120")).toBe(120);
    expect(float(parsePyJson("1.0"))).toBe(1);
    expect(float(parsePyJson("1E2"))).toBe(100);
    expect(float(parsePyJson("1e+2"))).toBe(100);
    expect(float(parsePyJson("0.5e-1"))).toBe(0.05);
    expect(float(parsePyJson("-2.25"))).toBe(-2.25);
    expect(float(parsePyJson("1e10"))).toBe(1e10);
    expect(float(parsePyJson("[2.5E-12]") && (parsePyJson("[2.5E-12]") as unknown[])[0])).toBe(2.5e-12);
  });

  test("NaN, Infinity and -Infinity, which Python accepts, are PyFloats", () => {
    expect(Number.isNaN(float(parsePyJson("NaN")))).toBe(true);
    expect(float(parsePyJson("Infinity"))).toBe(Infinity);
    expect(float(parsePyJson("-Infinity"))).toBe(-Infinity);
    expect(float((parsePyJson("[-Infinity]") as unknown[])[0])).toBe(-Infinity);
  });

  test("literals and strings", () => {
    expect(parsePyJson("true")).toBe(true);
    expect(parsePyJson("false")).toBe(false);
    expect(parsePyJson("null")).toBe(null);
    expect(parsePyJson('"a\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"')).toBe('a"b\\c/\b\f\n\r\t\u00e9\ud83d\ude00');
    expect(parsePyJson('""')).toBe("");
    expect(parsePyJson('"\u00e9\u2028"')).toBe("\u00e9\u2028");
  });

  test("containers keep their order; whitespace is space, tab, CR and LF", () => {
    expect(parsePyJson(' \t\n\r[ 1 ,\n"a" , [ ] , { } ,{"k" : [true]} ] \r\n')).toEqual([1, "a", [], {}, { k: [true] }]);
    const obj = parsePyJson('{"b": 1, "a": {"y": null, "x": 2}}') as Record<string, any>;
    expect(Object.keys(obj)).toEqual(["b", "a"]);
    expect(Object.keys(obj.a)).toEqual(["y", "x"]);
    expect(parsePyJson("[]")).toEqual([]);
    expect(parsePyJson("{}")).toEqual({});
    expect(parsePyJson('{"a":1,"b":2}')).toEqual({ a: 1, b: 2 });
  });

  test("__proto__ is an own key, never the prototype; a repeated key keeps the last value", () => {
    const obj = parsePyJson('{"__proto__": {"polluted": 1}, "a": 1, "a": 2}') as Record<string, unknown>;
    expect(Object.hasOwn(obj, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect((obj as { polluted?: unknown }).polluted).toBeUndefined();
    expect(obj.a).toBe(2);
    expect(Object.keys(obj)).toEqual(["__proto__", "a"]);
    const d = Object.getOwnPropertyDescriptor(obj, "a")!;
    expect([d.enumerable, d.writable, d.configurable]).toEqual([true, true, true]);
  });
});

describe("parsePyJson: refuses what json.loads refuses", () => {
  // [text, our message] — positions are the character index CPython reports (`char N`).
  test.each([
    ["1.", "extra data at position 1"],
    ["01", "extra data at position 1"],
    ["1 2", "extra data at position 2"],
    ["[1,]", "unexpected character at position 3"],
    ['{"a":1,}', "expected a string key at position 7"],
    ["{1:2}", "expected a string key at position 1"],
    ["[1 2]", "expected ',' or ']' at position 3"],
    ['{"a":1 "b":2}', "expected ',' or '}' at position 7"],
    ["-Inf", "unexpected character at position 0"],
    ["-", "unexpected character at position 0"],
    ["nul", "unexpected character at position 0"],
    ["", "unexpected character at position 0"],
    ["\f1", "unexpected character at position 0"],
    ["\u00a01", "unexpected character at position 0"],
    ['"\\x"', "bad string at position 0"],
    ['"\\u12"', "bad string at position 0"],
    ['"a\tb"', "bad string at position 0"],
    ['"a\u0000b"', "bad string at position 0"],
    ['"a\u001fb"', "bad string at position 0"],
    ['"abc', "bad string at position 0"],
    ["[", "unexpected character at position 1"],
    ["[1", "expected ',' or ']' at position 2"],
    ['{"a"', "expected ':' at position 4"],
    ['{"a" 1}', "expected ':' at position 5"],
    ["{", "expected a string key at position 1"],
  ])("%j", (text, message) => {
    expect(() => parsePyJson(text)).toThrow(new SyntaxError(message));
  });

  test("a raw DEL or non-ASCII character in a string is fine (only U+0000–U+001F are control characters)", () => {
    expect(parsePyJson('"\u007f\u0080 "')).toBe("\u007f\u0080 ");
  });
});

describe("pyJsonDumps", () => {
  test("strings: short escapes, \\uXXXX for control and non-ASCII characters, surrogate pairs", () => {
    expect(pyJsonDumps('a"b\\c\n\r\t\b\f/')).toBe('"a\\"b\\\\c\\n\\r\\t\\b\\f/"');
    expect(pyJsonDumps("\u0000\u001f\u007f\u0080é\u2028😀~ ")).toBe('"\\u0000\\u001f\\u007f\\u0080\\u00e9\\u2028\\ud83d\\ude00~ "');
    expect(pyJsonDumps("")).toBe('""');
    expect(pyJsonDumps("\u0020\u007e")).toBe('" ~"');
  });

  test("numbers as Python writes ints and floats", () => {
    expect(pyJsonDumps(0)).toBe("0");
    expect(pyJsonDumps(-0)).toBe("0");
    expect(pyJsonDumps(-7)).toBe("-7");
    expect(pyJsonDumps(1e21)).toBe("1000000000000000000000");
    expect(pyJsonDumps(10n ** 22n)).toBe("10000000000000000000000");
    expect(pyJsonDumps(1.5)).toBe("1.5");
    expect(pyJsonDumps(1e-7)).toBe("1e-07");
    expect(pyJsonDumps(new PyFloat(1))).toBe("1.0");
    expect(pyJsonDumps(new PyFloat(1e16))).toBe("1e+16");
    expect(pyJsonDumps(new PyFloat(123456789012345))).toBe("123456789012345.0");
    expect(pyJsonDumps(new PyFloat(NaN))).toBe("NaN");
    expect(pyJsonDumps(new PyFloat(Infinity))).toBe("Infinity");
    expect(pyJsonDumps(new PyFloat(-Infinity))).toBe("-Infinity");
    expect(pyJsonDumps(NaN)).toBe("NaN");
    expect(pyJsonDumps(-Infinity)).toBe("-Infinity");
  });

  test("containers with Python's default separators", () => {
    expect(pyJsonDumps([1, [2, {}]])).toBe("[1, [2, {}]]");
    expect(pyJsonDumps({ a: 1, b: [true, null] })).toBe('{"a": 1, "b": [true, null]}');
    expect(pyJsonDumps(new Map<unknown, unknown>([["k", false], [2, "é"]]))).toBe('{"k": false, "2": "\\u00e9"}');
    expect(pyJsonDumps([])).toBe("[]");
    expect(pyJsonDumps({})).toBe("{}");
    expect(pyJsonDumps({ "é": "x" })).toBe('{"\\u00e9": "x"}');
  });

  test("None and other values", () => {
    expect(pyJsonDumps(null)).toBe("null");
    expect(pyJsonDumps(undefined)).toBe("null");
    expect(pyJsonDumps(true)).toBe("true");
    expect(pyJsonDumps(false)).toBe("false");
    expect(pyJsonDumps(Symbol.for("s"))).toBe('"Symbol(s)"');
  });

  test("round trip through parsePyJson keeps floats floats", () => {
    const text = '{"a": 1.0, "b": [1, 2.5, "x\\u00e9"], "c": {"d": null, "e": -Infinity}}';
    expect(pyJsonDumps(parsePyJson(text))).toBe(text);
  });
});
