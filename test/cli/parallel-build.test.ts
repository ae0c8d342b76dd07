// A build on several threads (--jobs) must be indistinguishable from one on a single thread: the
// same bytes in out/, the same diagnostics in the same order, the same exit code; an error in any
// thread's share writes nothing; a worker that dies fails the build without a hang or a partial out/.
// These run bin/rye.js (dist/): worker threads load the compiled build worker.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { outputTree } from "../helpers/output-bytes.js";
import { beforeAll, describe, expect, test } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations
import { generateCorpus } from "../../scripts/gen-corpus.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "bin", "rye.js");
/** Enough items that a build is shared among threads (compile-items.ts PARALLEL_FROM is 500). */
const DIRECTIVES = 600;

function expectSameTree(a: Map<string, Buffer>, b: Map<string, Buffer>): void {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  expect([...a].filter(([path, bytes]) => !bytes.equals(b.get(path)!)).map(([path]) => path)).toEqual([]);
}

let user: string;
let generated: string;

/** A copy of the generated project, with `edits` applied (path under .ai/ → text transform). */
function project(edits: Record<string, (text: string) => string> = {}): string {
  const dir = join(mkdtempSync(join(tmpdir(), "rye-par-")), "p");
  cpSync(generated, dir, { recursive: true });
  for (const [rel, edit] of Object.entries(edits)) {
    const path = join(dir, ".ai", rel);
    writeFileSync(path, edit(existsSync(path) ? readFileSync(path, "utf8") : ""));
  }
  return dir;
}

function rye(dir: string, args: string[], bin = BIN) {
  const r = spawnSync(process.execPath, [bin, "build", "--project", dir, ...args], { cwd: dir, encoding: "utf8", env: { USER_SPACE: user, NO_COLOR: "1", PATH: process.env.PATH } });
  // The time a build took is the one thing allowed to differ.
  return { code: r.status, stdout: r.stdout.replace(/ in \d+ ms/, " in N ms"), stderr: r.stderr };
}

/** Errors spread over the project, so they land in different threads' shares. */
const broken = {
  // A parse error early in the order…
  "directives/bench/g0/task_7.md": (t: string) => t.replace("</directive>", ""),
  // …an undeclared input (with a suggestion) in the middle…
  "directives/bench/g3/task_301.md": (t: string) => t.replace("Use {input:release_execute} for the file.", "Use {input:relase_execute} for the file."),
  // …and a parent that fails near the end: its child is not emitted either.
  "directives/bench/g5/task_575.md": (t: string) => t.replace("</directive>", ""),
  // A second file for an existing knowledge id: a whole-project error every thread would find.
  "knowledge/bench/k0/note_3.yaml": () => "name: note_3\n",
};

beforeAll(() => {
  user = mkdtempSync(join(tmpdir(), "rye-user-"));
  // The key first: the build that generates it says so, and the builds compared must say the same.
  expect(spawnSync(process.execPath, [BIN, "keys", "generate"], { env: { USER_SPACE: user, PATH: process.env.PATH } }).status).toBe(0);
  generated = mkdtempSync(join(tmpdir(), "rye-par-gen-"));
  generateCorpus(generated, DIRECTIVES, 7);
});

describe("rye build --jobs", () => {
  test("several threads write the same bytes and print the same report as one", () => {
    const one = project();
    const many = project();
    const a = rye(one, ["--jobs", "1"]);
    const b = rye(many, ["--jobs", "4"]);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^Compiled \d+ of 600 directives to out in N ms \(\d+ files written\)\.\n$/);
    expect(b.stdout).toBe(a.stdout.replace(" in N ms", " in N ms on 4 threads"));
    expect(b.stderr).toBe(a.stderr);
    expect(b.code).toBe(a.code);
    const out = outputTree(join(one, "out"));
    expect(out.size).toBeGreaterThan(1200);
    expectSameTree(out, outputTree(join(many, "out")));
  });

  test("with errors: the same diagnostics in the same order, the same exit code, and nothing written", () => {
    const one = project(broken);
    const many = project(broken);
    const a = rye(one, ["--jobs", "1"]);
    const b = rye(many, ["--jobs", "3"]);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain("task_7.md:17:9 - error RYE1002");
    expect(a.stderr).toContain("task_301.md:55:9 - error RYE2001: Input 'relase_execute' is not declared in <inputs>. Did you mean 'release_execute'?");
    expect(a.stderr).toContain("task_575.md:17:9 - error RYE1002");
    expect(a.stderr).toContain("Found 4 errors");
    // Whole-project diagnostics once, not once per thread.
    expect(a.stderr.match(/error RYE1004/g)).toHaveLength(1);
    expect(a.stderr.match(/warning RYE3008/g)).toHaveLength(1);
    expect(a.stdout).toContain("592 of 600 directives compiled without errors");
    expect(b.stderr).toBe(a.stderr);
    expect(b.stdout).toBe(a.stdout);
    expect(b.code).toBe(1);
    expect(existsSync(join(many, "out"))).toBe(false);
  });

  test("an error in one thread's share leaves an existing out/ exactly as it was", () => {
    const dir = project();
    const first = rye(dir, ["--jobs", "2"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(" on 2 threads ");
    const before = outputTree(join(dir, "out"));
    // Without the cache every item is compiled again, on both threads; four errors.
    for (const [rel, edit] of Object.entries(broken)) writeFileSync(join(dir, ".ai", rel), edit(existsSync(join(dir, ".ai", rel)) ? readFileSync(join(dir, ".ai", rel), "utf8") : ""));
    rmSync(join(dir, ".rye-cache"), { recursive: true, force: true });
    const r = rye(dir, ["--jobs", "2"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("out was left unchanged");
    expectSameTree(before, outputTree(join(dir, "out")));
    expect(existsSync(join(dir, "out", ".rye", "staging"))).toBe(false);
  });

  test("a worker that dies fails the build with a clear message: no hang, no out/, no staging left", () => {
    // A copy of the CLI whose build worker exits as soon as it starts.
    const copy = mkdtempSync(join(tmpdir(), "rye-crash-"));
    cpSync(join(ROOT, "dist"), join(copy, "dist"), { recursive: true });
    mkdirSync(join(copy, "bin"));
    cpSync(BIN, join(copy, "bin", "rye.js"));
    cpSync(join(ROOT, "package.json"), join(copy, "package.json"));
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    writeFileSync(join(copy, "dist", "builder", "build-worker.js"), "process.exit(7);\n");
    const dir = project();
    const r = rye(dir, ["--jobs", "2"], join(copy, "bin", "rye.js"));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("RYE8006");
    expect(r.stderr).toContain("a build worker stopped unexpectedly (exit code 7)");
    expect(existsSync(join(dir, "out"))).toBe(false);
    // The same copy builds on one thread.
    expect(rye(dir, ["--jobs", "1"], join(copy, "bin", "rye.js")).code).toBe(0);
  });

  test("a process that builds again (--watch) after a file changed builds the new text", async () => {
    // The first build of a watching process is shared among threads; its source objects are what the
    // next build compares the files it rereads with, so they must keep the texts that were built.
    const dist = (p: string) => import(join(ROOT, "dist", p));
    const { runOnce } = await dist("cli/commands/build-once.js");
    const { spacesFrom } = await dist("project/read-spaces.js");
    const { WatchedSources } = await dist("watch/watch-sources.js");
    const dir = project();
    let stdout = "";
    const sink = (keep: boolean) => Object.assign(new Writable({ write: (chunk, _enc, cb) => ((keep && (stdout += chunk)), cb()) }), { isTTY: false });
    const env = { USER_SPACE: user, NO_COLOR: "1", PATH: process.env.PATH };
    const io = { stdout: sink(true), stderr: sink(false), cwd: dir, env };
    const spaces = spacesFrom(dir, {}, dir, env);
    const watched = new WatchedSources(spaces);
    const options = { project: dir, outDir: join(dir, "out"), spaces, memo: {}, jobs: 2, read: () => watched.read() };
    expect(runOnce(options, io, false)).toBe(0);
    expect(stdout).toContain(`Compiled ${DIRECTIVES} of ${DIRECTIVES} directives`);
    const file = join(dir, ".ai", "directives", "bench", "g3", "task_301.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("</directive>", "</directive>\n\nA line added after the first build.\n"));
    watched.touch(file);
    stdout = "";
    expect(runOnce(options, io, false)).toBe(0);
    expect(readFileSync(join(dir, "out", "directives", "bench", "g3", "task_301.js"), "utf8")).toContain("A line added after the first build.");
  });

  test("--jobs takes a whole number of threads", () => {
    const r = spawnSync(process.execPath, [BIN, "build", "--jobs", "0"], { cwd: generated, encoding: "utf8", env: { USER_SPACE: user, PATH: process.env.PATH } });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--jobs takes a whole number of threads");
  });
});
