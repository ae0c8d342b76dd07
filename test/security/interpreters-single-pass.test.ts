import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { plan, run } from "./interpreters-helpers.js";

// Class 1: a caller's value is never a template. The executor expands `${VAR}` and re-scans for
// `{name}` up to three times, which serves the chain's own text; a value goes through once, as it
// was given, so `${SECRET}` in it never becomes the environment's secret and `{tool_path}` or
// `{params_json}` in it stay text. Property over values built from templating syntax and names that
// resolve (environment variables, rye's paths, other parameters).

const dir = mkdtempSync(join(tmpdir(), "rye-single-pass-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = "s3cr3t-from-the-environment";

const piece = fc.constantFrom("${RYE_TEST_SECRET}", "${RYE_TEST_SECRET:-d}", "${HOME}", "{tool_path}", "{tool_dir}", "{params_json}", "{y}", "{x}", "{project_path}", "{", "}", "$", "a", " ", "'", '"');
const templateLike = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(""));

describe("a caller's value is substituted once, never re-expanded", () => {
  it("as a whole argument, on stdin and in params_json, the value arrives byte for byte (property)", async () => {
    await fc.assert(
      fc.asyncProperty(templateLike, templateLike, async (x, y) => {
        const env = { RYE_TEST_SECRET: SECRET, HOME: "/home-of-rye" };
        const whole = await run(dir, plan(dir, "printf", ["%s", "{x}"]), { x, y }, env);
        expect(whole.data?.stdout, x).toBe(x);
        const stdin = await run(dir, plan(dir, "cat", [], { input_data: "{x}" }), { x, y }, env);
        expect(stdin.data?.stdout, x).toBe(x);
        const json = await run(dir, plan(dir, "cat", [], { input_data: "{params_json}" }), { x, y }, env);
        expect(json.data, x).toEqual({ x, y });
        for (const out of [whole.data?.stdout, stdin.data?.stdout, JSON.stringify(json.data)]) expect(String(out)).not.toContain(SECRET);
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it("the chain's own text still expands: ${VAR} and {name} written by the tool's author", async () => {
    const r = await run(dir, plan(dir, "printf", ["%s|%s", "${RYE_TEST_SECRET}", "{greeting}"], { greeting: "hi {who}", who: "there" }), {}, { RYE_TEST_SECRET: SECRET });
    expect(r.data?.stdout).toBe(`${SECRET}|hi there`);
  });
});
