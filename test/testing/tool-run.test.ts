import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { runRye, testUserSpace } from "../helpers/cli.js";

// A tool case on `result` runs the tool for real with --run (the example word_count.py, through python3).
const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));
const python = spawnSync("python3", ["--version"]).status === 0;

test.skipIf(!python)("with --run a tool's result is checked, and a wrong expectation on it fails", async () => {
  if (!python) console.log("skipped: python3 is not installed");
  const dir = mkdtempSync(join(tmpdir(), "rye-test-tool-"));
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  const env = { USER_SPACE: testUserSpace(), PATH: process.env.PATH };
  const rye = (...args: string[]) => runRye(["test", "--ci", "--json", "tool:examples/word_count", ...args], dir, env);
  const without = JSON.parse((await rye()).stdout);
  expect(without.results.map((r: { status: string }) => r.status)).toEqual(["passed", "skipped"]);
  const ran = await rye("--run");
  expect(ran.code, ran.stderr).toBe(0);
  expect(JSON.parse(ran.stdout).counts).toMatchObject({ passed: 2, failed: 0 });
  const file = join(dir, ".ai", "tests", "tools", "examples", "word_count.test.yaml");
  writeFileSync(file, "cases:\n  - name: counts\n    inputs:\n      text: one two three\n    expect:\n      result.data.count:\n        equals: 4\n");
  const wrong = await rye("--run");
  expect(wrong.code).toBe(1);
  expect(JSON.parse(wrong.stdout).results[0].failures[0].message).toBe("expected to equal 4\n  but was 3");
});
