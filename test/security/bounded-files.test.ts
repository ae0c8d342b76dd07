// Decision #25: only regular files are read, with a bound. A FIFO, a socket, a device or a link to
// /dev/zero among the sources (or as the hook configuration) is a located error at once: never a
// build that blocks on a FIFO's missing writer or reads /dev/zero until memory runs out.
import { spawnSync } from "node:child_process";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BIN, cleanEnv, tempDir } from "./helpers.js";

const GREET = '# greet\n\n```xml\n<directive name="greet" version="1.0.0">\n  <metadata><description>Greets.</description></metadata>\n</directive>\n```\n\nHello.\n';
let root: string;
const servers: Server[] = [];

beforeAll(() => {
  root = tempDir("rye-special-");
});
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(root, { recursive: true, force: true });
});

function project(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, ".ai", "directives"), { recursive: true });
  mkdirSync(join(dir, ".ai", "knowledge"), { recursive: true });
  mkdirSync(join(dir, ".ai", "config", "agent"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(dir, ".ai", "directives", "greet.md"), GREET);
  return dir;
}

const fifo = (path: string) => execFileSync("mkfifo", [path]);
async function socket(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
}

/** Builds with a hard timeout: a read that blocks shows as a killed process (status null), not a hung suite. */
function build(dir: string, jobs = 2) {
  const r = spawnSync(process.execPath, [BIN, "build", "--jobs", String(jobs), "--allow-unsigned"], { cwd: dir, env: cleanEnv({}), encoding: "utf8", timeout: 20_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const CASES: [string, (dir: string) => Promise<void> | void, RegExp][] = [
  ["a FIFO named like a directive", (dir) => fifo(join(dir, ".ai/directives/fifo.md")), /\.ai\/directives\/fifo\.md:1:1 - error RYE8002: Cannot read: it is a FIFO, not a regular file/],
  ["a socket named like a directive", (dir) => socket(join(dir, ".ai/directives/sock.md")), /\.ai\/directives\/sock\.md:1:1 - error RYE8002: Cannot read: it is a socket, not a regular file/],
  ["a link to /dev/zero as knowledge", (dir) => symlinkSync("/dev/zero", join(dir, ".ai/knowledge/zero.md")), /\.ai\/knowledge\/zero\.md:1:1 - error RYE8001: Symlink not followed: it resolves to \/dev\/zero, outside the project/],
  [
    "a link inside the project to a FIFO",
    (dir) => {
      fifo(join(dir, "pipe"));
      symlinkSync(join(dir, "pipe"), join(dir, ".ai/directives/linked.md"));
    },
    /\.ai\/directives\/linked\.md:1:1 - error RYE8002: Cannot read: it is a FIFO, not a regular file/,
  ],
  ["a FIFO as hook_conditions.yaml", (dir) => fifo(join(dir, ".ai/config/agent/hook_conditions.yaml")), /hook_conditions\.yaml:1:1 - error RYE8002: Cannot read: it is a FIFO, not a regular file/],
  ["a link to /dev/zero as hook_conditions.yaml", (dir) => symlinkSync("/dev/zero", join(dir, ".ai/config/agent/hook_conditions.yaml")), /hook_conditions\.yaml:1:1 - error RYE8002: Cannot read: it is a device, not a regular file/],
];

describe("special files among the sources", () => {
  test.each(CASES.flatMap(([what, make, expected]) => [1, 2].map((jobs) => [what, jobs, make, expected] as const)))("%s (--jobs %i): a located error at once, nothing written", async (what, jobs, make, expected) => {
    const dir = project(`${what.replace(/\W+/g, "-")}-${jobs}`);
    await make(dir);
    const started = Date.now();
    const r = build(dir, jobs);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(expected);
    expect(existsSync(join(dir, "out"))).toBe(false);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);

  test("control: the same project without the special file builds", () => {
    const dir = project("control");
    const r = build(dir);
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, "out", "directives", "greet.js"))).toBe(true);
  }, 30_000);
});
