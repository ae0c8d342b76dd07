import { describe, expect, it } from "vitest";
import { PyFloat } from "../../src/runtime/pystr.js";
import { readPythonMetadata } from "../../src/tools/read-python-metadata.js";

// Expected values follow Python's `ast.literal_eval` (rye-reference §1.8): what CPython evaluates
// each literal to, written by hand.
const values = (src: string) => readPythonMetadata(src).values;

describe("readPythonMetadata: literals", () => {
  it("reads strings with every prefix, escapes and implicit concatenation", () => {
    const v = values(
      [
        `A = "plain"`,
        `B = 'single'`,
        `C = r"raw\\n"`,
        `D = u"uni"`,
        `E = "tab\\tnl\\nq\\"x\\x41\\u00e9\\U0001F600\\101\\q"`,
        `F = "con" 'cat' """enated"""`,
        `G = b"by\\x41tes"`,
        `H = R'R\\d+'`,
        `I = Rb"\\x00"`,
        `J = ("paren"\n     "thesised")`,
        `K = """multi\nline"""`,
        `L = "line\\\ncontinued"`,
      ].join("\n"),
    );
    expect(v).toEqual({
      A: "plain",
      B: "single",
      C: "raw\\n",
      D: "uni",
      E: "tab\tnl\nq\"xAé\u{1F600}A\\q",
      F: "concatenated",
      G: "byAtes",
      H: "R\\d+",
      I: "\\x00",
      J: "parenthesised",
      K: "multi\nline",
      L: "linecontinued",
    });
  });

  it("reads numbers, booleans, None, signs and containers", () => {
    const v = values(
      [
        "I = 42",
        "N = -7",
        "P = +3",
        "H = 0xFF",
        "O = 0o17",
        "B = 0b101",
        "U = 1_000_000",
        "F = 1.0",
        "G = -2.5e3",
        "D = .5",
        "T = True",
        "Z = None",
        "L = [1, 'a', [2, None],]",
        "TU = (1, 2)",
        "BARE = 1, 2",
        "ONE = (1,)",
        "EMPTY = ()",
        "S = {1, 2, 2}",
        "ES = set()",
        "DI = {'a': 1, 'b': {'c': [True]}, 'a': 3}",
        "NK = {1: 'x', None: 'y', True: 'z'}",
        "PAREN = -(1)",
      ].join("\n"),
    );
    expect(v).toEqual({
      I: 42,
      N: -7,
      P: 3,
      H: 255,
      O: 15,
      B: 5,
      U: 1000000,
      F: new PyFloat(1),
      G: new PyFloat(-2500),
      D: new PyFloat(0.5),
      T: true,
      Z: null,
      L: [1, "a", [2, null]],
      TU: [1, 2],
      BARE: [1, 2],
      ONE: [1],
      EMPTY: [],
      S: [1, 2],
      ES: [],
      DI: { a: 3, b: { c: [true] } },
      // True == 1, so the third pair overwrites the first: Python gives {1: 'z', None: 'y'}.
      NK: { "1": "z", null: "y" },
      PAREN: -1,
    });
    expect(Object.keys(v.DI as object)).toEqual(["a", "b"]);
  });

  it("keeps float-ness so str() can render 1.0", () => {
    const f = values("V = 10.0").V;
    expect(f).toBeInstanceOf(PyFloat);
  });
});

describe("readPythonMetadata: what the original skips", () => {
  const cases: [string, RegExp][] = [
    ["X = f'x{y}'", /f-string/],
    ["X = some_name", /name 'some_name'/],
    ["X = call()", /not a literal|name 'call'/],
    ["X = 1 + 2", /arithmetic/],
    ["X = [1, 2][0]", /not a literal/],
    ["X = {**other}", /unpacking/],
    ["X = [*xs]", /unpacking/],
    ["X = -True", /sign/],
    ["X = 1 if a else 2", /not a literal/],
    ["X = lambda: 0", /not a literal|name 'lambda'/],
    ["X = {[1]: 2}", /unhashable/],
    ["X = 1j", /complex/],
    ["X = ...", /\.\.\./],
    ["X = 'a' b'b'", /mix bytes/],
    ["X = '\\N{BULLET}'", /\\N\{/],
    ["X = Y = 1", /several targets/],
    ["X: int = 1", /annotated/],
  ];
  it.each(cases)("%s", (src, reason) => {
    const result = readPythonMetadata(src);
    expect(result.values).toEqual({});
    expect(result.error).toBeUndefined();
    expect(result.assignments[0]?.name).toBe("X");
    expect(result.assignments[0]?.skipped).toMatch(reason);
  });

  it("ignores statements that are not at module level or not simple name targets", () => {
    const src = [
      "if DEBUG:",
      "    A = 1",
      "def f():",
      "    B = 2",
      "class C: D = 3",
      "if x: E = 4; F = 5",
      "obj.attr = 6",
      "seq[0] = 7",
      "a, b = 8, 9",
      "G += 1",
      "H == 2",
      "(I) = 10",
      "J = 11; K = 12",
    ].join("\n");
    expect(values(src)).toEqual({ I: 10, J: 11, K: 12 });
  });

  it("lets a later assignment win, and a non-literal one leave the earlier value", () => {
    expect(values("V = 1\nV = 2\nV = compute()")).toEqual({ V: 2 });
  });
});

describe("readPythonMetadata: docstring, comments, layout", () => {
  it("takes the stripped leading docstring, ignoring comments and a signature line", () => {
    const src = `# rye:signed:2026-01-01T00:00:00Z:abc:sig:fp\n"""\n  Tool doc.\n  More.\n"""\n__version__ = "1.0.0"  # trailing comment\n`;
    expect(values(src)).toEqual({ __version__: "1.0.0", __docstring__: "Tool doc.\n  More." });
  });

  it("has no docstring when the first statement is not a string", () => {
    expect(values(`X = 1\n"""late"""`)).toEqual({ X: 1 });
    expect(values(`f"""doc"""\nX = 1`)).toEqual({ X: 1 });
    expect(values(`b"""doc"""`)).toEqual({});
  });

  it("overrides an assigned __docstring__ with the real docstring", () => {
    expect(values(`"real"\n__docstring__ = "assigned"`).__docstring__).toBe("real");
  });

  it("joins lines inside brackets and after backslashes, with CRLF newlines", () => {
    const src = "CONFIG_SCHEMA = {\r\n  'type': 'object',  # comment\r\n  'required': [\r\n    'a',\r\n  ],\r\n}\r\nX = \\\r\n  5\r\n";
    expect(values(src)).toEqual({ CONFIG_SCHEMA: { type: "object", required: ["a"] }, X: 5 });
  });

  it("records the location of each value", () => {
    const result = readPythonMetadata(`# c\n__version__ = "1.0"\n`);
    expect(result.spans.__version__).toMatchObject({ start: { line: 2, column: 15 }, end: { line: 2, column: 20 } });
    expect(result.assignments[0]?.nameSpan.start).toMatchObject({ line: 2, column: 1 });
  });
});

describe("readPythonMetadata: lexical errors", () => {
  const errors: [string, RegExp, number][] = [
    ['X = "open', /unterminated string/, 1],
    ['X = """open', /unterminated triple-quoted/, 1],
    ["X = [1,\n2", /never closed/, 2],
    ["X = 1)", /unmatched/, 1],
    ["X = 0777", /invalid decimal literal/, 1],
    ["X = 1\n  Y = 2", /unexpected indent/, 2],
    ["X = $", /invalid character/, 1],
    ["\ufeffX = 1", /U\+FEFF/, 1],
  ];
  it.each(errors)("%j", (src, message, line) => {
    const result = readPythonMetadata(src);
    expect(result.values).toEqual({});
    expect(result.error?.message).toMatch(message);
    expect(result.error?.span.start.line).toBe(line);
  });
});
