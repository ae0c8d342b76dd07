import { describe, expect, test } from "vitest";
import { hiCase, projectWith, ryeTest } from "./project.js";

// Each expectation kind, once holding and once not, run through `rye test` on a small project.
// The expected texts come from the directive's own body: "Say hi to {input:who}, {input:times}
// times{input:mood|, calmly}." with times defaulting to 2 and the fallback ", calmly".
const cases: [string, string, boolean][] = [
  ["equals", "inputs: {who: Ada}\nexpect:\n  body:\n    equals: \"Say hi to Ada, 2 times, calmly.\"", true],
  ["equals", "inputs: {who: Ada}\nexpect:\n  body:\n    equals: \"Say hi to Ada, 3 times, calmly.\"", false],
  ["contains", "inputs: {who: Ada, mood: \", warmly\"}\nexpect:\n  prompt:\n    contains: [\"Say hi to Ada\", \"times, warmly.\"]", true],
  ["contains", "inputs: {who: Ada}\nexpect:\n  prompt:\n    contains: \"Say hello\"", false],
  ["not_contains", "inputs: {who: Ada}\nexpect:\n  prompt:\n    not_contains: \"{input:\"", true],
  ["not_contains", "inputs: {who: Ada}\nexpect:\n  prompt:\n    not_contains: calmly", false],
  ["matches", "inputs: {who: Ada, times: 5}\nexpect:\n  body:\n    matches: '^Say hi to \\w+, 5 times'", true],
  ["matches", "inputs: {who: Ada}\nexpect:\n  body:\n    matches: '^Say bye'", false],
  ["field value", "inputs: {who: Ada}\nexpect:\n  metadata.model.tier:\n    equals: fast", true],
  ["field value", "inputs: {who: Ada}\nexpect:\n  metadata.model.tier:\n    equals: slow", false],
  ["thread (user, context)", "inputs: {who: Ada}\nexpect:\n  user:\n    contains: [\"Always say please.\", \"Say hi to Ada\"]\n  context:\n    contains: t/manners", true],
  ["thread (user, context)", "inputs: {who: Ada}\nexpect:\n  context:\n    equals: []", false],
  ["refuses missing", "inputs: {times: 1}\nrefuses:\n  missing: who", true],
  ["refuses missing", "inputs: {times: 1}\nrefuses:\n  missing: [who, mood]", false],
  ["refuses type", "inputs: {who: Ada, times: \"two\"}\nrefuses:\n  type: times", true],
  ["refuses type", "inputs: {who: Ada, times: 2}\nrefuses:\n  type: times", false],
  ["refuses unknown", "inputs: {who: Ada, hwo: x}\nrefuses:\n  unknown: hwo", true],
  ["refuses payload", "inputs: {times: 1}\nrefuses:\n  payload:\n    error: \"Missing required inputs: who\"\n    item_id: t/hi", true],
  ["refuses payload", "inputs: {times: 1}\nrefuses:\n  payload:\n    item_id: t/other", false],
  ["refuses error", "inputs: {who: 7}\nrefuses:\n  error:\n    matches: \"'who' must be a string, got an integer\"", true],
  ["refuses error", "inputs: {who: 7}\nrefuses:\n  error:\n    contains: nothing like this", false],
];

describe("each expectation kind can pass and can fail", () => {
  test.each(cases)("%s (passes: %s)", async (_kind, body, passes) => {
    const dir = projectWith({ "directives/t/hi.test.yaml": hiCase(body) });
    const r = await ryeTest(dir, "--reporter", "json", "--ci");
    expect(r.stderr).not.toMatch(/RYE91/);
    const report = JSON.parse(r.stdout);
    expect(report.counts).toMatchObject({ total: 1, passed: passes ? 1 : 0, failed: passes ? 0 : 1 });
    expect(r.code).toBe(passes ? 0 : 1);
    if (!passes) {
      // A failure points at the line of its expectation in the test file.
      const failure = report.results[0].failures[0];
      expect(failure.file).toBe(".ai/tests/directives/t/hi.test.yaml");
      expect(failure.line).toBeGreaterThan(2);
    }
  });

  test("an accepted call fails a case that expects a refusal, and a refused one fails a case that expects a render", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": hiCase("inputs: {who: Ada, times: \"x\"}\nexpect:\n  body:\n    contains: Ada") });
    const r = await ryeTest(dir, "--ci");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("the inputs were refused: Invalid input types: 'times' must be an integer, got a string");
  });

  test("executor options reach the thread: model and limit_overrides", async () => {
    const hook = "rye/agent/core/DirectiveInstruction";
    const instruction = "```yaml\nname: DirectiveInstruction\n```\n\nModel ${model}, turns ${limits.turns}.\n";
    const dir = projectWith(
      { "directives/t/hi.test.yaml": hiCase("inputs: {who: Ada}\nmodel: m-1\nlimit_overrides: {turns: 7}\nexpect:\n  user:\n    contains: \"Model m-1, turns 7.\"") },
      { [`.ai/knowledge/${hook}.md`]: instruction },
    );
    const r = await ryeTest(dir, "--ci");
    expect(r.stdout + r.stderr).toContain("1 passed");
    expect(r.code).toBe(0);
  });

  test("{env:VAR} reads the case's env only, never the machine's", async () => {
    const dir = projectWith(
      { "directives/t/e.test.yaml": "cases:\n  - name: set\n    env: {GREETING: Howdy}\n    expect:\n      body:\n        equals: Howdy\n  - name: unset\n    expect:\n      body:\n        equals: hello\n" },
      { ".ai/directives/t/e.md": "# E\n\n```xml\n<directive name=\"e\" version=\"1.0.0\">\n  <metadata><description>E.</description></metadata>\n</directive>\n```\n\n{env:GREETING:hello}\n" },
    );
    const r = await runWithEnv(dir, { GREETING: "from the machine" });
    expect(r.stdout).toContain("2 passed");
  });
});

async function runWithEnv(dir: string, env: Record<string, string>) {
  const { runRye, testUserSpace } = await import("../helpers/cli.js");
  return runRye(["test", "--ci"], dir, { USER_SPACE: testUserSpace(), ...env });
}
