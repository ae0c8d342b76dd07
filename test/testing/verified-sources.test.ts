import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { runRye } from "../helpers/cli.js";

// rye test against built output (--out, through the verifying loader) and against a bundle
// (--bundle, verified before any byte of it is evaluated), on a copy of the example project. The
// runs are of the built CLI in a process of its own, where the verifying loader's hooks are
// Node's own (the test runner loads modules its own way).
const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));
const cli = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));

async function spawnRye(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], { cwd, env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** A copy of the example project with its own user space (and so its own signing key), built with `rye <command>`. */
async function built(command: "build" | "bundle") {
  const dir = mkdtempSync(join(tmpdir(), "rye-test-built-"));
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  const env = { USER_SPACE: mkdtempSync(join(tmpdir(), "rye-test-user-")), PATH: process.env.PATH };
  const made = await runRye([command], dir, env);
  expect(made.code, made.stderr).toBe(0);
  const key = join(env.USER_SPACE, ".ai", "config", "keys", "signing", "public_key.pem");
  return { dir, env, key, rye: (...args: string[]) => spawnRye(["test", "--ci", ...args], dir, env) };
}

describe("rye test --out", () => {
  test("runs the example project's cases against the verified output", async () => {
    const p = await built("build");
    const r = await p.rye("--out", "out", "--trusted-key", p.key, "--json");
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.counts.failed).toBe(0);
    expect(report.results.filter((x: { status: string }) => x.status === "passed").length).toBeGreaterThan(3);
    expect(report.results.map((x: { kind: string }) => x.kind)).toEqual(expect.arrayContaining(["directive", "knowledge", "tool"]));
  });

  test("a module of out/ edited after the build is refused before any case runs", async () => {
    const p = await built("build");
    const marker = join(p.dir, "marker");
    appendFileSync(join(p.dir, "out", "directives", "examples", "greet.js"), `\nimport { writeFileSync as mark } from "node:fs";\nmark(${JSON.stringify(marker)}, "ran");\n`);
    const r = await p.rye("--out", "out", "--trusted-key", p.key);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("IntegrityError");
    expect(r.stderr).toContain("greet.js");
    expect(r.stderr).toContain("No case ran");
    expect(r.stdout).not.toContain("passed");
    expect(existsSync(marker)).toBe(false);
  });
});

describe("rye test --bundle", () => {
  test("runs the cases against a verified bundle; knowledge cases are skipped (a bundle has no knowledge modules)", async () => {
    const p = await built("bundle");
    const r = await p.rye("--bundle", "out/bundle.mjs", "--trusted-key", p.key, "--json");
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout).results as { kind: string; status: string; reason?: string }[];
    expect(results.filter((x) => x.kind === "directive").every((x) => x.status === "passed")).toBe(true);
    expect(results.filter((x) => x.kind === "knowledge").map((x) => x.status)).toEqual(["skipped"]);
  });

  test("with --run a bundled tool runs as rye run <bundle> tool runs it, against the project's files", async () => {
    const p = await built("bundle");
    const r = await p.rye("--bundle", "out/bundle.mjs", "--trusted-key", p.key, "--run", "--json", "tool:examples/word_count");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).counts).toMatchObject({ passed: 2, failed: 0, skipped: 0 });
  });

  test("a tampered bundle fails before any case runs, and none of its code is evaluated", async () => {
    const p = await built("bundle");
    const marker = join(p.dir, "marker");
    const bundle = join(p.dir, "out", "bundle.mjs");
    writeFileSync(bundle, `${readFileSync(bundle, "utf8")}\nawait import("node:fs").then((fs) => fs.writeFileSync(${JSON.stringify(marker)}, "ran"));\n`);
    const r = await p.rye("--bundle", "out/bundle.mjs", "--trusted-key", p.key);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("IntegrityError");
    expect(r.stderr).toContain("No case ran");
    expect(r.stdout).toBe("");
    expect(existsSync(marker)).toBe(false);
  });

  test("a bundle signed by a key that is not trusted is refused the same way", async () => {
    const p = await built("bundle");
    const other = await built("bundle");
    // Run as the other machine: its own key and the one given are the only anchors.
    const r = await spawnRye(["test", "--ci", "--bundle", "out/bundle.mjs", "--trusted-key", other.key], p.dir, other.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("IntegrityError");
  });
});
