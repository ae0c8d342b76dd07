// rye keys list | revoke | expire | rotate, as processes: each refusal is exit 1 from rye verify with a
// message naming the key and the trust entry that refused it; the states rye keys list reports.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cleanEnv, REPO, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

function project() {
  const base = tempDir("rye-keys-cli-");
  const root = join(base, "proj");
  mkdirSync(join(root, ".ai", "directives", "examples"), { recursive: true });
  cpSync(join(REPO, ".ai", "directives", "examples", "greet.md"), join(root, ".ai", "directives", "examples", "greet.md"));
  const home = join(outsideOf(base), "home");
  const env = cleanEnv({ USER_SPACE: home });
  const built = rye(root, env, "build");
  expect(built.status, built.stderr).toBe(0);
  const pem = join(home, ".ai", "config", "keys", "signing", "public_key.pem");
  const fp = rye(root, env, "keys", "show").stdout.split("\n")[0]!;
  return { base, root, home, env, pem, fp };
}

const entryOf = (home: string, fp: string) => join(home, ".ai", "config", "keys", "trusted", `${fp}.toml`);

describe("rye keys revoke / expire", () => {
  test("a revoked key is refused, whatever anchor pins it, naming the entry; rye keys list says so", () => {
    const p = project();
    expect(rye(p.root, p.env, "verify", "out").status).toBe(0);
    const revoked = rye(p.root, p.env, "keys", "revoke", p.fp);
    expect(revoked.status, revoked.stderr).toBe(0);
    const entry = entryOf(p.home, p.fp);
    expect(readFileSync(entry, "utf8")).toMatch(/^revoked = "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$/m);
    for (const extra of [[], ["--trusted-key", p.pem]]) {
      const r = rye(p.root, p.env, "verify", ...extra, "out");
      expect(r.status).toBe(1);
      expect(r.stdout).toContain(`Refused key ${p.fp} for out/manifest.json`);
      expect(r.stdout).toContain(`Key ${p.fp} is revoked`);
      expect(r.stdout).toContain(`by the trust entry ${entry}`);
    }
    const list = rye(p.root, p.env, "keys", "list");
    expect(list.stdout).toContain(`${p.fp}  local  Key ${p.fp} is revoked`);
    // The entry stays the original's TOML, re-signed with this machine's key.
    const text = readFileSync(entry, "utf8");
    expect(text).toMatch(/^# rye:signed:/);
    expect(text).toContain(`fingerprint = "${p.fp}"`);
    expect(text).toContain("[public_key]");
  });

  test("an expired key is refused from its expiry on (the time of the check), and accepted before it", () => {
    const p = project();
    expect(rye(p.root, p.env, "keys", "expire", p.pem, "2999-01-01").status).toBe(0);
    expect(rye(p.root, p.env, "verify", "out").status).toBe(0);
    expect(rye(p.root, p.env, "keys", "list").stdout).toContain("trusted until 2999-01-01T00:00:00Z");
    expect(rye(p.root, p.env, "keys", "expire", p.fp, "2020-01-01").status).toBe(0);
    const r = rye(p.root, p.env, "verify", "out");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`Key ${p.fp} expired at 2020-01-01T00:00:00Z (trust entry ${entryOf(p.home, p.fp)})`);
    expect(rye(p.root, p.env, "keys", "expire", p.fp, "not-a-date").status).toBe(2);
    expect(rye(p.root, p.env, "keys", "revoke", "0123456789abcdef").status).toBe(1);
  });
});

describe("rye keys rotate", () => {
  test("supersedes the old key from a date: its output is refused after it, the rebuilt output verifies", () => {
    const p = project();
    const rotated = rye(p.root, p.env, "keys", "rotate", "--from", "2020-01-01");
    expect(rotated.status, rotated.stderr).toBe(0);
    const next = rye(p.root, p.env, "keys", "show").stdout.split("\n")[0]!;
    expect(next).not.toBe(p.fp);
    expect(existsSync(join(p.home, ".ai", "config", "keys", "signing", `private_key.${p.fp}.retired.pem`))).toBe(true);
    const old = rye(p.root, p.env, "verify", "out");
    expect(old.status).toBe(1);
    expect(old.stdout).toContain(`Key ${p.fp} was superseded by ${next} at 2020-01-01T00:00:00Z (trust entry ${entryOf(p.home, p.fp)})`);
    expect(rye(p.root, p.env, "build").status).toBe(0);
    const r = rye(p.root, p.env, "verify", "out");
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain(`signed by ${next}`);
  });

  test("with a date still to come, the old key's output verifies until then", () => {
    const p = project();
    expect(rye(p.root, p.env, "keys", "rotate", "--from", "2999-01-01").status).toBe(0);
    expect(rye(p.root, p.env, "verify", "out").status).toBe(0);
  });
});

describe("an untrusted key", () => {
  test("is told how to trust it: rye keys trust FILE, --trusted-key FILE or RYE_TRUSTED_KEYS", () => {
    const p = project();
    const other = cleanEnv({ USER_SPACE: join(outsideOf(p.base), "someone-else") });
    const r = rye(p.root, other, "verify", "out");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`Untrusted key ${p.fp} for out/manifest.json`);
    expect(r.stdout).toContain("rye keys trust FILE");
    expect(r.stdout).toContain("rye verify --trusted-key FILE");
    expect(r.stdout).toContain("RYE_TRUSTED_KEYS=FILE");
    // Following the first: trusting the public key file in that user space makes it verify.
    expect(rye(p.root, other, "keys", "trust", p.pem).status).toBe(0);
    expect(rye(p.root, other, "verify", "out").status).toBe(0);
  });

  test("a trust entry whose lifecycle field is not a date is skipped with a warning, never read as no limit", () => {
    const p = project();
    const other = cleanEnv({ USER_SPACE: join(outsideOf(p.base), "someone-else") });
    expect(rye(p.root, other, "keys", "trust", p.pem).status).toBe(0);
    const entry = entryOf(join(outsideOf(p.base), "someone-else"), p.fp);
    writeFileSync(entry, readFileSync(entry, "utf8").replace(/^(# rye:signed:.*\n)?/, "").replace("[public_key]", 'revoked = "soon"\n\n[public_key]'));
    const r = rye(p.root, other, "verify", "out");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("revoked is not a date or time");
  });
});
