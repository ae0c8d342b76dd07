// `rye run tool <id>` for a file the build skipped by rule names that rule (RYE1012) and why, not
// "build errors": a .sh script, a helper module without metadata, a support file, a skipped folder.
import { describe, expect, test } from "vitest";
import { plainDirective, runRye, tempTree, testUserSpace } from "../helpers/cli.js";

describe("rye run tool on an id the build skipped", async () => {
  const dir = tempTree({
    ".ai/directives/d.md": plainDirective("d"),
    ".ai/tools/t/clean.sh": "#!/bin/sh\necho clean\n",
    ".ai/tools/t/helper.py": "def shared():\n    return 1\n",
    ".ai/tools/t/data.json": '{"a": 1}\n',
    ".ai/tools/node_modules/pkg/index.py": "x = 1\n",
  });
  const env = { USER_SPACE: testUserSpace() };
  const built = await runRye(["build", "--allow-unsigned"], dir, env);

  for (const [id, path, why] of [
    ["t/clean", ".ai/tools/t/clean.sh", /rye reads no metadata from \.sh files/],
    ["t/helper", ".ai/tools/t/helper.py", /declares no tool metadata .* a helper that tools may use/],
    ["t/data", ".ai/tools/t/data.json", /rye reads no metadata from \.json files/],
    ["node_modules/pkg/index", ".ai/tools/node_modules", /node_modules\/ holds installed packages/],
  ] as const) {
    test(`${id}: names ${path} and the rule`, async () => {
      expect(built.code, built.stderr).toBe(0);
      const r = await runRye(["run", "tool", id], dir, env);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`rye build skipped ${path} (RYE1012): `);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toMatch(/build errors/);
    });
  }

  test("an id with no file at all keeps the general advice", async () => {
    const r = await runRye(["run", "tool", "t/nothing"], dir, env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/run rye build \(tools with build errors are not emitted\)/);
  });
});
