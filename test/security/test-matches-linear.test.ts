// A test file's `matches:` pattern comes from the checkout and runs on text the item renders, so
// `rye test` (and the language server's test worker, which reads test files the same way) matches
// it with the linear-time matcher, never V8's backtracking engine. The classic catastrophic patterns
// run to an answer on a long input (a backtracking engine would not finish the case); a pattern
// that matcher cannot follow (backreference, lookaround) is refused, located, and no case runs.
import { describe, expect, test } from "vitest";
import { hiCase, projectWith, ryeTest } from "../testing/project.js";

const LONG = `${"a".repeat(120)}b`;
/** Each backtracks exponentially (or as a high power) on LONG, where it finds no match. */
const CATASTROPHIC = ["(a+)+$", "(a|aa)+$", "(a|a?)+z", "(a*)*z", "(a+)+z", "(.*a){12}z"];

const caseWith = (pattern: string) => hiCase(`inputs: {who: "${LONG}"}\nexpect:\n  body:\n    matches: ${JSON.stringify(pattern)}`, "redos");

describe("matches: runs in time linear in the text", () => {
  test.each(CATASTROPHIC)("%s: the case ends, failing as RegExp answers on a short text (no match)", async (pattern) => {
    expect(new RegExp(pattern, "u").test("Say hi to ab, 2 times, calmly.")).toBe(false);
    const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": caseWith(pattern) }));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`expected to match /${pattern}/`);
  });

  test("a pattern that matches still passes (same answer as RegExp)", async () => {
    const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": caseWith("^Say hi to (a+)+b, \\d times") }));
    expect(r.code).toBe(0);
  });

  test.each([
    ["(a)\\1", "backreference"],
    ["(?<x>a)\\k<x>", "named backreference"],
    ["(?=a)a", "lookahead"],
    ["(?!b)a", "negative lookahead"],
    ["(?<=a)b", "lookbehind"],
    ["(?<!a)b", "negative lookbehind"],
  ])("%s (%s) is refused, located at the pattern, and no case runs", async (pattern) => {
    const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": caseWith(pattern) }));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hi\.test\.yaml:6:\d+ - error RYE9105: This expectation can never be checked: '.+' cannot be matched/);
    expect(r.stderr).toContain("No case ran");
    expect(r.stdout).not.toContain("passed");
  });

  test("an invalid pattern is still refused as before", async () => {
    const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": caseWith("[") }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not a valid JavaScript regular expression");
  });
});
