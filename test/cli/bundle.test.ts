import { cpSync, copyFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execFileSync, spawnSync } from "node:child_process";
import { expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { outsideOf } from "../helpers/outside.js";

const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));
const sink = { write: () => true } as unknown as Io["stdout"];

test("rye bundle: one module that plain node runs from an empty directory, rendering as in the tree", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-bundle-"));
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  const io = { stdout: sink, stderr: sink, cwd: dir, env: { USER_SPACE: join(outsideOf(dir), "nouser") } };
  expect(await main(["bundle"], io)).toBe(0);
  // The bundle is signed with the key generated in that user space; trust it as CI would.
  const trusted = join(outsideOf(dir), "nouser", ".ai", "config", "keys", "signing", "public_key.pem");
  process.env.RYE_TRUSTED_KEYS = trusted;
  const childEnv = { ...process.env, RYE_TRUSTED_KEYS: trusted };
  const elsewhere = mkdtempSync(join(tmpdir(), "rye-bundle-run-"));
  copyFileSync(join(dir, "out", "bundle.mjs"), join(elsewhere, "bundle.mjs"));
  const out = execFileSync(process.execPath, ["bundle.mjs", "directive", "examples/greet", "--inputs", '{"name": "Ada", "title": "Dr."}'], { cwd: elsewhere, encoding: "utf8", env: childEnv });
  const inTree = await import(join(dir, "out", "directives", "examples", "greet.js"));
  // With the item's provenance: the module's own facts, and the build's signer and id that the bundle carries.
  const provenance = { ...inTree.provenance, signer: expect.stringMatching(/^[a-f0-9]{16}$/), build_id: expect.stringMatching(/^[a-f0-9]{64}\/0\//) };
  expect(JSON.parse(out)).toEqual({ status: "success", type: "directive", item_id: "examples/greet", data: inTree.render({ name: "Ada", title: "Dr." }), provenance });
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
  // rye run refuses the edited bundle before evaluating any of it (a direct node run trusts the file).
  let err = "";
  const errIo = { write: (t: string) => ((err += t), true) } as unknown as Io["stderr"];
  const tampered = await main(["run", join(elsewhere, "bundle.mjs"), "directive", "examples/greet", "--inputs", '{"name": "x"}'], { stdout: sink, stderr: errIo, cwd: elsewhere, env: { RYE_TRUSTED_KEYS: trusted } });
  expect(tampered).toBe(1);
  expect(err).toMatch(/^IntegrityError: Content modified since signing: .*bundle\.mjs/);
  // A later build leaves the bundle in place (it is not build output).
  expect(await main(["build"], io)).toBe(0);
  expect(await main(["build", "--check"], io)).toBe(0);
}, 60_000);

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;

test("node out/bundle.mjs list, exactly as the docs show: prints the ids from the project, from elsewhere, and through a symlink", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-bundle-list-"));
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  const home = mkdtempSync(join(tmpdir(), "rye-bundle-home-"));
  const io = { stdout: sink, stderr: sink, cwd: dir, env: { USER_SPACE: home } };
  expect(await main(["bundle"], io)).toBe(0);
  const env = { PATH: process.env.PATH ?? "" };
  const ids = ["examples/count_words", "examples/greet", "examples/release_notes", "examples/review_base", "examples/review_change", "examples/write_ts_module"];
  const list = (cwd: string, path: string) => {
    const r = spawnSync(process.execPath, [path, "list"], { cwd, encoding: "utf8", env });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as string[];
  };
  const listed = list(dir, "out/bundle.mjs");
  expect(listed).toEqual(expect.arrayContaining(ids.slice(0, 5)));
  expect(list(tmpdir(), join(dir, "out", "bundle.mjs"))).toEqual(listed);
  symlinkSync(join(dir, "out", "bundle.mjs"), join(home, "linked.mjs"));
  expect(list(home, "linked.mjs")).toEqual(listed);
  // Imported rather than run, it runs no command.
  const imported = spawnSync(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(join(dir, "out", "bundle.mjs")).href)}); console.log("imported");`], { encoding: "utf8", env });
  expect(imported.stdout).toBe("imported\n");
}, 60_000);

test.skipIf(!hasOpenssl)(`a copied bundle verified with openssl and the pinned public key in an empty folder, then run${hasOpenssl ? "" : " — skipped: openssl not on PATH"}`, async () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-bundle-openssl-"));
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  const home = mkdtempSync(join(tmpdir(), "rye-bundle-home-"));
  expect(await main(["bundle"], { stdout: sink, stderr: sink, cwd: dir, env: { USER_SPACE: home } })).toBe(0);
  const ci = mkdtempSync(join(tmpdir(), "rye-bundle-ci-"));
  copyFileSync(join(dir, "out", "bundle.mjs"), join(ci, "bundle.mjs"));
  copyFileSync(join(dir, "out", "bundle.mjs.sig"), join(ci, "bundle.mjs.sig"));
  copyFileSync(join(home, ".ai", "config", "keys", "signing", "public_key.pem"), join(ci, "rye-signing-key.pem"));
  const env = { PATH: process.env.PATH ?? "" };
  // The commands of docs/security-model.md, verbatim.
  const openssl = () => spawnSync("openssl", ["pkeyutl", "-verify", "-pubin", "-inkey", "rye-signing-key.pem", "-rawin", "-in", "bundle.mjs", "-sigfile", "bundle.mjs.sig"], { cwd: ci, encoding: "utf8", env });
  const verified = openssl();
  expect(verified.status, verified.stderr).toBe(0);
  expect(verified.stdout).toContain("Signature Verified Successfully");
  const run = spawnSync(process.execPath, ["bundle.mjs", "list"], { cwd: ci, encoding: "utf8", env });
  expect(run.status, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toContain("examples/greet");
  // One changed byte anywhere, the signature line included, and openssl refuses.
  for (const at of [3, 5000]) {
    const bytes = readFileSync(join(dir, "out", "bundle.mjs"));
    bytes[at] = bytes[at]! ^ 1;
    writeFileSync(join(ci, "bundle.mjs"), bytes);
    const refused = openssl();
    expect(refused.status).not.toBe(0);
    expect(refused.stdout).toContain("Signature Verification Failure");
  }
}, 60_000);
