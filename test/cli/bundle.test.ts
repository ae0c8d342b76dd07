import { cpSync, copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync, spawnSync } from "node:child_process";
import { expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";

const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));
const sink = { write: () => true } as unknown as Io["stdout"];

test("rye bundle: one module that plain node runs from an empty directory, rendering as in the tree", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-bundle-"));
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  const io = { stdout: sink, stderr: sink, cwd: dir, env: { USER_SPACE: join(dir, "nouser") } };
  expect(await main(["bundle"], io)).toBe(0);
  const elsewhere = mkdtempSync(join(tmpdir(), "rye-bundle-run-"));
  copyFileSync(join(dir, "out", "bundle.mjs"), join(elsewhere, "bundle.mjs"));
  const out = execFileSync(process.execPath, ["bundle.mjs", "directive", "examples/greet", "--inputs", '{"name": "Ada", "title": "Dr."}'], { cwd: elsewhere, encoding: "utf8" });
  const inTree = await import(join(dir, "out", "directives", "examples", "greet.js"));
  expect(JSON.parse(out)).toEqual({ status: "success", type: "directive", item_id: "examples/greet", data: inTree.render({ name: "Ada", title: "Dr." }) });
  const thread = JSON.parse(execFileSync(process.execPath, ["bundle.mjs", "directive", "examples/review_change", "--inputs", '{"diff": "d"}', "--thread"], { cwd: elsewhere, encoding: "utf8" }));
  expect(thread.data.messages[0].content).toContain("Review this diff");
  const bad = spawnSync(process.execPath, ["bundle.mjs", "directive", "examples/greet", "--inputs", "{}"], { cwd: elsewhere, encoding: "utf8" });
  expect(bad.status).toBe(1);
  expect(JSON.parse(bad.stdout)).toMatchObject({ status: "error", error: "Missing required inputs: name", item_id: "examples/greet" });
  expect(spawnSync(process.execPath, ["bundle.mjs", "nonsense"], { cwd: elsewhere }).status).toBe(2);
  // A later build leaves the bundle in place (it is not build output).
  expect(await main(["build"], io)).toBe(0);
  expect(await main(["build", "--check"], io)).toBe(0);
}, 60_000);
