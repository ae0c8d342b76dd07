// Trust entries' lifecycle fields: exact boundaries, parsing, merging across entries, and entries that
// stay the original's TOML after rye keys edits them.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { describe, expect, test } from "vitest";
import { keyRefusal, parseLimits } from "../../src/sign/key-lifecycle.js";
import { generateKeyPair, signingKeyFrom } from "../../src/sign/keys.js";
import { setEntryFields, withFields } from "../../src/sign/trust-entries.js";
import { createTrustStore, formatTrustedKeyToml, loadTrustStore, parseTrustedKeyToml, writeTrustedKey } from "../../src/sign/trust-store.js";

const FP = "0123456789abcdef";
const at = (iso: string) => new Date(iso);

describe("keyRefusal", () => {
  test("expiry: accepted until the instant before, refused at it; not_before: refused until the instant, accepted at it", () => {
    const expires = parseLimits({ expires: "2026-05-01T00:00:00Z" }, "e.toml");
    expect(keyRefusal(FP, expires, at("2026-04-30T23:59:59.999Z"))).toBeNull();
    expect(keyRefusal(FP, expires, at("2026-05-01T00:00:00Z"))).toBe(`Key ${FP} expired at 2026-05-01T00:00:00Z (trust entry e.toml)`);
    const nb = parseLimits({ not_before: "2026-05-01" }, "n.toml");
    expect(keyRefusal(FP, nb, at("2026-04-30T23:59:59.999Z"))).toBe(`Key ${FP} is not valid before 2026-05-01T00:00:00Z (trust entry n.toml)`);
    expect(keyRefusal(FP, nb, at("2026-05-01T00:00:00Z"))).toBeNull();
  });

  test("a revocation refuses at every time, and comes first whatever else the entries say", () => {
    const limits = [...parseLimits({ expires: "2999-01-01" }, "a.toml"), ...parseLimits({ revoked: true }, "b.toml")];
    for (const when of ["1970-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "2998-12-31T00:00:00Z"]) {
      expect(keyRefusal(FP, limits, at(when))).toBe(`Key ${FP} is revoked by the trust entry b.toml: nothing it signed is accepted`);
    }
    expect(parseLimits({ revoked: false }, "c.toml")).toEqual([]);
  });

  test("a field that is not a time is an error, never no limit", () => {
    for (const raw of [{ revoked: "soon" }, { expires: 5 }, { not_before: "" }, { expires: "2026-13-45" }]) {
      expect(() => parseLimits(raw, "x.toml")).toThrow(/is not a date or time/);
    }
  });
});

describe("trust entries with limits", () => {
  const key = signingKeyFrom(generateKeyPair().privatePem);
  const signer = signingKeyFrom(generateKeyPair().privatePem);

  test("withFields puts top-level keys before [public_key] and replaces them; the original's fields still parse", () => {
    const base = formatTrustedKeyToml(key.publicPem, { owner: "ci" });
    const once = withFields(base, { revoked: "2026-05-01T00:00:00Z" });
    const twice = withFields(once, { revoked: null, expires: "2027-01-01T00:00:00Z", replaced_by: FP });
    for (const text of [once, twice]) {
      const raw = parseToml(text) as Record<string, unknown>;
      expect(raw).toMatchObject({ category: "keys/trusted", fingerprint: key.fingerprint, owner: "ci" });
      expect((raw.public_key as { pem: string }).pem).toContain("BEGIN PUBLIC KEY");
    }
    expect(parseTrustedKeyToml(twice, "t").limits).toEqual([{ kind: "expires", at: "2027-01-01T00:00:00Z", replacedBy: FP, entry: "t" }]);
    expect(twice).not.toContain("revoked");
  });

  test("an edited entry is re-signed and loads with its limits; edited by hand afterwards, it is rejected", () => {
    const space = mkdtempSync(join(tmpdir(), "rye-life-"));
    const path = writeTrustedKey(space, key.publicPem, { signer, timestamp: "2026-01-01T00:00:00Z" });
    setEntryFields(path, { expires: "2026-06-01T00:00:00Z" }, signer, "2026-01-02T00:00:00Z");
    const store = loadTrustStore([space]);
    expect(store.warnings).toEqual([expect.stringContaining("which no space trusts")]);
    expect(store.get(key.fingerprint)?.limits).toEqual([{ kind: "expires", at: "2026-06-01T00:00:00Z", entry: path }]);
    writeFileSync(path, readFileSync(path, "utf8").replace("2026-06-01", "2999-06-01"));
    expect(loadTrustStore([space]).get(key.fingerprint)).toBeUndefined();
  });

  test("limits of every entry for a key apply together, whichever entry is found first", () => {
    const plain = { fingerprint: key.fingerprint, owner: "pinned", publicPem: key.publicPem, source: "--trusted-key" };
    const revoked = { ...plain, source: "user space trust store", limits: parseLimits({ revoked: true }, "u.toml") };
    for (const order of [[plain, revoked], [revoked, plain]]) {
      const store = createTrustStore(order);
      expect(keyRefusal(key.fingerprint, store.get(key.fingerprint)?.limits, new Date())).toMatch(/is revoked by the trust entry u\.toml/);
    }
  });
});
