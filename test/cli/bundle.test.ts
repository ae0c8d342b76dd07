import { cpSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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
  // The bundle is signed with the key generated in that user space; trust it as CI would.
  const trusted = join(dir, "nouser", ".ai", "config", "keys", "signing", "public_key.pem");
  process.env.RYE_TRUSTED_KEYS = trusted;
  const childEnv = { ...process.env, RYE_ALLOW_UNSIGNED: "", RYE_TRUSTED_KEYS: trusted };
  const elsewhere = mkdtempSync(join(tmpdir(), "rye-bundle-run-"));
  copyFileSync(join(dir, "out", "bundle.mjs"), join(elsewhere, "bundle.mjs"));
  const out = execFileSync(process.execPath, ["bundle.mjs", "directive", "examples/greet", "--inputs", '{"name": "Ada", "title": "Dr."}'], { cwd: elsewhere, encoding: "utf8", env: childEnv });
  const inTree = await import(join(dir, "out", "directives", "examples", "greet.js"));
  expect(JSON.parse(out)).toEqual({ status: "success", type: "directive", item_id: "examples/greet", data: inTree.render({ name: "Ada", title: "Dr." }) });
  const thread = JSON.parse(execFileSync(process.execPath, ["bundle.mjs", "directive", "examples/review_change", "--inputs", '{"diff": "d"}', "--thread"], { cwd: elsewhere, encoding: "utf8", env: childEnv }));
  expect(thread.data.messages[0].content).toContain("Review this diff");
  const bad = spawnSync(process.execPath, ["bundle.mjs", "directive", "examples/greet", "--inputs", "{}"], { cwd: elsewhere, encoding: "utf8", env: childEnv });
  expect(bad.status).toBe(1);
  expect(JSON.parse(bad.stdout)).toMatchObject({ status: "error", error: "Missing required inputs: name", item_id: "examples/greet" });
  expect(spawnSync(process.execPath, ["bundle.mjs", "nonsense"], { cwd: elsewhere, env: childEnv }).status).toBe(2);
  // A tool runs from the bundle too, execa included, with only the project's chain files on disk.
  const tool = spawnSync(process.execPath, ["bundle.mjs", "tool", "examples/word_count", "--params", '{"text": "a b c d"}', "--project", dir], { cwd: elsewhere, encoding: "utf8", env: childEnv });
  expect(tool.status, tool.stderr).toBe(0);
  expect(JSON.parse(tool.stdout)).toMatchObject({ status: "success", item_id: "examples/word_count", data: { count: 4 } });
  // The bundle is signed as one file: rye verify checks it, and one edited byte fails.
  let report = "";
  const verifyIo = { ...io, stdout: { write: (t: string) => ((report += t), true) } as unknown as Io["stdout"] };
  expect(await main(["verify", join(elsewhere, "bundle.mjs")], verifyIo)).toBe(0);
  const text = readFileSync(join(elsewhere, "bundle.mjs"), "utf8");
  writeFileSync(join(elsewhere, "bundle.mjs"), text.replace("Missing required inputs", "Missing required inputz"));
  report = "";
  expect(await main(["verify", join(elsewhere, "bundle.mjs")], verifyIo)).toBe(1);
  expect(report).toMatch(/Content modified since signing/);
  // A later build leaves the bundle in place (it is not build output).
  expect(await main(["build"], io)).toBe(0);
  expect(await main(["build", "--check"], io)).toBe(0);
}, 60_000);
