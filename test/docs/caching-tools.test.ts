// docs/caching.md's Turborepo task and Nx target, run by the real tools on two checkouts in different
// folders: Turborepo restores the first checkout's output into the second from a shared cache, Nx
// computes the same task hash in both (what a remote cache is keyed on), and the restored output
// verifies on a third "machine" only against the pinned key that signed it.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { outputBytes } from "../helpers/output-bytes.js";
import { blocksOf } from "./code-blocks.js";
import { outsideOf } from "../helpers/outside.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const blocks = blocksOf(join(root, "docs", "caching.md"), "caching.md").filter((b) => b.attrs.cache);
const turboJson = blocks.find((b) => b.attrs.cache === "turbo")!.text;
const nxProject = JSON.parse(blocks.find((b) => b.attrs.cache === "nx")!.text) as Record<string, unknown>;

const work = mkdtempSync(join(tmpdir(), "rye-cache-tools-"));
/** The builder's key, epoch and user space, the same for both checkouts as on two runners of one CI. */
const builder = { RYE_SIGNING_KEY_DIR: join(work, "builder-key"), SOURCE_DATE_EPOCH: "1767225600", USER_SPACE: join(outsideOf(work), "builder-user") };
const quiet = { TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1", DO_NOT_TRACK: "1", NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", NO_COLOR: "1", FORCE_COLOR: "0" };

/** A checkout of the example project with `rye` installed as a dependency would put it on PATH. */
function checkout(name: string, files: Record<string, string>): string {
  const dir = join(work, name);
  cpSync(join(root, ".ai"), join(dir, ".ai"), { recursive: true });
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(join(root, "bin", "rye.js"), join(dir, "node_modules", ".bin", "rye"));
  // The tools find themselves in the checkout's node_modules, as after `npm install`.
  for (const pkg of ["turbo", "nx"]) symlinkSync(join(root, "node_modules", pkg), join(dir, "node_modules", pkg));
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text);
  execFileSync("git", ["init", "-q", "."], { cwd: dir });
  return dir;
}

/** `rye <args>` as the checkout's installed binary runs it. */
const rye = (args: string[], cwd: string, extra: Record<string, string> = {}) => run(process.execPath, [join(root, "bin", "rye.js"), ...args], cwd, extra);

/** One command in `cwd` with the builder's environment, or another machine's (`extra`). */
function run(cmd: string, args: string[], cwd: string, extra: Record<string, string> = {}) {
  const env = { ...process.env, ...quiet, ...builder, ...extra };
  mkdirSync(env.USER_SPACE, { recursive: true });
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}


const lock = (name: string) => `${JSON.stringify({ name, lockfileVersion: 3, requires: true, packages: { "": { name } } }, null, 2)}\n`;
const npmVersion = execFileSync("npm", ["--version"], { encoding: "utf8" }).trim();

describe("Turborepo with the documented task", () => {
  const cache = join(work, "turbo-cache");
  const files = (name: string) => ({
    "turbo.json": turboJson,
    "package.json": `${JSON.stringify({ name, private: true, packageManager: `npm@${npmVersion}`, scripts: { "rye:build": "rye build" } }, null, 2)}\n`,
    "package-lock.json": lock(name),
  });
  let first: string;
  let second: string;
  let secondRun: { code: number | null; out: string };
  beforeAll(() => {
    first = checkout("turbo-a", files("app"));
    second = checkout("turbo-b", files("app"));
    const a = run(bin("turbo"), ["run", "rye:build", `--cache-dir=${cache}`], first);
    expect(a.code, a.out).toBe(0);
    expect(a.out).toContain("cache miss");
    secondRun = run(bin("turbo"), ["run", "rye:build", `--cache-dir=${cache}`], second);
  }, 240_000);

  test("a second checkout in another folder is a cache hit and gets the same bytes", () => {
    expect(secondRun.code, secondRun.out).toBe(0);
    expect(secondRun.out).toMatch(/cache hit|FULL TURBO/);
    expect(secondRun.out).not.toContain("cache miss");
    expect(outputBytes(second)).toBe(outputBytes(first));
  });

  test("the restored output is up to date for rye build --check there", () => {
    const check = rye(["build", "--check"], second);
    expect(check.code, check.out).toBe(0);
  });

  test("another machine verifies it against the pinned builder key, and refuses it without the pin", () => {
    // Its own user space and key: nothing of the builder's but the public key it pins.
    const elsewhere = { USER_SPACE: join(work, "other-machine"), RYE_SIGNING_KEY_DIR: join(work, "other-machine-key") };
    const pinned = rye(["verify", "out/", "--trusted-key", join(builder.RYE_SIGNING_KEY_DIR, "public_key.pem")], second, elsewhere);
    expect(pinned.code, pinned.out).toBe(0);
    expect(pinned.out).toMatch(/files verified/);
    const unpinned = rye(["verify", "out/"], second, elsewhere);
    expect(unpinned.code).not.toBe(0);
    expect(unpinned.out).toMatch(/trust|not trusted|untrusted/i);
  });
});

describe("Nx with the documented target", () => {
  const files = (name: string) => ({
    "nx.json": "{}\n",
    "project.json": `${JSON.stringify({ name, ...nxProject }, null, 2)}\n`,
    "package.json": `${JSON.stringify({ name, private: true }, null, 2)}\n`,
    "package-lock.json": lock(name),
  });
  /** The task hashes Nx stored in a checkout's local cache. */
  const hashes = (dir: string) => readdirSync(join(dir, ".nx", "cache")).filter((f) => /^\d+$/.test(f));
  let first: string;
  let second: string;
  beforeAll(() => {
    first = checkout("nx-a", files("app"));
    second = checkout("nx-b", files("app"));
    for (const dir of [first, second]) {
      const r = run(bin("nx"), ["run", "app:rye-build"], dir);
      expect(r.code, r.out).toBe(0);
    }
  }, 240_000);

  test("two checkouts in different folders compute the same task hash and build the same bytes", () => {
    expect(hashes(first)).toHaveLength(1);
    expect(hashes(second)).toEqual(hashes(first));
    expect(outputBytes(second)).toBe(outputBytes(first));
  });

  test("output restored from the cache verifies against the pinned key", () => {
    rmSync(join(second, "out"), { recursive: true });
    const again = run(bin("nx"), ["run", "app:rye-build"], second);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toMatch(/from the cache|existing outputs match the cache/);
    expect(outputBytes(second)).toBe(outputBytes(first));
    const verify = rye(["verify", "out/", "--trusted-key", join(builder.RYE_SIGNING_KEY_DIR, "public_key.pem")], second, { USER_SPACE: join(work, "nx-other"), RYE_SIGNING_KEY_DIR: join(work, "nx-other-key") });
    expect(verify.code, verify.out).toBe(0);
  });
});
