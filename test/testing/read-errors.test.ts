// `rye test` fails where `rye build` fails: an error reading or compiling the project's sources
// makes the run exit non-zero even when every case that could run passed. And a --bundle that is no
// regular file is refused in one located line, never a stack trace.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runRye, testUserSpace } from "../helpers/cli.js";
import { hiCase, projectWith, ryeTest } from "./project.js";

const CASE = hiCase("inputs: {who: Ada}\nexpect:\n  prompt:\n    contains: Ada", "greets Ada");

/** The project with one unreadable entry of `kind` beside t/hi. */
function withUnreadable(kind: string): string {
  const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
  const at = join(dir, ".ai", "directives", "t", "odd.md");
  if (kind === "fifo") execFileSync("mkfifo", [at]);
  else if (kind === "dangling link") symlinkSync(join(dir, "nowhere.md"), at);
  else if (kind === "link out of the project") symlinkSync("/etc/passwd", at);
  else mkdirSync(at);
  return dir;
}

describe("an error reading the project fails rye test as it fails rye build", () => {
  test.each(["fifo", "dangling link", "link out of the project", "folder named .md"])("a %s among the directives: the case passes, the run exits 1", async (kind) => {
    const dir = withUnreadable(kind);
    const r = await ryeTest(dir);
    expect(r.stderr).toMatch(/odd\.md(:\d+:\d+)? - error RYE80\d\d/);
    expect(r.stdout).toContain("1 passed");
    expect(r.stderr).toMatch(/1 error reading or compiling the project \(above\): rye test fails, as rye build does\./);
    expect(r.code).toBe(1);
    const build = await runRye(["build"], dir, { USER_SPACE: testUserSpace(), PATH: process.env.PATH });
    expect(build.code).toBe(1);
  });

  test("a clean project still exits 0", async () => {
    const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": CASE }));
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("rye test fails");
  });
});

describe("--bundle names a regular file or is refused, located", () => {
  test.each([
    ["/dev/null", "a device"],
    [".ai", "a folder"],
  ])("--bundle %s: exit 2, one line naming the path and what it is, no stack", async (path, what) => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    const r = await ryeTest(dir, "--bundle", path);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`rye test: --bundle ${join(path === ".ai" ? dir : "", path)} is ${what}, not a bundle file`);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  test("a FIFO as --bundle is refused without waiting for a writer", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    execFileSync("mkfifo", [join(dir, "bundle.mjs")]);
    const r = await ryeTest(dir, "--bundle", "bundle.mjs");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("bundle.mjs is a FIFO, not a bundle file");
  });
});
