import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { parsePyJson, pyJsonDumps } from "../../src/runtime/py-json.js";
import { pyRepr } from "../../src/runtime/pystr.js";
import { PyFloat } from "../../src/runtime/py-value.js";

// Expected values are Python 3's own: `json.loads` raises on every REJECTED text, and for each
// ACCEPTED text the columns are repr(json.loads(text)) and json.dumps(json.loads(text)).
// The last suite re-checks both tables against a live python3 where one is installed.

const REJECTED: string[] = [
  "1.",
  ".5",
  "01",
  "-01",
  "+1",
  "-",
  "1e",
  "1e+",
  "1.e5",
  "\"a\tb\"",
  "\"a\nb\"",
  "\"a\u0001b\"",
  "\"\u001f\"",
  "\"\u0000\"",
  "[1,]",
  "{\"a\":1,}",
  "{a:1}",
  "{\"a\" 1}",
  "{\"a\":1 \"b\":2}",
  "{\"a\":1;}",
  "[1;2]",
  "{1:2}",
  "[1 2]",
  "1 2",
  "{} x",
  "[]]",
  "\"a\" \"b\"",
  "",
  " ",
  "tru",
  "nul",
  "NaNx",
  "'a'",
  "\"\\x\"",
  "\"\\u12\"",
  "\"abc",
  "[",
  "{",
  "{\"a\":",
  "{\"a\"",
  "\ufeff1",
  "-NaN",
  "-infinity",
  "infinity",
  "1_0",
  "0x10",
  "\u00a01",
  "1\u00a0",
  "\f1",
  "1\u000b",
];

/** [JSON text, Python repr(json.loads(text)), Python json.dumps(json.loads(text))]. */
const ACCEPTED: [string, string, string][] = [
  [" \t\n\r[1 , 2 ]\r\n", "[1, 2]", "[1, 2]"],
  ["\"\u007f\"", "'\\x7f'", "\"\\u007f\""],
  ["\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"", "'/\\x08\\x0c\\n\\r\\t\"\\\\'", "\"/\\b\\f\\n\\r\\t\\\"\\\\\""],
  ["\"\\u00e9\\ud83d\\ude00\"", "'\u00e9\ud83d\ude00'", "\"\\u00e9\\ud83d\\ude00\""],
  ["\"\\ud800\"", "'\\ud800'", "\"\\ud800\""],
  ["\"\u00e9\u2028\"", "'\u00e9\\u2028'", "\"\\u00e9\\u2028\""],
  ["-0", "0", "0"],
  ["-0.0", "-0.0", "-0.0"],
  ["1E5", "100000.0", "100000.0"],
  ["1e-7", "1e-07", "1e-07"],
  ["2E+3", "2000.0", "2000.0"],
  ["1.5e300", "1.5e+300", "1.5e+300"],
  ["1e400", "inf", "Infinity"],
  ["-1e400", "-inf", "-Infinity"],
  ["12345678901234567890", "12345678901234567890", "12345678901234567890"],
  ["-12345678901234567890", "-12345678901234567890", "-12345678901234567890"],
  ["9007199254740993", "9007199254740993", "9007199254740993"],
  ["9007199254740991", "9007199254740991", "9007199254740991"],
  ["NaN", "nan", "NaN"],
  ["Infinity", "inf", "Infinity"],
  ["-Infinity", "-inf", "-Infinity"],
  ["{\"a\":1,\"b\":2,\"a\":3}", "{'a': 3, 'b': 2}", "{\"a\": 3, \"b\": 2}"],
  ["{\"b\":1,\"2\":2}", "{'b': 1, '2': 2}", "{\"b\": 1, \"2\": 2}"],
  ["{\"1\":1,\"2\":2}", "{'1': 1, '2': 2}", "{\"1\": 1, \"2\": 2}"],
  ["{\"x\": {\"b\": 1, \"2\": 2}}", "{'x': {'b': 1, '2': 2}}", "{\"x\": {\"b\": 1, \"2\": 2}}"],
  ["{\"__proto__\": 1}", "{'__proto__': 1}", "{\"__proto__\": 1}"],
  ["[{\"x\": [1.0, 2, true, null, \"s\"]}]", "[{'x': [1.0, 2, True, None, 's']}]", "[{\"x\": [1.0, 2, true, null, \"s\"]}]"],
  ["0", "0", "0"],
  ["0.0", "0.0", "0.0"],
  ["100.0", "100.0", "100.0"],
  ["1e16", "1e+16", "1e+16"],
  ["1e15", "1000000000000000.0", "1000000000000000.0"],
  ["0.0001", "0.0001", "0.0001"],
  ["0.00001", "1e-05", "1e-05"],
  ["{\"10\": 1, \"9\": 2, \"-1\": 3, \"01\": 4}", "{'10': 1, '9': 2, '-1': 3, '01': 4}", "{\"10\": 1, \"9\": 2, \"-1\": 3, \"01\": 4}"],
  ["{\"4294967295\": 1, \"4294967294\": 2}", "{'4294967295': 1, '4294967294': 2}", "{\"4294967295\": 1, \"4294967294\": 2}"],
  ["true", "True", "true"],
  ["false", "False", "false"],
  ["null", "None", "null"],
  ["[]", "[]", "[]"],
  ["{}", "{}", "{}"],
  ["{ }", "{}", "{}"],
  ["[ ]", "[]", "[]"],
  ["\"it's\"", "\"it's\"", "\"it's\""],
];

describe("parsePyJson is as strict as json.loads", () => {
  test.each(REJECTED.map((t) => [JSON.stringify(t), t]))("rejects %s", (_label, text) => {
    expect(() => parsePyJson(text)).toThrow(SyntaxError);
  });

  test("names what is wrong and where", () => {
    expect(() => parsePyJson("1 2")).toThrow("extra data at position 2");
    expect(() => parsePyJson('{"a": 1} {}')).toThrow("extra data at position 9");
    expect(() => parsePyJson("1.")).toThrow("extra data at position 1");
    expect(() => parsePyJson('"a\tb"')).toThrow("bad string at position 0");
    // Raw control characters, both ends of the range: refused by the pattern itself.
    expect(() => parsePyJson('["\u0000"]')).toThrow("bad string at position 1");
    expect(() => parsePyJson('["\u001f"]')).toThrow("bad string at position 1");
    expect(parsePyJson('" "')).toBe(" ");
    expect(() => parsePyJson('{"a" 1}')).toThrow("expected ':' at position 5");
    expect(() => parsePyJson('{"a": 1 "b": 2}')).toThrow("expected ',' or '}' at position 8");
    expect(() => parsePyJson("[1 2]")).toThrow("expected ',' or ']' at position 3");
    expect(() => parsePyJson("{1: 2}")).toThrow("expected a string key at position 1");
    expect(() => parsePyJson("@")).toThrow("unexpected character at position 0");
  });
});

describe("parsePyJson reads values as Python does", () => {
  test.each(ACCEPTED)("%s", (text, repr, dumps) => {
    const value = parsePyJson(text);
    expect(pyRepr(value)).toBe(repr);
    expect(pyJsonDumps(value)).toBe(dumps);
  });

  test("integers beyond 2^53 are exact bigints, others plain numbers", () => {
    expect(parsePyJson("12345678901234567890")).toBe(12345678901234567890n);
    expect(parsePyJson("-9007199254740993")).toBe(-9007199254740993n);
    expect(parsePyJson("9007199254740991")).toBe(9007199254740991);
    expect(Object.is(parsePyJson("-0"), 0)).toBe(true);
  });

  test("a number with '.', 'e' or 'E' is a float, even when whole", () => {
    for (const t of ["1.0", "1e0", "1E0", "10e-1"]) expect(parsePyJson(t)).toEqual(new PyFloat(1));
    expect(parsePyJson("1")).toBe(1);
    expect(parsePyJson("NaN")).toBeInstanceOf(PyFloat);
  });

  test("an object stays a plain object unless JavaScript would reorder its keys; then it is a Map", () => {
    const plain = parsePyJson('{"a": 1, "1": 2, "2": 3}');
    expect(plain).toBeInstanceOf(Map);
    expect([...(plain as Map<string, unknown>).keys()]).toEqual(["a", "1", "2"]);
    const ordered = parsePyJson('{"1": 1, "2": 2, "b": 3}');
    expect(ordered).not.toBeInstanceOf(Map);
    expect(Object.keys(ordered as object)).toEqual(["1", "2", "b"]);
    expect(parsePyJson('{"b": 1, "a": 2}')).toEqual({ b: 1, a: 2 });
    // A repeated key keeps its first place and its last value, as a Python dict does.
    expect([...(parsePyJson('{"b": 1, "2": 2, "b": 3}') as Map<string, unknown>)]).toEqual([["b", 3], ["2", 2]]);
  });

  test("__proto__ is an ordinary key, never the prototype", () => {
    const v = parsePyJson('{"__proto__": {"polluted": 1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("pyJsonDumps", () => {
  test("values given from JavaScript are written as Python's json.dumps writes theirs", () => {
    // Python: json.dumps("\x01\x1f ~\x7f\u00e9\U0001F600") and json.dumps([None, 1.5, inf, nan, 0, -1.0, 10**20, {"a": [True, False]}]).
    expect(pyJsonDumps("\x01\x1f ~\x7f\u00e9\u{1F600}")).toBe('"\\u0001\\u001f ~\\u007f\\u00e9\\ud83d\\ude00"');
    expect(pyJsonDumps([undefined, 1.5, Infinity, NaN, -0, new PyFloat(-1), 10n ** 20n, { a: [true, false] }])).toBe(
      "[null, 1.5, Infinity, NaN, 0, -1.0, 100000000000000000000, {\"a\": [true, false]}]",
    );
    expect(pyJsonDumps(1e21)).toBe("1000000000000000000000");
    expect(pyJsonDumps(-Infinity)).toBe("-Infinity");
  });

  test("Map keys that are not strings are written as Python writes them", () => {
    expect(pyJsonDumps(new Map<unknown, unknown>([[1, "a"], [true, "b"], [null, "c"], [new PyFloat(2), "d"], [12345678901234567890n, "e"]]))).toBe(
      '{"1": "a", "true": "b", "null": "c", "2.0": "d", "12345678901234567890": "e"}',
    );
  });
});

const python = spawnSync("python3", ["-c", "print(1)"], { encoding: "utf8" });
const hasPython = python.status === 0;

describe.skipIf(!hasPython)("the tables above are what python3's json module does", () => {
  test("live python3", () => {
    const script = `import json, sys
cases = json.loads(sys.stdin.read())
out = []
for t in cases:
    try:
        v = json.loads(t); out.append([repr(v), json.dumps(v)])
    except json.JSONDecodeError:
        out.append(None)
print(json.dumps(out))`;
    const texts = [...REJECTED, ...ACCEPTED.map((a) => a[0])];
    const run = spawnSync("python3", ["-c", script], { input: JSON.stringify(texts), encoding: "utf8" });
    const results = JSON.parse(run.stdout) as ([string, string] | null)[];
    expect(results.slice(0, REJECTED.length).every((r) => r === null)).toBe(true);
    expect(results.slice(REJECTED.length)).toEqual(ACCEPTED.map((a) => [a[1], a[2]]));
  });
});
if (!hasPython) test.skip("python3 not found: the live re-check of the json tables is skipped", () => {});
