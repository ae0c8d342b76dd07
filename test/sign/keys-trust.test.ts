import { createHash, createPublicKey } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  fingerprint,
  formatTrustedKeyToml,
  generateKeyPair,
  KeyExistsError,
  KeyPermissionError,
  loadPrivateKey,
  loadSigningKey,
  loadTrustStore,
  signingKeyDir,
  signingKeyFrom,
  signItem,
  trustStoreFromPems,
  userSpace,
  verifyItem,
  writeKeyPair,
  writeTrustedKey,
} from "../../src/sign/index.js";
import { freshKey, tempDir, TEST_KEY } from "./fixtures.js";

const posix = process.platform !== "win32";

describe("keys", () => {
  it("generates PKCS8/SPKI PEMs and fingerprints the normalised public PEM", () => {
    const pair = generateKeyPair();
    expect(pair.privatePem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    expect(pair.publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=]{60}\n-----END PUBLIC KEY-----\n$/);
    const fp = createHash("sha256").update(pair.publicPem).digest("hex").slice(0, 16);
    expect(fingerprint(pair.publicPem)).toBe(fp);
    expect(fingerprint(`  ${pair.publicPem.trim()}\n\n`)).toBe(fp);
    expect(signingKeyFrom(pair.privatePem).fingerprint).toBe(fp);
    expect(TEST_KEY.fingerprint).toBe("f0ff50dacf109dea");
  });

  it("writes the pair with 0600/0644 in a 0700 directory and refuses to overwrite without force", () => {
    const dir = join(tempDir(), "signing");
    const pair = generateKeyPair();
    writeKeyPair(dir, pair);
    if (posix) {
      expect(statSync(join(dir, "private_key.pem")).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, "public_key.pem")).mode & 0o777).toBe(0o644);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(() => writeKeyPair(dir, generateKeyPair())).toThrow(KeyExistsError);
    expect(readFileSync(join(dir, "private_key.pem"), "utf8")).toBe(pair.privatePem);
    const next = generateKeyPair();
    writeKeyPair(dir, next, { force: true });
    expect(loadSigningKey(dir).publicPem).toBe(next.publicPem);
  });

  it.skipIf(!posix)("refuses a private key readable by group or others", () => {
    const dir = join(tempDir(), "signing");
    writeKeyPair(dir, generateKeyPair());
    const path = join(dir, "private_key.pem");
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      chmodSync(path, mode);
      expect(() => loadPrivateKey(path)).toThrow(KeyPermissionError);
      expect(() => loadPrivateKey(path)).toThrow(`chmod 600 ${path}`);
    }
    chmodSync(path, 0o400);
    expect(loadPrivateKey(path).fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it("loads a PKCS8 v2 key (public key appended), as the original's Rust signer writes", () => {
    const seed = Buffer.alloc(32, 7);
    const pub = createPublicKey(signingKeyFrom(new Uint8Array(seed)).privateKey).export({ type: "spki", format: "der" }).subarray(12);
    const der = Buffer.concat([Buffer.from("3051020101300506032b657004220420", "hex"), seed, Buffer.from("812100", "hex"), pub]);
    const pem = `-----BEGIN PRIVATE KEY-----\n${der.toString("base64").match(/.{1,64}/g)!.join("\n")}\n-----END PRIVATE KEY-----\n`;
    expect(signingKeyFrom(pem).fingerprint).toBe(signingKeyFrom(new Uint8Array(seed)).fingerprint);
    const wrong = Buffer.from(der);
    wrong[der.length - 1]! ^= 1;
    expect(() => signingKeyFrom(`-----BEGIN PRIVATE KEY-----\n${wrong.toString("base64")}\n-----END PRIVATE KEY-----\n`)).toThrow("does not match");
  });

  it("resolves the signing key directory and user space from the environment", () => {
    expect(signingKeyDir({ RYE_SIGNING_KEY_DIR: "/k" })).toBe("/k");
    expect(signingKeyDir({ USER_SPACE: "/u" })).toBe(join("/u", ".ai", "config", "keys", "signing"));
    expect(userSpace({})).toBe(userSpace({ USER_SPACE: "" }));
  });
});

function putKey(space: string, dir: "new" | "legacy", name: string, text: string): void {
  const d = dir === "new" ? join(space, ".ai", "config", "keys", "trusted") : join(space, ".ai", "trusted_keys");
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, name), text);
}

describe("trust store", () => {
  it("searches project → user → system, new directory before legacy, first fingerprint wins", () => {
    const [project, user, system] = [tempDir(), tempDir(), tempDir()];
    const a = freshKey();
    const b = freshKey();
    putKey(system, "new", "a.toml", formatTrustedKeyToml(a.publicPem, { owner: "system-owner" }));
    putKey(user, "legacy", "a.toml", formatTrustedKeyToml(a.publicPem, { owner: "user-owner" }));
    putKey(project, "legacy", "b.toml", formatTrustedKeyToml(b.publicPem, { owner: "legacy" }));
    putKey(project, "new", "b.toml", formatTrustedKeyToml(b.publicPem, { owner: "current" }));
    const trust = loadTrustStore([{ root: project, label: "project" }, { root: user, label: "user" }, { root: system, label: "system" }]);
    expect(trust.get(a.fingerprint)).toMatchObject({ owner: "user-owner", source: "user" });
    expect(trust.get(b.fingerprint)).toMatchObject({ owner: "current", source: "project" });
    expect(trust.list()).toHaveLength(2);
    expect(loadTrustStore([tempDir()]).list()).toEqual([]);
  });

  it("an entry with a wrong declared fingerprint or tampered after signing grants nothing and refuses the keys it names; TOML naming no key leaves the store unreadable", () => {
    const space = tempDir();
    const good = freshKey();
    const liar = freshKey();
    putKey(space, "new", "liar.toml", formatTrustedKeyToml(liar.publicPem).replace(liar.fingerprint, good.fingerprint));
    putKey(space, "new", "tampered.toml", signItem(formatTrustedKeyToml(good.publicPem), "config", good, "2026-01-01T00:00:00Z", "k.toml").replace('owner = "local"', 'owner = "mallory"'));
    const trust = loadTrustStore([space]);
    for (const k of [good, liar]) {
      expect(trust.get(k.fingerprint)).toBeUndefined();
      expect(trust.list().find((r) => r.fingerprint === k.fingerprint)?.limits?.some((l) => l.kind === "refused")).toBe(true);
    }
    expect(trust.unreadable).toEqual([]);
    expect(trust.warnings.join("\n")).toMatch(/declares fingerprint .* but its public key has fingerprint/);
    expect(trust.warnings.join("\n")).toMatch(/content changed after signing \(expected [0-9a-f]{16}…, got [0-9a-f]{16}…\)/);
    putKey(space, "new", "broken.toml", "pem = ");
    const broken = loadTrustStore([space]);
    expect(broken.unreadable.map((u) => u.path)).toEqual([join(space, ".ai", "config", "keys", "trusted", "broken.toml")]);
    expect(broken.unreadable[0]!.reason).toMatch(/names no key/);
  });

  it("checks self- and cross-signed key files; an unknown signer is accepted with a warning", () => {
    const space = tempDir();
    const [self, anchor, crossed, orphan, forged] = [freshKey(), freshKey(), freshKey(), freshKey(), freshKey()];
    const ts = "2026-01-01T00:00:00Z";
    const signed = (k: typeof self, by: typeof self) => signItem(formatTrustedKeyToml(k.publicPem), "config", by, ts, "k.toml");
    putKey(space, "new", "1.toml", signed(self, self));
    putKey(space, "new", "2.toml", signed(anchor, anchor));
    putKey(space, "new", "3.toml", signed(crossed, anchor));
    putKey(space, "new", "4.toml", signed(orphan, freshKey()));
    const bad = signed(forged, forged).replace(/:[A-Za-z0-9_-]{86}:/, `:${"A".repeat(86)}:`);
    putKey(space, "new", "5.toml", bad);
    const trust = loadTrustStore([space]);
    const granted = [self, anchor, crossed, orphan, forged].filter((k) => trust.get(k.fingerprint) !== undefined);
    expect(granted.map((k) => k.fingerprint).sort()).toEqual([self, anchor, crossed, orphan].map((k) => k.fingerprint).sort());
    expect(trust.warnings.join("\n")).toContain(`Trusted key ${orphan.fingerprint} (`);
    expect(trust.warnings.join("\n")).toMatch(/5\.toml refuses key [0-9a-f]{16}: it does not authenticate: Ed25519 signature by [0-9a-f]{16} invalid/);
  });

  it("writes a trusted-key TOML that reads back and, when signed, verifies as a config item", () => {
    const space = tempDir();
    const key = freshKey();
    const path = writeTrustedKey(space, key.publicPem, { owner: 'o"wner', signer: key, timestamp: "2026-01-01T00:00:00Z" });
    expect(path).toBe(join(space, ".ai", "config", "keys", "trusted", `${key.fingerprint}.toml`));
    const text = readFileSync(path, "utf8");
    expect(text.startsWith("# rye:signed:2026-01-01T00:00:00Z:")).toBe(true);
    const trust = loadTrustStore([space]);
    expect(trust.get(key.fingerprint)).toMatchObject({ owner: 'o"wner', publicPem: key.publicPem });
    expect(trust.warnings).toEqual([]);
    expect(verifyItem(text, "config", trust, { path }).outcome).toBe("verified");
  });

  it("builds a store from a fingerprint → PEM map, skipping mismatched entries", () => {
    const key = freshKey();
    const trust = trustStoreFromPems({ [key.fingerprint]: key.publicPem, "0000000000000000": key.publicPem });
    expect(trust.list().map((k) => k.fingerprint)).toEqual([key.fingerprint]);
    expect(trust.warnings).toHaveLength(1);
  });
});
