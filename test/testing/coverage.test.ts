import { describe, expect, test } from "vitest";
import { projectWith, ryeTest } from "./project.js";

const one = "cases:\n  - name: only who\n    inputs: {who: Ada}\n    expect:\n      body:\n        contains: Ada\n";
const more = `${one}  - name: everything, and the thread\n    inputs: {who: Ada, times: 1, mood: ", warmly"}\n    expect:\n      user:\n        contains: Always say please.\n`;

describe("rye test --coverage", () => {
  test("names the inputs, optional branches and context items no case exercised, and the items with no test file", async () => {
    const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": one }), "--coverage", "--json");
    expect(r.code).toBe(0);
    const { coverage } = JSON.parse(r.stdout);
    expect(coverage.items).toEqual([
      {
        kind: "directive",
        id: "t/hi",
        untested: false,
        inputs: ["times", "mood"],
        // The body is line 18 of t/hi.md; {input:mood|, calmly} ran only with mood absent.
        branches: [{ placeholder: "{input:mood|, calmly}", line: 18, missing: "given" }],
        // The default DirectiveInstruction hook's item is placed in every thread, beside <context>'s.
        context: ["rye/agent/core/DirectiveInstruction", "t/manners"],
      },
      { kind: "knowledge", id: "t/manners", untested: true, inputs: [], branches: [], context: [] },
    ]);
    // Counted: the item with a test file (1) and without (1); 3 inputs, 2 sides of 1 branch, 2 context items for t/hi.
    expect(coverage.total).toBe(2 + 3 + 2 + 2);
    expect(coverage.covered).toBe(1 + 1 + 1);
  });

  test("a case that gives the rest and checks the thread covers them; the human report says so", async () => {
    const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": more }), "--coverage");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Coverage: 8 of 9 (88 %)\n  knowledge t/manners: no test file\n");
    expect(r.stdout).not.toContain("directive t/hi:");
  });
});
