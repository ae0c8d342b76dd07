// The documented CI workflow for a repository that commits its output: build, commit out/, and in a
// fresh clone (another machine: another signing key, git converting line endings) `rye build
// --check` passes; a build there with the builder's key writes nothing.
import { spawnSync } from "node:child_process";
import { cpSync, lstatSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { outsideOf } from "../helpers/outside.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin", "rye.js");
const hasGit = spawnSync("git", ["--version"]).status === 0;

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", GIT_CONFIG_NOSYSTEM: "1", HOME: cwd, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test.skipIf(!hasGit)(`git round trip: commit out/, clone, rye build --check exits 0${hasGit ? "" : " (skipped: git not installed)"}`, () => {
  const base = mkdtempSync(join(tmpdir(), "rye-git-"));
  const repo = join(base, "repo");
  const builder = { USER_SPACE: join(outsideOf(base), "builder") };
  cpSync(join(ROOT, ".ai"), join(repo, ".ai"), { recursive: true });
  const git = (cwd: string, ...args: string[]) => {
    const r = run("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], cwd);
    expect(r.code, r.err).toBe(0);
    return r.out;
  };
  git(base, "init", "-q", repo);
  // What the docs tell a repository that commits its output to ignore, and to keep byte for byte.
  cpSync(join(ROOT, "test", "output", "fixtures", "committed.gitignore"), join(repo, ".gitignore"));
  cpSync(join(ROOT, "test", "output", "fixtures", "committed.gitattributes"), join(repo, ".gitattributes"));
  const built = run(process.execPath, [BIN, "build"], repo, builder);
  expect(built.code, built.err).toBe(0);
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "build");

  // out/ is committed as a plain folder of files, with its record and without the writer's work folder.
  const tracked = git(repo, "ls-files", "-s", "out").trim().split("\n");
  expect(tracked.length).toBeGreaterThan(50);
  expect(tracked.every((l) => l.startsWith("100644 "))).toBe(true);
  const paths = tracked.map((l) => l.split("\t")[1]);
  expect(paths).toContain("out/index.js");
  expect(paths).toContain("out/rye-files.json");
  expect(paths).toContain("out/.gitattributes");
  expect(paths.some((p) => p?.startsWith("out/.rye/"))).toBe(false);
  expect(git(repo, "ls-files", ".rye-cache")).toBe("");

  // Another build changes nothing, and git sees nothing changed.
  expect(run(process.execPath, [BIN, "build"], repo, builder).out).toMatch(/\(0 files written\)/);
  expect(git(repo, "status", "--porcelain")).toBe("");

  // A fresh clone on a machine that converts line endings, with no key of its own and no cache.
  const clone = join(base, "clone");
  git(base, "-c", "core.autocrlf=true", "clone", "-q", repo, clone);
  git(clone, "config", "core.autocrlf", "true");
  expect(lstatSync(join(clone, "out")).isDirectory()).toBe(true);
  expect(readFileSync(join(clone, "out", "index.js"), "utf8")).not.toContain("\r\n");
  const ci = { USER_SPACE: join(outsideOf(base), "ci") };
  const check = run(process.execPath, [BIN, "build", "--check"], clone, ci);
  expect(check.code, check.err).toBe(0);
  expect(check.out).toBe("out is up to date.\n");
  // --check writes nothing at all, not even a key.
  expect(git(clone, "status", "--porcelain", "--ignored")).toBe("");

  // With the builder's key, a build in the clone finds every file already right.
  const rebuilt = run(process.execPath, [BIN, "build"], clone, builder);
  expect(rebuilt.code, rebuilt.err).toBe(0);
  expect(rebuilt.out).toMatch(/\(0 files written\)/);
  expect(git(clone, "status", "--porcelain")).toBe("");

  // A stale committed out/ fails the check, naming the file.
  cpSync(join(clone, ".ai", "directives", "examples", "greet.md"), join(clone, ".ai", "directives", "examples", "greet2.md"));
  const stale = run(process.execPath, [BIN, "build", "--check"], clone, ci);
  expect(stale.code).toBe(1);
  expect(stale.err).toContain("missing  out/directives/examples/greet2.js");
}, 120_000);
