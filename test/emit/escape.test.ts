import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { comment, doc, lit, specifier, template, value } from "../../src/emit/escape.js";
import { PyFloat } from "../../src/runtime/py-value.js";

// ECMAScript's LineTerminator set: LF, CR, LINE SEPARATOR, PARAGRAPH SEPARATOR.
const TERMINATORS = ["\n", "\r", "\u2028", "\u2029"];

/** Evaluates `code` as a script with a fresh global, returning what it leaves in `globalThis.out`. */
function run(code: string): { out?: unknown; pwned?: unknown } {
  const sandbox: { out?: unknown; pwned?: unknown } = {};
  runInNewContext(code, sandbox);
  return sandbox;
}

describe("comment()", () => {
  test.each(TERMINATORS)("a %j in a // comment cannot end it", (t) => {
    const text = `x${t}pwned = 1; /* ${t}*/ pwned = 2;`;
    const escaped = comment(text);
    expect(escaped).not.toMatch(/[\n\r\u2028\u2029]/);
    expect(run(`// ${escaped}\nout = 1;`)).toEqual({ out: 1 });
    expect(run(`/* ${escaped} */ out = 1;`)).toEqual({ out: 1 });
  });

  test("line terminators become visible escapes, and */ cannot close a block comment", () => {
    expect(comment("a\u2028b\u2029c\nd\re")).toBe("a\\u2028b\\u2029c\\u000ad\\u000de");
    expect(comment("x*/ pwned = 1; /*")).toBe("x*\\/ pwned = 1; /*");
    expect(run(`/* ${comment("x*/ pwned = 1; /*")} */ out = 2;`)).toEqual({ out: 2 });
    // U+0085 is not an ECMAScript line terminator, but it is a control character: escaped too.
    expect(comment("a\u0085b")).toBe("a\\u0085b");
  });

  test("bidirectional formatting characters are shown, not applied", () => {
    expect(comment("a\u202eb\u2066c")).toBe("a\\u202eb\\u2066c");
    expect(doc("a\u202eb")).toBe("a\\u202eb");
  });
});

describe("doc()", () => {
  test.each(TERMINATORS)("a %j in a JSDoc text cannot leave the comment", (t) => {
    const escaped = doc(`first${t}*/ pwned = 1; /*${t}second`);
    expect(escaped).not.toMatch(/[\n\r\u2028\u2029]|\*\//);
    expect(run(`/** ${escaped} */ out = 3;`)).toEqual({ out: 3 });
  });
});

describe("lit()", () => {
  test("every line terminator and bidi control is an escape inside the literal, and the value is unchanged", () => {
    const value = `a${TERMINATORS.join("")}\u0085\u202e\`\${x}*/"'\\`;
    const code = lit(value);
    expect(code).not.toMatch(/[\n\r\u2028\u2029\u202e]/);
    expect(run(`out = ${code};`).out).toBe(value);
  });
});

/** Hostile pieces for property tests: terminators, CRLF, bidi controls, lone and paired surrogates, template and comment syntax. */
const HOSTILE = fc.constantFrom(..."\n\r\u2028\u2029\u0000\u0085\u202e\u2066\u061c\t\\`$\"'".split(""), "\r\n", "${", "${x}", "\\${", "`${`", "*/", "/*", "</script>", "\ud800", "\udfff", "\ud83d\ude00", "\\u0041", "\\");
const hostileText = fc.array(fc.oneof(HOSTILE, fc.string(), fc.string({ unit: "binary" })), { maxLength: 12 }).map((xs) => xs.join(""));

describe("template()", () => {
  test("property: any string, as a template literal, evaluates to itself, interpolates nothing and writes no raw terminator but LF", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const code = template(text);
        expect(code).not.toMatch(/[\r\u2028\u2029\u202e\u2066\u0000]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        const result = run(`pwned = 0; const x = "interpolated"; out = ${code};`);
        expect(result.out).toBe(text);
        expect(result.pwned).toBe(0);
      }),
      { numRuns: 400 },
    );
  });

  test("newlines, quotes and tabs stay as they are; backslashes, backticks, ${ and CR are escaped", () => {
    expect(template('a\n"b"\tc')).toBe('`a\n"b"\tc`');
    expect(template("`${x}`\\")).toBe("`\\`\\${x}\\`\\\\`");
    expect(template("a\r\nb")).toBe("`a\\r\nb`");
    expect(template("$x {y} $")).toBe("`$x {y} $`");
  });
});

describe("value()", () => {
  test("property: compact values evaluate to what they write, keys and strings hostile", () => {
    fc.assert(
      fc.property(fc.dictionary(hostileText, fc.oneof(hostileText, fc.integer(), fc.boolean(), fc.constant(null), fc.array(hostileText, { maxLength: 3 }))), (v) => {
        const code = value(v);
        expect(code).not.toMatch(/[\n\r\u2028\u2029\u202e]/);
        const back = run(`out = ${code};`).out as Record<string, unknown>;
        expect(JSON.stringify(back)).toBe(JSON.stringify(v));
        expect(run(`out = Object.getPrototypeOf(${code}) === Object.prototype;`).out).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test("bare keys where they are identifiers, __proto__ as a computed key, floats and big ints kept", () => {
    expect(value({ a: 1, "a-b": [2n], __proto__x: true })).toBe('{a:1,"a-b":[2n],__proto__x:true}');
    expect(value(JSON.parse('{"__proto__": 1}'))).toBe('{["__proto__"]:1}');
    expect(value({ spend: new PyFloat(1) })).toBe("{spend:new PyFloat(1)}");
  });
});

describe("specifier()", () => {
  test("percent-encodes exactly what a URL reads differently from a path", () => {
    expect(specifier("./directives/p%41x.js")).toBe('"./directives/p%2541x.js"');
    expect(specifier("./directives/a?b#c.js")).toBe('"./directives/a%3Fb%23c.js"');
    expect(specifier("./directives/a\tb.js")).toBe('"./directives/a%09b.js"');
    // Spaces and non-ASCII stay literal: Node encodes and decodes them itself, and path-based tools find them.
    expect(specifier("./directives/é b/日本.js")).toBe('"./directives/é b/日本.js"');
  });

  test("each specifier resolves, through Node's URL rules, to the file named by the path", () => {
    const base = "file:///out/index.js";
    for (const name of ["p%41x", "a?b", "c#d", "100%", "%2e%2e", "é b", "x\u2028y", "'\"`${"]) {
      const spec = JSON.parse(specifier(`./directives/${name}.js`)) as string;
      expect(decodeURIComponent(new URL(spec, base).pathname)).toBe(`/out/directives/${name}.js`);
    }
  });
});
