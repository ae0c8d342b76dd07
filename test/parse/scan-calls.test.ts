import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parse as callsGrammar } from "../../src/parse/generated/calls.js";
import { scanCalls } from "../../src/parse/scan-calls.js";

// scanCalls runs the grammar's call rules only at backticks that can start a call; over any body
// it must return what the grammar's `Calls` rule returns over the whole body.
const PIECES = [
  "`", "``", "rye_execute", "rye_search", "rye_load", "rye_fetch", "rye_sign", "rye_executex", "rye_", "(", ")", " ", "\n",
  'item_type="tool"', "item_id='a/b'", ", ", "parameters=", '{"k": "v"}', "{input:x}", "{input:`}", "[1, 2]", "<prose>", "True", "-3.5",
  '"\\n"', '"', "'", "=", ",", "prose text ", "é😀", '{"k": [1, {"d": None}], }', "'\\u0041\\x'", "-0", "1.", "[]", "{}",
];
const body = fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }), { maxLength: 40 }).map((a) => a.join(""));

describe("scanCalls agrees with grammar/calls.peggy", () => {
  test("on examples", () => {
    const examples = [
      "",
      "no calls here",
      'Run `rye_execute(item_type="tool", item_id="rye/file-system/read", parameters={"path": "a.md"})` then `rye_load(item_id="x")`.',
      "A `code` span, ` rye_sign(item_id='a') ` and `rye_fetch(broken` and `rye_search(query={input:q`x})`.",
      "``rye_execute()`` `rye_executes()` `rye_execute(item_id=1,)`",
    ];
    // Serialised: the calls are emitted into modules, so their keys' order counts too.
    for (const t of examples) expect(JSON.stringify(scanCalls(t))).toBe(JSON.stringify(callsGrammar(t, { startRule: "Calls" })));
  });

  test("on generated bodies", () => {
    fc.assert(
      fc.property(body, (t) => {
        expect(JSON.stringify(scanCalls(t))).toBe(JSON.stringify(callsGrammar(t, { startRule: "Calls" })));
      }),
      { numRuns: 500 },
    );
  });
});
