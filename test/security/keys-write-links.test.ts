// `rye keys trust | revoke | expire | rotate --space .` in a checkout never writes through a link the
// checkout carries: a link at any folder of `.ai/config/keys/trusted/<fp>.toml` (or of the older
// `.ai/trusted_keys/`), or at the entry itself, is a refusal naming it, exit 1, and the folder or
// file it points at (the user's own trust store, any file) is left byte for byte as it was.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { run as keysCommand } from "../../src/cli/commands/keys.js";
import { generateKeyPair, signingKeyFrom, writeKeyPair } from "../../src/sign/keys.js";
import { formatTrustedKeyToml } from "../../src/sign/trust-store.js";
import { outsideOf } from "../helpers/outside.js";
import { cleanEnv, tempDir } from "./helpers.js";

const PAIR = generateKeyPair();
const KEY = signingKeyFrom(PAIR.privatePem);
const FP = KEY.fingerprint;
const TRUSTED = ".ai/config/keys/trusted";

interface Case {
  /** A world: the checkout `proj`, the victim's store `victim` (a user space), a victim file `bashrc`. */
  name: string;
  link: string;
  to: (w: World) => string;
  /** Commands this placement is on the write path of (default: all). */
  only?: string[];
}

interface World {
  proj: string;
  victim: string;
  bashrc: string;
  keyDir: string;
}

const CASES: Case[] = [
  { name: ".ai → the victim's .ai", link: ".ai", to: (w) => join(w.victim, ".ai") },
  { name: ".ai/config → the victim's config", link: ".ai/config", to: (w) => join(w.victim, ".ai/config") },
  { name: ".ai/config/keys → the victim's keys folder", link: ".ai/config/keys", to: (w) => join(w.victim, ".ai/config/keys") },
  { name: "keys/trusted → the victim's trusted folder", link: TRUSTED, to: (w) => join(w.victim, TRUSTED) },
  { name: "the entry → a file outside", link: `${TRUSTED}/${FP}.toml`, to: (w) => w.bashrc },
  { name: "the entry → the victim's entry of the key", link: `${TRUSTED}/${FP}.toml`, to: (w) => join(w.victim, TRUSTED, `${FP}.toml`) },
  { name: "the entry → a file that does not exist yet", link: `${TRUSTED}/${FP}.toml`, to: (w) => join(w.victim, "planted") },
  { name: ".ai → a file outside", link: ".ai", to: (w) => w.bashrc },
  { name: ".ai/config/keys → a file outside", link: ".ai/config/keys", to: (w) => w.bashrc },
  { name: "keys/trusted → a file outside", link: TRUSTED, to: (w) => w.bashrc },
  // A link the reader follows (it stays inside the space), so the entry is found there and rewritten.
  { name: "the older .ai/trusted_keys → a folder inside the checkout", link: ".ai/trusted_keys", to: (w) => join(w.proj, "elsewhere"), only: ["revoke fp", "expire fp"] },
];

const COMMANDS: Record<string, (w: World) => string[]> = {
  "trust pem": (w) => ["trust", "--space", ".", join(w.keyDir, "public_key.pem")],
  "trust own": () => ["trust", "--space", "."],
  "revoke pem": (w) => ["revoke", "--space", ".", join(w.keyDir, "public_key.pem")],
  "revoke fp": () => ["revoke", "--space", ".", FP],
  "expire pem": (w) => ["expire", "--space", ".", join(w.keyDir, "public_key.pem"), "2999-01-01"],
  "expire fp": () => ["expire", "--space", ".", FP, "2999-01-01"],
  rotate: () => ["rotate", "--space", "."],
};

/** A checkout, a victim user space whose store already trusts the key, a victim file, and this machine's signing key. */
function world(): World {
  const base = tempDir("rye-keys-links-");
  const proj = join(base, "proj");
  mkdirSync(proj, { recursive: true });
  const outside = outsideOf(base);
  const victim = join(outside, "home");
  mkdirSync(join(victim, TRUSTED), { recursive: true });
  writeFileSync(join(victim, TRUSTED, `${FP}.toml`), formatTrustedKeyToml(KEY.publicPem, { owner: "victim" }));
  const bashrc = join(outside, "victim-bashrc");
  writeFileSync(bashrc, "echo original bashrc\n");
  const keyDir = join(outside, "signing");
  writeKeyPair(keyDir, PAIR);
  mkdirSync(join(proj, "elsewhere"));
  writeFileSync(join(proj, "elsewhere", `${FP}.toml`), formatTrustedKeyToml(KEY.publicPem, { owner: "elsewhere" }));
  return { proj, victim, bashrc, keyDir };
}

/** Every file and link under `dir` (and `dir` itself when a file), with its bytes: what must not change. */
function snapshot(path: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string) => {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
    else out[p] = st.isSymbolicLink() ? "link" : readFileSync(p, "utf8");
  };
  walk(path);
  return out;
}

async function keys(w: World, args: string[]) {
  const out = { stdout: "", stderr: "" };
  const env = cleanEnv({ USER_SPACE: w.victim, RYE_SIGNING_KEY_DIR: w.keyDir });
  const io = { cwd: w.proj, env, stdout: { write: (s: string) => ((out.stdout += s), true) }, stderr: { write: (s: string) => ((out.stderr += s), true) } };
  const status = await keysCommand(args, io as never);
  return { status, ...out };
}

const ROWS = CASES.flatMap((c) => Object.keys(COMMANDS).filter((cmd) => !c.only || c.only.includes(cmd)).map((cmd) => ({ ...c, cmd })));

describe("rye keys never writes through a link on the entry's path", () => {
  test.each(ROWS)("$cmd with $name: refused, exit 1, the victim unchanged", async (row) => {
    const w = world();
    const parent = join(w.proj, row.link, "..");
    mkdirSync(parent, { recursive: true });
    symlinkSync(row.to(w), join(w.proj, row.link));
    const before = { victim: snapshot(w.victim), elsewhere: snapshot(join(w.proj, "elsewhere")), bashrc: readFileSync(w.bashrc, "utf8"), key: readFileSync(join(w.keyDir, "private_key.pem"), "utf8") };
    const r = await keys(w, COMMANDS[row.cmd]!(w));
    expect(r.status, r.stdout).toBe(1);
    expect(r.stderr).toContain(`${join(w.proj, row.link)} is a symbolic link to ${row.to(w)}`);
    expect(r.stderr).toContain("nothing was written");
    expect(snapshot(w.victim)).toEqual(before.victim);
    expect(snapshot(join(w.proj, "elsewhere"))).toEqual(before.elsewhere);
    expect(readFileSync(w.bashrc, "utf8")).toBe(before.bashrc);
    expect(existsSync(join(w.victim, "planted"))).toBe(false);
    // Refused before anything else changed: rotate has not retired the signing key.
    expect(readFileSync(join(w.keyDir, "private_key.pem"), "utf8")).toBe(before.key);
  });

  test.each(Object.keys(COMMANDS))("%s in a checkout without links writes its entry in the checkout (exit 0)", async (cmd) => {
    const w = world();
    const before = snapshot(w.victim);
    const r = await keys(w, COMMANDS[cmd]!(w));
    expect(r.status, r.stderr).toBe(0);
    expect(lstatSync(join(w.proj, TRUSTED)).isDirectory()).toBe(true);
    expect(readdirSync(join(w.proj, TRUSTED)).filter((n) => n.endsWith(".toml")).length).toBeGreaterThan(0);
    expect(readdirSync(join(w.proj, TRUSTED)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    expect(snapshot(w.victim)).toEqual(before);
  });
});
