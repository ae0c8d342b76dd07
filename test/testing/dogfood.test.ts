import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";

// The example project's own prompt tests (.ai/tests/), run by the built CLI as a user runs them.
const root = fileURLToPath(new URL("../..", import.meta.url));

test("the example project's cases pass under rye test from dist/, with a non-empty report", async () => {
  const env = { PATH: process.env.PATH, USER_SPACE: mkdtempSync(join(tmpdir(), "rye-dogfood-user-")) };
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, "bin", "rye.js"), "test", "--ci", "--json"], { cwd: root, env });
  const report = JSON.parse(stdout);
  expect(report.counts.failed).toBe(0);
  expect(report.counts.passed).toBeGreaterThanOrEqual(10);
  const kinds = new Set(report.results.filter((r: { status: string }) => r.status === "passed").map((r: { kind: string }) => r.kind));
  expect([...kinds].sort()).toEqual(["directive", "knowledge", "tool"]);
});
