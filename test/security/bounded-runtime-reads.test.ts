// The files a run reads besides the sources: a tool run's .env (the runtime's own reader) and the
// agents TOML of `rye run --agent`. Each, as a FIFO or a link to /dev/zero, ends the run at once
// with a non-zero status naming the file, never a read without end; a .env that is simply absent is
// no error, and a readable one still works.
import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cleanEnv, makeProject, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const base = tempDir("rye-runtime-reads-");
const project = makeProject(join(base, "proj"));
const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
const built = rye(project, env, "bundle");
expect(built.status, built.stderr).toBe(0);

const HOSTILE: [string, (p: string) => void][] = [
  ["a FIFO", (p) => execFileSync("mkfifo", [p])],
  ["a link to /dev/zero", (p) => symlinkSync("/dev/zero", p)],
];

function tool(...extra: string[]) {
  return rye(project, env, "run", "tool", "examples/word_count", "--params", '{"text": "a b c"}', "--project", project, ...extra);
}

describe("a tool run's .env", () => {
  test("absent: no error; a readable one: the run succeeds", () => {
    rmSync(join(project, ".env"), { force: true });
    expect(JSON.parse(tool().stdout).status).toBe("success");
    writeFileSync(join(project, ".env"), "GREETING=hi\n");
    expect(JSON.parse(tool().stdout).status).toBe("success");
    rmSync(join(project, ".env"));
  }, 120_000);

  test.each(HOSTILE)(".env is %s: the run is refused, naming it", (_, make) => {
    const file = join(project, ".env");
    make(file);
    try {
      const r = tool();
      expect(r.status).not.toBeNull();
      const out = JSON.parse(r.stdout) as { status: string; error?: string };
      expect(out.status).toBe("error");
      expect(out.error).toContain(`cannot read ${file}`);
      expect(out.error).toMatch(/not a regular file/);
    } finally {
      rmSync(file, { force: true });
    }
  }, 120_000);
});

describe("the agents TOML of rye run --agent", () => {
  test.each(HOSTILE)("--agents names %s: exit 1 naming the file, no hang", (_, make) => {
    // Outside the checkout (a bundle run reads no agents TOML from it).
    const file = join(tempDir("rye-agents-"), "agents.toml");
    make(file);
    const r = rye(project, env, "run", "out/bundle.mjs", "directive", "examples/greet", "--inputs", '{"name": "x"}', "--agent", "a", "--agents", file);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot read the agents file: .*not a regular file/);
  }, 120_000);
});
