// A checkout's config file and output setting are input, never a way to stall or to reach the
// repository's own state: rye.config.json and package.json are read only as regular files of at most
// 1 MiB (a link to /dev/zero or a FIFO is a located RYE8002 at once), and an output folder inside
// `.git` is refused (RYE8005) before anything is written there.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BIN, cleanEnv, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const GREET = '# greet\n\n```xml\n<directive name="greet" version="1.0.0">\n  <metadata><description>Greets.</description></metadata>\n</directive>\n```\n\nHello.\n';
let root: string;

beforeAll(() => {
  root = tempDir("rye-checkout-files-");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, ".ai", "directives"), { recursive: true });
  mkdirSync(join(dir, ".git", "refs", "tags"), { recursive: true });
  writeFileSync(join(dir, ".ai", "directives", "greet.md"), GREET);
  return dir;
}

/** A build with a hard timeout: an endless read shows as a killed process (status null), not a hung suite. */
function build(dir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "build", "--allow-unsigned", ...args], { cwd: dir, env: cleanEnv({ USER_SPACE: join(outsideOf(root), "user") }), encoding: "utf8", timeout: 20_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("config files are read only as bounded regular files", () => {
  const fifo = (path: string) => execFileSync("mkfifo", [path]);
  for (const [name, plant, why] of [
    ["rye.config.json linked to /dev/zero", (p: string) => symlinkSync("/dev/zero", join(p, "rye.config.json")), /rye\.config\.json:1:1 - error RYE8002: Cannot read: it is a device, not a regular file/],
    ["rye.config.json a FIFO", (p: string) => fifo(join(p, "rye.config.json")), /rye\.config\.json:1:1 - error RYE8002: Cannot read: it is a FIFO, not a regular file/],
    ["package.json linked to /dev/zero", (p: string) => symlinkSync("/dev/zero", join(p, "package.json")), /package\.json:1:1 - error RYE8002: Cannot read: it is a device, not a regular file/],
    ["rye.config.json a dangling link", (p: string) => symlinkSync(join(p, "nowhere.json"), join(p, "rye.config.json")), /rye\.config\.json:1:1 - error RYE8002: Cannot read: it is a link to nothing/],
  ] as const) {
    test(`${name}: a located error at once, nothing built`, () => {
      const dir = project(name.replace(/\W+/g, "-"));
      plant(dir);
      const r = build(dir);
      expect(r.status).toBe(1);
      expect(r.out).toMatch(why);
      expect(existsSync(join(dir, "out"))).toBe(false);
    });
  }

  test("a config file over the bound is refused, not read", () => {
    const dir = project("big");
    writeFileSync(join(dir, "rye.config.json"), `{"out": "out", "x": "${"a".repeat(1024 * 1024)}"}`);
    const r = build(dir);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/rye\.config\.json:1:1 - error RYE8002: Cannot read: it is \d+ bytes, over the limit of 1048576 bytes/);
  });
});

describe("the output folder may not lie inside .git", () => {
  for (const [how, setup, args] of [
    ["rye.config.json out: .git/refs/tags", (p: string) => writeFileSync(join(p, "rye.config.json"), '{"out": ".git/refs/tags"}'), []],
    ["--out .git/refs/tags", () => undefined, ["--out", ".git/refs/tags"]],
    ["--out .GIT/refs/tags (another spelling)", () => undefined, ["--out", ".GIT/refs/tags"]],
    ["--out sub/.git/x (a nested repository)", (p: string) => mkdirSync(join(p, "sub", ".git"), { recursive: true }), ["--out", "sub/.git/x"]],
  ] as const) {
    test(`${how}: refused, nothing written`, () => {
      const dir = project(how.replace(/\W+/g, "-"));
      setup(dir);
      const r = build(dir, ...args);
      expect(r.status).toBe(1);
      expect(r.out).toMatch(/RYE8005: Cannot write the output: .* lies inside the project's \.git folder/);
      expect(readdirSync(join(dir, ".git", "refs", "tags"))).toEqual([]);
      for (const marker of [join(dir, ".GIT"), join(dir, "sub", ".git", "x"), join(dir, "out")]) expect(existsSync(marker), marker).toBe(false);
    });
  }

  test("a folder merely named like git (.github/out) is allowed", () => {
    const dir = project("github");
    const r = build(dir, "--out", ".github/out");
    expect(r.out).not.toMatch(/RYE8005/);
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, ".github", "out", "index.js"))).toBe(true);
  });
});
