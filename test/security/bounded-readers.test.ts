// One reader for every file rye opens from a project, a user space or an output folder
// (decisions.md #25): a generated matrix of hostile entries (a link to /dev/zero, a FIFO, a socket,
// a folder, a file over its kind's limit, a link out of its space, a dangling link) put at every
// place a command reads a file from. Each run must end on its own, well inside the timeout, with a
// non-zero exit and a message naming the entry: never a hang, an endless read, or a silent skip.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { formatTrustedKeyToml } from "../../src/sign/index.js";
import { attackerKey, BIN, cleanEnv, REPO, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const base = tempDir("rye-bounded-readers-");
const root = join(base, "proj");
const home = join(outsideOf(base), "home");
const env = cleanEnv({ USER_SPACE: home });
const DIRECTIVE = join(".ai", "directives", "examples", "greet.md");
// A key file elsewhere on the machine: a link out of a space must not make it read (or trusted).
const OUTSIDE = join(base, "outside", "attacker.toml");
const KIB = 1024;

function run(...args: string[]) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: root, env, encoding: "utf8", timeout: 30_000 });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}`, ms: Date.now() - started };
}

mkdirSync(dirname(join(root, DIRECTIVE)), { recursive: true });
cpSync(join(REPO, DIRECTIVE), join(root, DIRECTIVE));
writeFileSync(join(root, "package.json"), '{ "type": "module", "private": true }\n');
mkdirSync(dirname(OUTSIDE), { recursive: true });
writeFileSync(OUTSIDE, formatTrustedKeyToml(attackerKey().publicPem, { owner: "attacker" }));
// A signed directive (so plain `rye verify` judges a signature with the project's stores) and a built out/.
expect(run("sign", DIRECTIVE).status).toBe(0);
expect(run("build").status).toBe(0);

/** Where a command reads a file, the command, and the limit of that kind of file. */
interface Place {
  name: string;
  path: string;
  args: string[];
  limit: number;
}

const PLACES: Place[] = [
  { name: "project trust store", path: join(root, ".ai/config/keys/trusted/x.toml"), args: ["verify"], limit: 64 * KIB },
  { name: "project trust store (--verify-sources)", path: join(root, ".ai/config/keys/trusted/x.toml"), args: ["build", "--verify-sources"], limit: 64 * KIB },
  { name: "project trust store, old location", path: join(root, ".ai/trusted_keys/x.toml"), args: ["verify"], limit: 64 * KIB },
  { name: "project trust store, old location (--verify-sources)", path: join(root, ".ai/trusted_keys/x.toml"), args: ["build", "--verify-sources"], limit: 64 * KIB },
  { name: "user space trust store", path: join(home, ".ai/config/keys/trusted/x.toml"), args: ["verify", "out"], limit: 64 * KIB },
  { name: "user space trust store, old location", path: join(home, ".ai/trusted_keys/x.toml"), args: ["verify", "out"], limit: 64 * KIB },
  { name: "user space trust store (rye build: revocations of this machine's key)", path: join(home, ".ai/config/keys/trusted/x.toml"), args: ["build"], limit: 64 * KIB },
  { name: "rye.config.json", path: join(root, "rye.config.json"), args: ["build"], limit: 1024 * KIB },
  { name: "hook configuration", path: join(root, ".ai/config/agent/hook_conditions.yaml"), args: ["build"], limit: 1024 * KIB },
  { name: "test file", path: join(root, ".ai/tests/directives/examples/greet.test.yaml"), args: ["test"], limit: 1024 * KIB },
  { name: "output manifest", path: join(root, "out/manifest.json"), args: ["verify", "out"], limit: 64 * 1024 * KIB },
];

/** A hostile entry: how to make it at a path, and the words its refusal uses. */
interface Hostile {
  name: string;
  make: (path: string, place: Place) => void;
  reason: RegExp;
}

const HOSTILE: Hostile[] = [
  { name: "link to /dev/zero", make: (p) => symlinkSync("/dev/zero", p), reason: /a device|leads out of|symbolic link/ },
  { name: "FIFO", make: (p) => execFileSync("mkfifo", [p]), reason: /a FIFO|socket or a device without a reader/ },
  { name: "socket", make: (p) => execFileSync("python3", ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", p]), reason: /a socket/ },
  { name: "folder", make: (p) => mkdirSync(p), reason: /a folder/ },
  // Sparse: over the limit by one byte without writing it.
  { name: "file over the limit", make: (p, place) => { writeFileSync(p, ""); truncateSync(p, place.limit + 1); }, reason: /over the limit of \d+ bytes/ },
  { name: "link out of its space", make: (p) => symlinkSync(OUTSIDE, p), reason: /leads out of|symbolic link/ },
  { name: "dangling link", make: (p) => symlinkSync(join(base, "nothing-here"), p), reason: /link to nothing|symbolic link|does not exist/ },
];

// A folder named like a test file is a folder of tests, by design: it is walked, not read.
const rows = PLACES.flatMap((place) => HOSTILE.filter((h) => !(place.name === "test file" && h.name === "folder")).map((h) => [place.name, h.name, place, h] as const));

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

describe("a hostile entry where a command reads a file: a located refusal, at once", () => {
  test.each(rows)("%s × %s", (_, __, place, hostile) => {
    mkdirSync(dirname(place.path), { recursive: true });
    const kept = join(base, "kept");
    const existed = spawnSync("test", ["-e", place.path]).status === 0;
    if (existed) renameSync(place.path, kept);
    restore = () => {
      rmSync(place.path, { recursive: true, force: true });
      if (existed) renameSync(kept, place.path);
    };
    hostile.make(place.path, place);
    const r = run(...place.args);
    expect(r.status, r.out).not.toBeNull(); // not killed by the timeout
    expect(r.status, r.out).not.toBe(0);
    // Located: the entry is named (by its path or its name), with why it was not read.
    expect(r.out, r.out).toContain(basename(place.path));
    expect(r.out, r.out).toMatch(hostile.reason);
    expect(r.ms).toBeLessThan(25_000);
  });
});
