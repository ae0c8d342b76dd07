import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { compileToDir, importDirective, source } from "../helpers/compile.js";
import { parsePyJson } from "../../src/runtime/py-json.js";
import { SHARED_DIR, SHARED_SKIP_REASON, hasShared } from "../helpers/shared.js";

// `<search>` and `<load>` in the fence are actions, as in seed 000's XML format example and the
// 2026-02 parser; the 2026-04 parser knows only execute, fetch and sign and returns none for them
// (README, "Decisions and deviations"). Every other action is as the original's.

const TEXT = `# Create

\`\`\`xml
<directive name="create" version="1.0.0">
  <metadata>
    <description>Create a directive.</description>
  </metadata>
  <inputs>
    <input name="name" type="string" required="true">Name</input>
    <input name="category" type="string" required="true">Category</input>
  </inputs>
  <process>
    <step name="check_duplicates">
      Search for directives similar to {input:name}.
      <search item_type="directive" query="{input:name}" />
    </step>
    <step name="read">
      <load item_type="knowledge" item_id="{input:category}/guide" />
    </step>
    <step name="write_file">
      <execute item_type="tool" item_id="rye/file-system/fs_write">
        <param name="path" value=".ai/directives/{input:category}/{input:name}.md" />
      </execute>
    </step>
  </process>
</directive>
\`\`\`
Go.
`;

const INPUTS = { name: "deploy", category: "ops" };

test("search and load elements are actions, interpolated like the others (seed 000)", async () => {
  const { dir } = compileToDir([source("t/create", TEXT)]);
  const mod = await importDirective(dir, "t/create");
  expect(mod.render(INPUTS).actions).toEqual([
    { primary: "search", item_type: "directive", query: "deploy" },
    { primary: "load", item_type: "knowledge", item_id: "ops/guide" },
    { primary: "execute", item_type: "tool", item_id: "rye/file-system/fs_write", params: { path: ".ai/directives/ops/deploy.md" } },
  ]);
});

const hasPython = spawnSync("python3", ["-c", "print(1)"]).status === 0;

describe.skipIf(!hasShared || !hasPython)("against the 2026-04 parser", () => {
  test("the only difference is the search and load actions it does not know", async () => {
    const job = JSON.stringify({ id: 1, text: TEXT, params: JSON.stringify(INPUTS) });
    const run = spawnSync("python3", [resolve(SHARED_DIR, "oracle", "rye_oracle.py"), "batch"], { input: `${job}\n`, encoding: "utf8" });
    const original = parsePyJson(run.stdout) as { render: { actions: Record<string, unknown>[]; body: string; prompt: string } };
    const { dir } = compileToDir([source("t/create", TEXT)]);
    const ours = (await importDirective(dir, "t/create")).render(INPUTS);
    expect(ours.actions.filter((a: { primary: string }) => a.primary !== "search" && a.primary !== "load")).toEqual(original.render.actions);
    expect(original.render.actions.map((a) => a.primary)).toEqual(["execute"]);
    expect([ours.body, ours.prompt]).toEqual([original.render.body, original.render.prompt]);
  });
});
if (!hasShared || !hasPython) test.skip(`search/load actions against the original: ${hasShared ? "python3 not found" : SHARED_SKIP_REASON}`, () => {});
