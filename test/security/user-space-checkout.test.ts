// A user space is a trust anchor only outside every checkout around the check. The hostile trees
// below are what a container or CI job whose HOME is the checkout root unpacks: the attacker's key
// in HOME's .ai/, and markers inside the tree (.git as a folder, a gitdir file, a real repository,
// one between home and the project) that used to make the home look "outside". Each row: rye
// verify refuses the attacker's output naming the user space and the advice, the loader refuses
// to import it, and the payload's marker file does not exist. A control row puts the same store in
// a separate tree and shows the output verifies there: the refusals come from where the store lies.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { loadSigningKey } from "../../src/sign/keys.js";
import { REPO, inject, makeProject, markerRan, node, plantTrustedKey, resignOutput, rye, tempDir, writeApp } from "./helpers.js";

interface Row {
  /** Where the project lies under the checkout root W. */
  at: string;
  /** Markers the checkout carries, relative to W. */
  plant: (w: string, project: string) => void;
  /** USER_SPACE named as W (else HOME = W, unnamed). */
  named?: boolean;
  /** The attacker's key is W's signing key instead of a trust entry. */
  asSigningKey?: boolean;
  /** The working directory, relative to W (default: the project). */
  cwd?: string;
  /** The project lies in a tree of its own, outside W: only the working directory is in W. */
  projectOutside?: boolean;
}

const gitDir = (dir: string) => mkdirSync(join(dir, ".git"), { recursive: true });
const gitFile = (dir: string) => writeFileSync(join(dir, ".git"), "gitdir: ../elsewhere\n");
const gitInit = (dir: string) => expect(spawnSync("git", ["init", "-q", dir]).status).toBe(0);

const ROWS: Record<string, Row> = {
  "no marker at all": { at: "proj", plant: () => {} },
  "an empty .git folder in the project": { at: "proj", plant: (_w, p) => gitDir(p) },
  "a .git file (gitdir:) in the project": { at: "proj", plant: (_w, p) => gitFile(p) },
  "a real git repository at the project": { at: "proj", plant: (_w, p) => gitInit(p) },
  "a .git between home and the project": { at: "mid/proj", plant: (w) => gitDir(join(w, "mid")) },
  "a .git in the project, USER_SPACE named as the root": { at: "proj", plant: (_w, p) => gitDir(p), named: true },
  "a .git in the project, the key as the root's signing key": { at: "proj", plant: (_w, p) => gitDir(p), asSigningKey: true },
  "a real repository at the root itself": { at: "proj", plant: (w) => gitInit(w) },
  "HOME is the project itself, a real repository": { at: ".", plant: (w) => gitInit(w) },
  "output elsewhere, checked from a repository inside the root": { at: "proj", plant: (w) => gitInit(join(w, "tools")), cwd: "tools", projectOutside: true },
};

let base: string;
let built: string;
let pem: string;
let fingerprint: string;
let marker: string;

beforeAll(() => {
  base = tempDir("rye-us-checkout-");
  marker = join(base, "PWNED");
  built = makeProject(join(base, "built"));
  const attackerHome = join(tempDir("rye-us-attacker-"), "home");
  expect(rye(built, { PATH: process.env.PATH ?? "", USER_SPACE: attackerHome }, "build").status).toBe(0);
  const key = loadSigningKey(join(attackerHome, ".ai", "config", "keys", "signing"));
  pem = key.publicPem;
  fingerprint = key.fingerprint;
  inject(join(built, "out", "directives", "examples", "greet.js"), marker);
  resignOutput(join(built, "out"), key);
  writeApp(built);
}, 120_000);

/** The checkout root W with the project copied in, the attacker's key in W's .ai/, and the row's markers. */
function checkout(name: string, row: Row): { w: string; project: string; env: NodeJS.ProcessEnv; cwd: string } {
  const w = join(tempDir("rye-us-w-"), "w");
  const project = row.projectOutside ? join(tempDir("rye-us-p-"), row.at) : join(w, row.at);
  cpSync(built, project, { recursive: true });
  if (row.asSigningKey) {
    mkdirSync(join(w, ".ai", "config", "keys", "signing"), { recursive: true });
    writeFileSync(join(w, ".ai", "config", "keys", "signing", "public_key.pem"), pem);
  } else plantTrustedKey(w, pem);
  row.plant(w, project);
  const cwd = row.cwd === undefined ? project : join(w, row.cwd);
  mkdirSync(cwd, { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: w, ...(row.named ? { USER_SPACE: w } : {}) };
  expect(name).not.toBe("");
  return { w, project, env, cwd };
}

describe("a user space inside a checkout around the check is no trust anchor", () => {
  test.each(Object.entries(ROWS))("%s: verify and the loader refuse, no marker", (name, row) => {
    const c = checkout(name, row);
    const verified = rye(c.cwd, c.env, "verify", join(c.project, "out"));
    expect(verified.status, verified.stdout).toBe(1);
    expect(verified.stdout).toContain(`Untrusted key ${fingerprint}`);
    expect(verified.stderr).toContain(`The user space ${c.w} is not used to verify`);
    expect(verified.stderr).toContain("set USER_SPACE (or --user-space) to a folder outside every checkout");
    // The register entry by file URL: the working directory need not have rye-build installed.
    const app = node(c.cwd, c.env, "--import", pathToFileURL(join(REPO, "dist", "register", "index.js")).href, join(c.project, "app.mjs"));
    expect(app.status).not.toBe(0);
    expect(app.stderr).toMatch(/IntegrityError/);
    expect(app.stderr).toContain(`Untrusted key ${fingerprint}`);
    expect(markerRan(marker)).toBe(false);
  }, 60_000);

  test("control: the same store in a separate tree vouches (the refusals come from where it lies)", () => {
    const space = join(tempDir("rye-us-outside-"), "space");
    plantTrustedKey(space, pem);
    const project = join(tempDir("rye-us-p-"), "proj");
    cpSync(built, project, { recursive: true });
    gitDir(project);
    const verified = rye(project, { PATH: process.env.PATH ?? "", USER_SPACE: space }, "verify", "out");
    expect(verified.stdout).not.toContain("Untrusted key");
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    rmSync(space, { recursive: true, force: true });
    expect(markerRan(marker)).toBe(false);
  }, 60_000);
});
