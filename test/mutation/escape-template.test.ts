// The rest of the emitted-code escaper (src/emit/escape.ts): the template literal that carries every
// item's text, comments, import specifiers and Python values. Each is checked by evaluating what it
// writes, and each escaped character class is checked at its edges, so a narrowed or widened class
// is seen.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { comment, specifier, template, usesPyFloat, value } from "../../src/emit/escape.js";
import { PyFloat } from "../../src/runtime/py-value.js";

const evaluate = (code: string): unknown => new Function("PyFloat", `"use strict"; return (${code});`)(PyFloat);
const hex = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Characters a template literal must write as `\uXXXX`: the edges of every range escaped. */
const ESCAPED = [0x00, 0x01, 0x08, 0x0b, 0x0c, 0x0e, 0x1f, 0x7f, 0x80, 0x9f, 0x61c, 0x200e, 0x200f, 0x202a, 0x202c, 0x202e, 0x2066, 0x2068, 0x2069, 0x2028, 0x2029].map((c) => String.fromCharCode(c));
/** Characters just outside those ranges, which stay as they are. */
const KEPT = [0x09, 0x0a, 0x20, 0x7e, 0xa0, 0x61b, 0x61d, 0x200d, 0x2010, 0x202f, 0x2065, 0x206a, 0x2027, 0x2000, 0xe9].map((c) => String.fromCharCode(c));

describe("template", () => {
  test.each(ESCAPED.map((c) => [hex(c), c]))("%s is written as an escape and reads back", (_h, c) => {
    const code = template(`a${c}b`);
    expect(code).toBe(`\`a${hex(c)}b\``);
    expect(evaluate(code)).toBe(`a${c}b`);
  });

  test.each(KEPT.map((c) => [hex(c), c]))("%s stays as it is", (_h, c) => {
    expect(template(`a${c}b`)).toBe(`\`a${c}b\``);
  });

  test("backslash, backtick and ${ are escaped; a lone $ or { is not", () => {
    expect(template("\\")).toBe("`\\\\`");
    expect(template("`")).toBe("`\\``");
    expect(template("${x}")).toBe("`\\${x}`");
    expect(template("$ {x} $x")).toBe("`$ {x} $x`");
    expect(template("\r\n")).toBe("`\\r\n`");
  });

  test("lone surrogates are escaped, pairs are kept", () => {
    expect(template("\ud83d\ude00")).toBe("`\ud83d\ude00`");
    expect(template("a\ud800b")).toBe("`a\\ud800b`");
    expect(template("a\udc00b")).toBe("`a\\udc00b`");
    expect(template("\ud800")).toBe("`\\ud800`");
    expect(template("\udfff")).toBe("`\\udfff`");
    expect(template("\udbff\udfff")).toBe("`\udbff\udfff`");
    for (const s of ["\ud800\ud800", "\udc00\udc00", "x\udc00\ud800y"]) expect(evaluate(template(s))).toBe(s);
  });

  test("any string reads back as itself and the literal never ends early", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "`", "$", "{", "}", "\\", "\r", "\n", "\u2028", "\u0000", "\u202e", "\ud800", "\udc00", "é") }), (s) => {
        const code = template(s);
        expect(evaluate(code)).toBe(s);
        expect(code.slice(1, -1)).not.toMatch(/(?<!\\)(?:\\\\)*`/);
      }),
      { numRuns: 400 },
    );
  });
});

describe("comment", () => {
  test("line terminators and invisible characters become visible escapes, */ cannot close", () => {
    expect(comment("a\nb\rc\u2028d\u2029e")).toBe("a\\u000ab\\u000dc\\u2028d\\u2029e");
    expect(comment("a\u202eb\u0000c")).toBe("a\\u202eb\\u0000c");
    expect(comment("x*/y")).toBe("x*\\/y");
    expect(comment("plain text, é")).toBe("plain text, é");
  });

  test("no input can end a // comment or a block comment", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "*", "/", "\n", "\r", "\u2028", "\u2029", "\u200f") }), (s) => {
        const text = comment(s);
        expect(text).not.toMatch(/[\n\r\u2028\u2029]/);
        expect(text).not.toContain("*/");
        expect(() => new Function(`// ${text}\n/* ${text} */ return 1;`)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});

describe("specifier", () => {
  test("URL-special characters are percent-encoded, others kept", () => {
    expect(specifier("./directives/p%41x.js")).toBe('"./directives/p%2541x.js"');
    expect(specifier("./a?b#c.js")).toBe('"./a%3Fb%23c.js"');
    expect(specifier("./a\tb\nc\u007f.js")).toBe('"./a%09b%0Ac%7F.js"');
    expect(specifier("./a\u0000.js")).toBe('"./a%00.js"');
    expect(specifier("./a\u001f.js")).toBe('"./a%1F.js"');
    expect(specifier("./a b/é.js")).toBe('"./a b/é.js"');
  });

  test("a lone surrogate becomes U+FFFD, a pair stays", () => {
    expect(evaluate(specifier("./a\ud800.js"))).toBe("./a\ufffd.js");
    expect(evaluate(specifier("./a\udc00.js"))).toBe("./a\ufffd.js");
    expect(evaluate(specifier("./a\ud83d\ude00.js"))).toBe("./a\ud83d\ude00.js");
  });
});

describe("value", () => {
  test("scalars", () => {
    expect(value("s")).toBe('"s"');
    expect(value(1)).toBe("1");
    expect(value(true)).toBe("true");
    expect(value(false)).toBe("false");
    expect(value(null)).toBe("null");
    expect(value(Number.NaN)).toBe("null");
    expect(value(12345678901234567890n)).toBe("12345678901234567890n");
    expect(value(undefined)).toBe("null");
    expect(value(() => 1)).toBe("null");
  });

  test("floats stay floats, -0 keeps its sign", () => {
    expect(value(new PyFloat(1))).toBe("new PyFloat(1)");
    expect(value(new PyFloat(-0))).toBe("new PyFloat(-0)");
    expect(value(new PyFloat(0))).toBe("new PyFloat(0)");
    expect(value(new PyFloat(Number.POSITIVE_INFINITY))).toBe("new PyFloat(Infinity)");
    const back = evaluate(value(new PyFloat(-0))) as PyFloat;
    expect(Object.is(back.value, -0)).toBe(true);
  });

  test("arrays keep holes and turn undefined into null", () => {
    expect(value([])).toBe("[]");
    expect(value([1, undefined, 3])).toBe("[1,null,3]");
    // eslint-disable-next-line no-sparse-arrays
    expect(value([1, , 3])).toBe("[1,,3]");
    // eslint-disable-next-line no-sparse-arrays
    expect(value([1, ,])).toBe("[1,,]");
    const holes = evaluate(value(new Array(2))) as unknown[];
    expect(holes.length).toBe(2);
    expect(0 in holes).toBe(false);
  });

  test("objects: bare identifier keys, quoted others, undefined dropped, __proto__ an own key", () => {
    expect(value({ name: "x", "a b": 1, gone: undefined, n: null })).toBe('{name:"x","a b":1,n:null}');
    expect(value({})).toBe("{}");
    expect(value({ gone: undefined, a: 1 })).toBe("{a:1}");
    const proto = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const back = evaluate(value(proto)) as Record<string, unknown>;
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const inherited = Object.create({ inherited: 1 }) as Record<string, unknown>;
    inherited.own = 2;
    expect(value(inherited)).toBe("{own:2}");
  });

  test("maps keep their order; strings go through the given writer", () => {
    expect(value(new Map<unknown, unknown>([["b", 1], ["a", [2]]]))).toBe('new Map([["b",1],["a",[2]]])');
    expect(value({ k: ["s", "t"] }, (s) => `S${s.length}`)).toBe("{k:[S1,S1]}");
  });

  test("any nested value reads back as the same data", () => {
    const leaf = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    const tree = fc.letrec((tie) => ({ node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node")), fc.dictionary(fc.string(), tie("node"))) })).node;
    fc.assert(
      fc.property(tree, (v) => {
        expect(evaluate(value(v))).toEqual(v);
      }),
      { numRuns: 200 },
    );
  });

  test("usesPyFloat says whether the code constructs one", () => {
    expect(usesPyFloat(value({ a: new PyFloat(1) }))).toBe(true);
    expect(usesPyFloat(value({ a: 1 }))).toBe(false);
  });
});
