// `rye test` changes a checkout only in its snapshot folder, and only through plain folders and
// files: a link placed anywhere on a snapshot's path (a dangling link where a snapshot is missing,
// a link to a file outside, any folder from `.ai` down linked elsewhere) is refused, located, the run
// fails, and nothing outside the project is created, rewritten or removed. The rows are generated
// from the snapshot path itself, so every folder on it is tried, in each mode that writes or removes.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { snapshotPath } from "../../src/testing/snapshots.js";
import { hiCase, projectWith, ryeTest } from "../testing/project.js";
import { tempDir } from "./helpers.js";

const CASE = hiCase("inputs: {who: Ada}\nexpect:\n  prompt:\n    snapshot: true", "greets Ada");
const REL = snapshotPath("directive", "t/hi", "greets Ada", "prompt");
const PARTS = REL.split("/");
/** Every folder on the snapshot's path below the project root: `.ai`, `.ai/tests`, … `…/t/hi`. */
const FOLDERS = PARTS.slice(0, -1).map((_, i) => PARTS.slice(0, i + 1).join("/"));

/** Moves the project's folder `rel` outside and puts a link to it in its place (what a pull request can commit). */
function linkFolderOut(dir: string, rel: string, outside: string): void {
  const at = join(dir, rel);
  if (existsSync(at)) renameSync(at, outside);
  else mkdirSync(outside, { recursive: true });
  mkdirSync(join(at, ".."), { recursive: true });
  symlinkSync(outside, at);
}

/**
 * The run fails naming the link. A linked `.ai` is refused earlier, by the project reader (its
 * sources are not followed out of the project, so no case runs); every folder below it by the
 * snapshot paths' own check, on the line of the case (stdout) or of the obsolete listing (stderr).
 */
function expectRefused(r: { code: number; stdout: string; stderr: string }, rel: string, outside: string, where: "stdout" | "stderr"): void {
  if (rel === ".ai") {
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.ai\/directives:1:1 - error RYE8001: Symlink not followed/);
    return;
  }
  expect(r.code).toBe(1);
  expect(r[where]).toContain(`refused: ${rel} is a symbolic link to ${outside}, not a folder`);
}

const snapshotsIn = (folder: string): string[] => (existsSync(folder) ? readdirSync(folder, { recursive: true }).map(String).filter((f) => f.endsWith(".snap")) : []);

describe("a missing snapshot is never written through a link", () => {
  test("a dangling link at the snapshot's own path: refused, located, and its target is not created", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    const marker = join(tempDir("rye-trust-"), "zz-evil.toml");
    mkdirSync(join(dir, ...PARTS.slice(0, -1)), { recursive: true });
    symlinkSync(marker, join(dir, REL));
    const r = await ryeTest(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`refused: ${REL} is a symbolic link to ${marker}`);
    expect(r.stdout).toMatch(/hi\.test\.yaml:\d+:\d+/);
    expect(existsSync(marker)).toBe(false);
  });

  test.each(["--update", "default"])("a link to an existing file outside (%s): refused and the file keeps its bytes", async (mode) => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    const victim = join(tempDir("rye-victim-"), "authorized_keys");
    writeFileSync(victim, "ssh-ed25519 AAAA owner\n");
    mkdirSync(join(dir, ...PARTS.slice(0, -1)), { recursive: true });
    symlinkSync(victim, join(dir, REL));
    const r = await ryeTest(dir, ...(mode === "default" ? [] : [mode]));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`refused: ${REL} is a symbolic link`);
    expect(readFileSync(victim, "utf8")).toBe("ssh-ed25519 AAAA owner\n");
  });

  test.each(FOLDERS)("the folder %s linked outside: refused, located, nothing created there", async (rel) => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    const outside = join(tempDir("rye-elsewhere-"), "linked");
    linkFolderOut(dir, rel, outside);
    const before = snapshotsIn(outside);
    const r = await ryeTest(dir, "--update");
    expectRefused(r, rel, outside, "stdout");
    expect(snapshotsIn(outside)).toEqual(before);
  });
});

describe("--update never removes a snapshot through a link", () => {
  test.each(FOLDERS.slice(0, 3))("the folder %s linked to another project's snapshots: refused and every .snap there is kept", async (rel) => {
    const dir = projectWith({ "directives/t/hi.test.yaml": "cases:\n  - name: no snapshot\n    inputs: {who: Ada}\n    expect:\n      prompt:\n        contains: Ada\n" });
    const outside = join(tempDir("rye-jest-"), "linked");
    linkFolderOut(dir, rel, outside);
    const snaps = join(outside, ...PARTS.slice(rel.split("/").length, 3));
    mkdirSync(join(snaps, "sub"), { recursive: true });
    writeFileSync(join(snaps, "App.test.js.snap"), "exports[`x`] = 1;\n");
    writeFileSync(join(snaps, "sub", "b.snap"), "y\n");
    const r = await ryeTest(dir, "--update");
    expectRefused(r, rel, outside, "stderr");
    if (rel !== ".ai") expect(r.stderr).toContain("No obsolete snapshot was removed.");
    expect(existsSync(join(snaps, "App.test.js.snap"))).toBe(true);
    expect(existsSync(join(snaps, "sub", "b.snap"))).toBe(true);
  });

  test("a plain snapshot folder: an obsolete snapshot is still removed, and a linked one below is not followed", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": "cases:\n  - name: no snapshot\n    inputs: {who: Ada}\n    expect:\n      prompt:\n        contains: Ada\n" });
    const base = join(dir, ".ai", "tests", "__snapshots__");
    mkdirSync(join(base, "directives", "t"), { recursive: true });
    writeFileSync(join(base, "directives", "t", "old.prompt.snap"), "old\n");
    const outside = tempDir("rye-jest-");
    writeFileSync(join(outside, "App.test.js.snap"), "exports[`x`] = 1;\n");
    symlinkSync(outside, join(base, "other"));
    const r = await ryeTest(dir, "--update");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Obsolete snapshots, removed:\n  .ai/tests/__snapshots__/directives/t/old.prompt.snap\n");
    expect(existsSync(join(base, "directives", "t", "old.prompt.snap"))).toBe(false);
    expect(existsSync(join(outside, "App.test.js.snap"))).toBe(true);
  });
});

describe("plain paths keep working", () => {
  test("a missing snapshot is written inside the project when nothing on its path is a link", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    const r = await ryeTest(dir);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, REL), "utf8")).toContain("Say hi to Ada");
  });
});
