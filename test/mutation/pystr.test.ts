// Python's str()/repr()/strip() for JavaScript values (src/runtime/pystr.ts), at every boundary its
// tables draw. Expected texts and sets are CPython 3.11's (`repr(s)`, `chr(c).isspace()`).
import { describe, expect, test } from "vitest";
import { PyFloat, floatRepr, isPyWhitespace, pyRepr, pyStr, pyStrip, strRepr } from "../../src/runtime/pystr.js";

/** `[c for c in range(0x10000) if chr(c).isspace()]` */
const PY_SPACES = [0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, ...Array.from({ length: 11 }, (_, i) => 0x2000 + i), 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];

describe("isPyWhitespace and pyStrip", () => {
  test("exactly Python's whitespace set over the BMP", () => {
    const ours: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isPyWhitespace(c)) ours.push(c);
    expect(ours).toEqual(PY_SPACES);
  });

  test("strip removes them from both ends only", () => {
    expect(pyStrip("\t\u3000 a b \u2028\n")).toBe("a b");
    expect(pyStrip("  lead")).toBe("lead");
    expect(pyStrip("trail \u205f")).toBe("trail");
    expect(pyStrip("\ufeffbom\u200b")).toBe("\ufeffbom\u200b");
    expect(pyStrip(" \u0085 ")).toBe("");
    expect(pyStrip("")).toBe("");
    expect(pyStrip("x")).toBe("x");
    expect(pyStrip(" x")).toBe("x");
    expect(pyStrip("x ")).toBe("x");
  });
});

describe("strRepr", () => {
  test("escapes exactly what CPython escapes", () => {
    expect(strRepr("\x00\x01\x08\t\n\x0b\x0c\r\x1f ~\x7f\x80\x9f\xa0\xa1\xad\xff\u0100\u2028\u200b\uffff\ud800")).toBe(
      "'\\x00\\x01\\x08\\t\\n\\x0b\\x0c\\r\\x1f ~\\x7f\\x80\\x9f\\xa0\u00a1\\xad\u00ff\u0100\\u2028\\u200b\\uffff\\ud800'",
    );
    expect(strRepr("\u{10ffff}\u{1f600}\u{e0001}\u{f0000}")).toBe("'\\U0010ffff\u{1f600}\\U000e0001\\U000f0000'");
    expect(strRepr("\u0378\u061c")).toBe("'\\u0378\\u061c'");
  });

  test("quote choice", () => {
    expect(strRepr("it's")).toBe(`"it's"`);
    expect(strRepr('a"b')).toBe(`'a"b'`);
    expect(strRepr(`a'b"c`)).toBe(`'a\\'b"c'`);
    expect(strRepr("\\")).toBe("'\\\\'");
    expect(strRepr("")).toBe("''");
  });
});

describe("floatRepr", () => {
  test.each([
    [-1.5, "-1.5"], [-1e-7, "-1e-07"], [-1e16, "-1e+16"], [-0.001, "-0.001"], [1e-5, "1e-05"], [0.0001, "0.0001"],
    [1e15, "1000000000000000.0"], [9999999999999998, "9999999999999998.0"], [1.5e-10, "1.5e-10"], [1e100, "1e+100"],
    [5e-324, "5e-324"], [-123.25, "-123.25"], [0, "0.0"], [-0, "-0.0"], [1.7976931348623157e308, "1.7976931348623157e+308"],
    [12, "12.0"], [-5, "-5.0"], [NaN, "nan"], [Infinity, "inf"], [-Infinity, "-inf"],
  ])("repr(%d) is %s", (x, text) => {
    expect(floatRepr(x)).toBe(text);
  });
});

describe("pyStr and pyRepr", () => {
  test("numbers: integer-valued are ints, others floats, bigints exact", () => {
    expect(pyStr(3)).toBe("3");
    expect(pyStr(-0)).toBe("0");
    expect(pyStr(1.5)).toBe("1.5");
    expect(pyStr(-2.5e-7)).toBe("-2.5e-07");
    expect(pyStr(12345678901234567890n)).toBe("12345678901234567890");
    expect(pyStr(new PyFloat(-3))).toBe("-3.0");
  });

  test("strings are themselves at the top and repr inside containers", () => {
    expect(pyStr("it's")).toBe("it's");
    expect(pyStr(["it's", "a"])).toBe(`["it's", 'a']`);
    expect(pyStr({ "k'": "v" })).toBe(`{"k'": 'v'}`);
    expect(pyStr(new Map<unknown, unknown>([[1, "x"], ["y", [null]]]))).toBe("{1: 'x', 'y': [None]}");
    expect(pyStr([])).toBe("[]");
    expect(pyStr({})).toBe("{}");
  });

  test("pyRepr quotes strings and reads everything else as str() does", () => {
    expect(pyRepr("x")).toBe("'x'");
    expect(pyRepr("\n")).toBe("'\\n'");
    expect(pyRepr(1)).toBe("1");
    expect(pyRepr(["a", 1.5, true])).toBe("['a', 1.5, True]");
    expect(pyRepr(null)).toBe("None");
  });

  test("values outside JSON fall back to JavaScript's String()", () => {
    expect(pyStr(Symbol.for("s"))).toBe("Symbol(s)");
  });
});

describe("PyFloat across runtime copies", () => {
  test("any object carrying the shared brand is a PyFloat, nothing else is", () => {
    const foreign = { [Symbol.for("rye-build.PyFloat")]: true, value: 2 };
    expect(foreign instanceof PyFloat).toBe(true);
    expect(pyStr(foreign)).toBe("2.0");
    expect(new PyFloat(1) instanceof PyFloat).toBe(true);
    expect({ value: 1 } instanceof PyFloat).toBe(false);
    expect({ [Symbol.for("rye-build.PyFloat")]: "yes", value: 1 } instanceof PyFloat).toBe(false);
    expect(pyStr({ value: 1 })).toBe("{'value': 1}");
    const fn = Object.assign(() => 1, { [Symbol.for("rye-build.PyFloat")]: true });
    expect(fn instanceof PyFloat).toBe(false);
    expect((null as unknown) instanceof PyFloat).toBe(false);
    expect((undefined as unknown) instanceof PyFloat).toBe(false);
    expect((1 as unknown) instanceof PyFloat).toBe(false);
  });
});
