import { describe, expect, it } from "vitest";
import { build } from "../../src/index.js";

// `.ai/config/agent/hook_conditions.yaml` configures context hooks; YAML that does not parse is a
// located RYE3002 (the file, and the line and column of the YAML error), not a failed write.
const directive = {
  kind: "directive" as const,
  id: "t/plain",
  path: ".ai/directives/t/plain.md",
  text: '# Plain\n\n```xml\n<directive name="plain" version="1.0.0">\n  <metadata>\n    <description>d</description>\n    <category>t</category>\n    <author>a</author>\n  </metadata>\n</directive>\n```\n\nBody.\n',
};
const path = ".ai/config/agent/hook_conditions.yaml";

describe("hook configuration YAML", () => {
  it("reports a YAML error at its file, line and column", () => {
    for (const [text, line, column] of [
      ["context_hooks:\n  - id: a\n    event: x\n  bad: [\n", 4, 1],
      ["context_hooks:\n  - id: a\n  event: thread_started\n    position: before\n", 3, 1],
    ] as const) {
      const { diagnostics } = build([directive], "test", { hookConfig: { path, text } });
      const found = diagnostics.filter((d) => d.code === "RYE3002");
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: "error", loc: { source: path, start: { line, column } } });
      expect(found[0]!.message).toMatch(/^Invalid YAML in the hook configuration: /);
    }
  });

  it("accepts a valid file", () => {
    const text = "context_hooks:\n  - id: a\n    event: thread_started\n    action: {primary: execute, item_type: knowledge, item_id: x/y}\n";
    expect(build([directive], "test", { hookConfig: { path, text } }).diagnostics.filter((d) => d.code === "RYE3002")).toEqual([]);
  });
});
