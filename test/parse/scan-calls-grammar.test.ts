import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parse as callsGrammar } from "../../src/parse/generated/calls.js";
import { scanCalls } from "../../src/parse/scan-calls.js";

// The compiler reads backtick calls with the grammar itself (grammar/calls.peggy), one call at a time
// from each backtick that starts one; scanCalls must find exactly what the grammar's Calls rule
// finds over the whole text, for usual, broken and deeply nested calls alike.

const grammarCalls = (text: string) => JSON.stringify(callsGrammar(text, { startRule: "Calls" }));

const GOOD_VALUES = [
  '"tool"', "'a/b'", '"with \\"quotes\\" and \\\\ and \\n\\t\\r"', "'\\u0041\\u00e9 \\u12 \\x \\`'", '"é😀"', '"\\😀"', '""', "''",
  "{input:x}", "{input:a b}", "<the model fills this>", "True", "true", "False", "false", "None", "null",
  "0", "-3", "12.5", "-0", '{"k": "v"}', '{"k": {"n": [1, 2, {"d": null}]}, }', "{}", "{ }", "[]", "[1, 'two', [3]]", "[1,]", '{"path": "{input:p}"}',
];
const BAD_VALUES = ["Truex", "1.", "-", '{"a": 1 "b": 2}', "[1 2]", '"open', "'\n'", '"`"', "{input:}", "x"];
/** Mostly what the Call rule reads, sometimes not: `good` weighted against `bad`. */
const mostly = (good: string[], bad: string[]) => fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
const space = fc.constantFrom("", " ", "\n  ", "\t", "\r\n");
const value = mostly(GOOD_VALUES, BAD_VALUES);
const arg = fc.tuple(mostly(["item_type", "item_id", "parameters", "_x1"], ["1bad", ""]), space, mostly(["="], [":", ""]), space, value).map((p) => p.join(""));
const call = fc
  .tuple(
    space,
    mostly(["rye_execute", "rye_search", "rye_load", "rye_fetch", "rye_sign"], ["rye_executes", "rye_other"]),
    space,
    mostly(["("], ["[", ""]),
    space,
    fc.array(arg, { maxLength: 4 }).chain((args) => fc.tuple(fc.constant(args), fc.array(mostly([",", ", ", " ,", ",\n"], [" "]), { minLength: args.length, maxLength: args.length }))),
    mostly(["", ",", " , "], [",,"]),
    space,
    mostly([")"], [""]),
    space,
    mostly(["`"], ["", "x`"]),
  )
  .map(([s1, name, s2, open, s3, [args, seps], trailing, s4, close, s5, tick]) => `\`${s1}${name}${s2}${open}${s3}${args.map((a, i) => a + (i < args.length - 1 ? seps[i] : "")).join("")}${args.length > 0 ? trailing : ""}${s4}${close}${s5}${tick}`);

describe("scanCalls agrees with the Calls rule of grammar/calls.peggy", () => {
  test("on examples, usual and broken", () => {
    const texts = [
      'Read it: `rye_execute(item_type="tool", item_id="rye/file-system/read", parameters={"path": "budget.md"})`.',
      '`rye_execute(item_type="directive", item_id="bench/g98/task_9823", parameters={"thread_manifest": "file", "n": 3, "ok": True})`',
      "` rye_load( item_id = 'a' , ) ` then `rye_search()`",
      '`rye_fetch(query={input:q}, limit=-2.5, tags=["a", \'b\', None], note=<a summary>)`',
      "`rye_execute(` and `rye_execute(item_id=\"a\"` and `rye_execute(x=)` and `rye_executes()` and `rye_load(a=1.)`",
    ];
    for (const text of texts) expect(JSON.stringify(scanCalls(text)), text).toBe(grammarCalls(text));
  });

  test("on generated texts of calls", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom("", "Run ", "a `code` span and ", "\n"), call), { maxLength: 4 }), (parts) => {
        const text = parts.map(([before, c]) => before + c).join(" ");
        expect(JSON.stringify(scanCalls(text)), text).toBe(grammarCalls(text));
      }),
      { numRuns: 1500 },
    );
  });

  test("values nested deeper than the limit are found as the grammar finds the calls around them", () => {
    const deep = `\`rye_execute(parameters=${"[".repeat(40)}1${"]".repeat(40)})\``;
    const body = `Then ${deep} and \`rye_load(item_id="a")\`.`;
    expect(JSON.stringify(scanCalls(body))).toBe(grammarCalls(body));
  });
});
