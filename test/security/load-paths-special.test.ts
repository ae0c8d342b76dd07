// A special file in an output folder, where the loader reads: a FIFO as a subfolder's manifest.json
// (the nearest-manifest search reads it), in place of a module, and in place of a shard. A writer
// waits on each FIFO with a tampered module, so a loader that opened and read it would get a
// payload. Every load path must refuse at once with a located IntegrityError (never block) and the
// payload's marker must not exist.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, makeProject, markerRan, node, payload, rye, tempDir } from "./helpers.js";
import { LOAD_PATHS } from "./load-path-rows.js";
import { outsideOf } from "../helpers/outside.js";

const ROWS = ["static import", "dynamic import()", "require() of ES module output from a CommonJS app", "createRequire(import.meta.url)", "Worker (inherited execArgv)"];

describe("a FIFO in an output folder is refused on every load path, without blocking", () => {
  const base = tempDir("rye-load-special-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const out = join(project, "out");
  const greet = join(out, "directives", "examples", "greet.js");
  const hasMkfifo = spawnSync("mkfifo", ["--version"]).status === 0;

  /** Where the FIFO goes; each is a file the loader reads before it can verify anything there. */
  const KINDS: Record<string, string> = {
    "a FIFO named manifest.json in a subfolder": join(out, "directives", "examples", "manifest.json"),
    "a FIFO in place of a module": greet,
    "a FIFO in place of a shard": join(out, "manifest", "directives%2Fexamples.json"),
  };

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
  }, 60_000);

  /** Replaces `at` with a FIFO that a writer fills with a tampered module; returns the undo. */
  function fifo(at: string): () => void {
    const saved = readFileSync(greet);
    const tampered = saved.toString("utf8").replace("\n", `\n${payload(marker)}`);
    const moved = `${at}.saved`;
    let had = true;
    try {
      renameSync(at, moved);
    } catch {
      had = false;
    }
    expect(spawnSync("mkfifo", [at]).status).toBe(0);
    const writer: ChildProcess = spawn("sh", ["-c", 'cat > "$1"', "sh", at], { stdio: ["pipe", "ignore", "ignore"] });
    writer.stdin!.end(tampered);
    return () => {
      writer.kill("SIGKILL");
      rmSync(at, { force: true });
      if (had) renameSync(moved, at);
    };
  }

  const cases = ROWS.flatMap((row) => Object.keys(KINDS).map((kind) => [row, kind] as const));
  test.skipIf(!hasMkfifo).each(cases)("%s, with %s: refused at once, and the payload never runs", (name, kind) => {
    const row = LOAD_PATHS[name]!;
    for (const [file, text] of Object.entries(row.files)) writeFileSync(join(project, file), text);
    rmSync(marker, { force: true });
    const undo = fifo(KINDS[kind]!);
    let r;
    try {
      r = node(project, env, "--import", "rye-build/register", ...row.args);
    } finally {
      undo();
    }
    // node() gives up after 60 s with a null status: a blocked load fails here.
    expect(r.status, r.stderr).not.toBe(null);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/IntegrityError/);
    expect(r.stderr).toMatch(/not regular files|not a regular file|FIFO/);
    expect(r.stdout).not.toContain("Ada");
    expect(markerRan(marker)).toBe(false);
  }, 90_000);
});
