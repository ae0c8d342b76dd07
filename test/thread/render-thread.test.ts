import { expect, test } from "vitest";
import { compileToDir, exampleSources, importDirective } from "../helpers/compile.js";

// The example project's review_change extends review_base (a <system> item), adds a <before>
// item and a wrapped thread_started hook; DirectiveInstruction comes from the built-in hook of
// seed 004 (before the prompt, unwrapped). Expected text follows seed 004's assembly order.


const STYLE = `# Review Style Guide

- Prefer small, named functions; a comment says why, not what.
- Every public function has a test that can fail.
- Errors name the file, line and column they are about.`;

const PROMPT = `<directive name="review_change">
<description>Review a change and return a verdict with reasons.</description>
<process>
  <step name="review">
    Review this diff (strict mode: true):

    --- a/x
+++ b/x
  </step>
</process>
When you have completed all steps, return structured results:
\`rye_execute(item_type="tool", item_id="rye/agent/threads/directive_return", parameters={"verdict": "<approve or reject (string) [required]>", "reasons": "<Why, one line per issue (string)>"})\`
</directive>`;

test("renderThread: system message and first user message in seed 004 order", async () => {
  const { dir, result } = compileToDir(exampleSources());
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const mod = await importDirective(dir, "examples/review_change");
  const thread = mod.renderThread({ diff: "--- a/x\n+++ b/x" });
  expect(thread.system).toBe(STYLE);
  expect(thread.messages).toHaveLength(1);
  expect(thread.messages[0].role).toBe("user");
  expect(thread.messages[0].content).toBe(
    [
      "You are running the directive below. Follow its steps in order, call tools instead of\ndescribing them, and finish by returning the declared outputs. Model: general.",
      STYLE,
      PROMPT,
      '<ReviewChecklist id="examples/review-checklist" type="knowledge">\nBefore returning a verdict for examples/review_change, check:\n\n1. Does every changed function have a test?\n2. Are error messages located (file, line, column)?\n</ReviewChecklist>',
    ].join("\n\n"),
  );
  expect(mod.renderThread({ diff: "d" }, { model: "m-1" }).messages[0].content).toContain("Model: m-1.");
});

test("contextPlan: chain root first, inherited permissions, hooks by layer", async () => {
  const { dir } = compileToDir(exampleSources());
  const mod = await importDirective(dir, "examples/review_change");
  expect(mod.contextPlan).toEqual({
    chain: ["examples/review_base", "examples/review_change"],
    system: ["examples/style-guide"],
    before: ["examples/style-guide"],
    after: [],
    suppress: [],
    permissionsFrom: "examples/review_base",
    hooks: [
      { id: "review_checklist", event: "thread_started", position: "after", wrap: true, items: ["examples/review-checklist"] },
      { id: "ctx_directive_instruction", event: "thread_started", position: "before", wrap: false, items: ["rye/agent/core/DirectiveInstruction"] },
    ],
  });
});
