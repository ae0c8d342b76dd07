import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parse as callsGrammar } from "../../src/parse/generated/calls.js";
import { parseSimpleCall } from "../../src/parse/call-simple.js";
import { scanCalls } from "../../src/parse/scan-calls.js";

// parseSimpleCall reads a call without the grammar. Where it answers, the answer must be the Call
// rule's, byte for byte once serialised (the keys in the same order) and ending at the same offset;
// where the rule fails it must not answer. Where it does not answer, scanCalls asks the grammar.

interface LibraryResult {
  peg$result: unknown;
  peg$currPos: number;
  peg$FAILED: unknown;
}

function grammarCall(text: string, at: number): { json: string; end: number } | null {
  const r = callsGrammar(text, { startRule: "Call", peg$library: true, peg$currPos: at, peg$silentFails: 1 }) as LibraryResult;
  return r.peg$result === r.peg$FAILED ? null : { json: JSON.stringify(r.peg$result), end: r.peg$currPos };
}

/** Checks one call at `at`; returns whether the fast path answered. */
function agrees(text: string, at = 0): boolean {
  const simple = parseSimpleCall(text, at);
  const grammar = grammarCall(text, at);
  if (simple === null) return false;
  expect(grammar, text).not.toBeNull();
  expect({ json: JSON.stringify(simple.call), end: simple.end }, text).toEqual(grammar);
  return true;
}

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

describe("parseSimpleCall agrees with the Call rule of grammar/calls.peggy", () => {
  test("on examples, reading the usual calls itself", () => {
    const usual = [
      '`rye_execute(item_type="tool", item_id="rye/file-system/read", parameters={"path": "budget.md"})`',
      '`rye_execute(item_type="directive", item_id="bench/g98/task_9823", parameters={"thread_manifest": "file", "n": 3, "ok": True})`',
      "` rye_load( item_id = 'a' , ) `",
      "`rye_search()`",
      '`rye_fetch(query={input:q}, limit=-2.5, tags=["a", \'b\', None], note=<a summary>)`',
    ];
    for (const text of usual) expect(agrees(text), text).toBe(true);
    // Not calls the Call rule reads: the grammar decides (and reports the broken ones).
    for (const text of ["`rye_execute(`", "`rye_execute(item_id=\"a\"", "`rye_execute(x=)`", "`rye_executes()`", '`rye_load(a="b\nc")`', "`rye_load(a=1.)`"]) {
      expect(parseSimpleCall(text, 0), text).toBeNull();
      expect(grammarCall(text, 0), text).toBeNull();
    }
  });

  test("on generated calls, answering for most of them", () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(call, fc.constantFrom("", "Run ", "a `code` span and "), (c, before) => {
        runs++;
        if (agrees(before + c, before.length)) answered++;
        else expect(parseSimpleCall(before + c, before.length)).toBeNull();
      }),
      { numRuns: 3000 },
    );
    // The generator makes many broken calls on purpose; it also makes enough good ones.
    expect(answered).toBeGreaterThan(runs / 4);
  });

  test("leaves values nested deeper than it reads to the grammar, with the same calls found", () => {
    const deep = `\`rye_execute(parameters=${"[".repeat(40)}1${"]".repeat(40)})\``;
    expect(parseSimpleCall(deep, 0)).toBeNull();
    const body = `Then ${deep} and \`rye_load(item_id="a")\`.`;
    expect(JSON.stringify(scanCalls(body))).toBe(JSON.stringify(callsGrammar(body, { startRule: "Calls" })));
    const shallow = `\`rye_execute(parameters=${"[".repeat(30)}1${"]".repeat(30)})\``;
    expect(agrees(shallow)).toBe(true);
  });
});
