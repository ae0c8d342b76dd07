import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { plan, run, which } from "./interpreters-helpers.js";

// Class 1, single-pass templating: a caller's value goes through the executor's templating passes as
// ONE opaque token for its whole text, so nothing it holds (a dict's keys, a nested repr, a string
// inside a list) is read as `${VAR}` or `{name}`. The expected text is Python's own str() of the
// value parsed from the same JSON (the original substitutes str(value)), computed by python3, not by
// rye's renderer.

const dir = mkdtempSync(join(tmpdir(), "rye-whole-value-"));
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = "s3cr3t-from-the-environment";
const ENV = { RYE_TEST_SECRET: SECRET, RYE_TEST_EVIL: `$(touch ${MARKER})`, HOME: "/home-of-rye" };

const hostile = fc.constantFrom(
  "${RYE_TEST_SECRET}", "${RYE_TEST_EVIL}", "${RYE_TEST_SECRET:-d}", "{tool_path}", "{tool_dir}", "{params_json}", "{data}", "}{", "}{tool_path}{",
  "{", "}", "$", "@rye-value-0000000000000000-0@", "@rye-value-", "'", '"', "\\", "a", " ",
);
const text = fc.oneof(fc.array(hostile, { minLength: 1, maxLength: 4 }).map((p) => p.join("")), fc.string({ maxLength: 6 }));
// JavaScript lists integer-like keys first; leave them out so the JSON text and the object agree on order.
const key = text.filter((k) => !/^(?:0|[1-9]\d*)$/.test(k));
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, text, fc.integer(), fc.boolean(), fc.constant(null), tie("list"), tie("dict")),
  list: fc.array(tie("value"), { maxLength: 3 }),
  dict: fc.dictionary(key, tie("value"), { maxKeys: 3 }),
})).value;
const container = fc.oneof(fc.array(json, { minLength: 1, maxLength: 3 }), fc.dictionary(key, json, { minKeys: 1, maxKeys: 3 }));

/** Python's str() of each JSON text, one line of JSON per value. */
function pythonStr(values: unknown[]): string[] {
  const program = "import json,sys\nfor line in sys.stdin:\n    print(json.dumps(str(json.loads(line))))";
  const out = execFileSync("python3", ["-c", program], { input: values.map((v) => JSON.stringify(v)).join("\n") + "\n", encoding: "utf8" });
  return out.trim().split("\n").map((l) => JSON.parse(l) as string);
}

const skip = which("python3") ? false : "python3 is not installed: the expected rendering comes from Python's own str()";
if (skip) console.log(`skipped: ${skip}`);

describe.skipIf(Boolean(skip))("a caller's whole value, keys included, is substituted once", () => {
  it("dicts and lists arrive on stdin and spliced into an argument exactly as Python's str() of the value (property)", async () => {
    const samples = [
      { "${RYE_TEST_SECRET}": 1, k: "${RYE_TEST_SECRET}", "}{tool_path}{": 2 },
      ["{params_json}", { "${RYE_TEST_EVIL}": ["}{tool_dir}{"] }],
      ...fc.sample(container, { numRuns: 40, seed: 32 }),
    ];
    const expected = pythonStr(samples);
    for (const [i, data] of samples.entries()) {
      const stdin = await run(dir, plan(dir, "cat", [], { input_data: "received: {data}" }), { data }, ENV);
      expect(stdin.data?.stdout ?? stdin.error, JSON.stringify(data)).toBe(`received: ${expected[i]}`);
      const arg = await run(dir, plan(dir, "sh", ["-c", "printf '%s' x={data}"]), { data }, ENV);
      expect(arg.data?.stdout ?? arg.error, JSON.stringify(data)).toBe(`x=${expected[i]}`);
      const paramsJson = await run(dir, plan(dir, "cat", [], { input_data: "{params_json}" }), { data }, ENV);
      expect(paramsJson.data, JSON.stringify(data)).toEqual({ data });
      for (const out of [stdin.data?.stdout, arg.data?.stdout]) expect(String(out)).not.toContain(SECRET);
    }
    expect(existsSync(MARKER)).toBe(false);
  }, 120_000);

  it("a dict that is a whole field stays a dict (the original's TypeError), its text never templated", async () => {
    const r = await run(dir, plan(dir, "cat", [], { input_data: "{data}" }), { data: { "${RYE_TEST_EVIL}": 1 } }, ENV);
    expect(r.status).toBe("error");
    expect(String(r.error)).toContain("expected string or bytes-like object, got 'dict'");
    expect(existsSync(MARKER)).toBe(false);
  });

  it("a caller's list is never the whole args: no positional rule would judge its elements", async () => {
    const p = plan(dir, "printf", "{extra}" as unknown as unknown[]);
    const r = await run(dir, p, { extra: ["%s|%s", "${RYE_TEST_SECRET}", "{tool_path}"] }, ENV);
    expect(r.status).toBe("error");
    expect(String(r.error)).toContain('args is "{extra}", not a list');
  });
});
