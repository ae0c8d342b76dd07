// Every field verifyItem returns, for every outcome, with and without dev mode and allowUnsigned
// (src/sign/verify-item.ts); messages are the original verify_item's.
import { describe, expect, it } from "vitest";
import { createTrustStore, inferItemId, signItem, trustStoreFromPems, verifyItem, type ItemKind } from "../../src/sign/index.js";
import { judge, TRUST_HOW } from "../../src/sign/verify-item.js";
import { freshKey, TEST_KEY } from "../sign/fixtures.js";

const TS = "2026-01-01T00:00:00Z";
const PATH = "p/.ai/tools/demo/run.py";
const TEXT = "#!/usr/bin/env python3\n__version__ = '1.0.0'\nprint('hi')\n";
const trusted = trustStoreFromPems({ [TEST_KEY.fingerprint]: TEST_KEY.publicPem }, "tester", "project");
const signed = signItem(TEXT, "tool", TEST_KEY, TS, PATH);

const NOTHING_CHECKED = { signed: false, hashMatches: null, trusted: null, signatureValid: null, signature: null, expectedHash: null, actualHash: null, owner: null };

describe("verifyItem: unsigned", () => {
  const message = `Unsigned item: ${PATH}\n  Kind: tool\n  Expected: rye:signed: header\n  Fix: rye sign tool:demo/run`;

  it("fails with nothing else checked", () => {
    expect(verifyItem(TEXT, "tool", trusted, { path: PATH })).toEqual({ ok: false, outcome: "unsigned", itemId: "demo/run", ...NOTHING_CHECKED, result: null, message });
  });

  it("allowUnsigned accepts it; dev mode lets it through as unverified", () => {
    expect(verifyItem(TEXT, "tool", trusted, { path: PATH, allowUnsigned: true })).toEqual({ ok: true, outcome: "unsigned", itemId: "demo/run", ...NOTHING_CHECKED, result: "unsigned", message: "" });
    expect(verifyItem(TEXT, "tool", trusted, { path: PATH, devMode: true })).toEqual({ ok: true, outcome: "unsigned", itemId: "demo/run", ...NOTHING_CHECKED, result: "unverified", message });
    expect(verifyItem(TEXT, "tool", trusted, { path: PATH, devMode: false })).toMatchObject({ ok: false, result: null });
  });

  it("without a path: the kind in angle brackets names it, and the kind's default comment style applies", () => {
    expect(verifyItem("x\n", "directive", trusted)).toEqual({
      ok: false, outcome: "unsigned", itemId: "<directive>", ...NOTHING_CHECKED, result: null,
      message: "Unsigned item: <directive>\n  Kind: directive\n  Expected: rye:signed: header\n  Fix: rye sign directive:<directive>",
    });
    const directive = signItem('# D\n\n```xml\n<directive name="d" version="1.0.0">\n  <metadata/>\n</directive>\n```\n\nbody\n', "directive", TEST_KEY, TS, "d.md");
    expect(verifyItem(directive, "directive", trusted).outcome).toBe("verified");
    // A tool without a file name is read in the tool default style (`#` lines), not refused for its extension.
    expect(verifyItem(signed, "tool", trusted)).toMatchObject({ ok: true, outcome: "verified", itemId: "<tool>" });
  });
});

describe("verifyItem: signed", () => {
  it("verified: every field", () => {
    const r = verifyItem(signed, "tool", trusted, { path: PATH });
    expect(r).toEqual({
      ok: true, outcome: "verified", itemId: "demo/run", signed: true, hashMatches: true, trusted: true, signatureValid: true,
      signature: r.signature, expectedHash: r.signature!.hash, actualHash: r.signature!.hash, owner: "tester", result: r.signature!.hash, message: "",
    });
    expect(r.signature).toMatchObject({ timestamp: TS, fingerprint: TEST_KEY.fingerprint });
    expect(r.signature!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("an edited item: the hash check fails first; dev mode makes it usable as unverified", () => {
    const edited = signed.replace("print('hi')", "print('x')");
    const r = verifyItem(edited, "tool", trusted, { path: PATH });
    expect(r).toMatchObject({ ok: false, outcome: "hash_mismatch", signed: true, hashMatches: false, trusted: true, signatureValid: true, owner: "tester", result: null });
    expect(r.expectedHash).not.toBe(r.actualHash);
    expect(r.message).toBe(
      `Content modified since signing: ${PATH}\n  Expected hash: ${r.expectedHash!.slice(0, 16)}…\n  Actual hash: ${r.actualHash!.slice(0, 16)}…\n` +
        "  Fix: Re-sign after editing:\n    rye sign tool:demo/run",
    );
    expect(verifyItem(edited, "tool", trusted, { path: PATH, devMode: true })).toMatchObject({ ok: true, outcome: "hash_mismatch", result: "unverified", message: r.message });
  });

  it("an untrusted key: no signature check, no owner; dev mode makes it usable", () => {
    const other = freshKey();
    const item = signItem(TEXT, "tool", other, TS, PATH);
    const r = verifyItem(item, "tool", trusted, { path: PATH });
    expect(r).toMatchObject({ ok: false, outcome: "untrusted", hashMatches: true, trusted: false, signatureValid: null, owner: null, result: null });
    expect(verifyItem(item, "tool", trusted, { path: PATH, devMode: true })).toMatchObject({ ok: true, outcome: "untrusted", result: "unverified" });
    const third = freshKey();
    const two = createTrustStore([...trusted.list(), ...trustStoreFromPems({ [third.fingerprint]: third.publicPem }, "z").list()]);
    expect(verifyItem(item, "tool", two, { path: PATH }).message).toContain(`Trusted keys: ${TEST_KEY.fingerprint}, ${third.fingerprint}\n`);
  });

  it("a bad signature names the owner, or 'unknown' without one", () => {
    // The line claims another trusted key, whose owner is empty: the signature cannot verify.
    const other = freshKey();
    const store = createTrustStore([...trusted.list(), ...trustStoreFromPems({ [other.fingerprint]: other.publicPem }, "").list()]);
    const relabelled = signed.replace(`:${TEST_KEY.fingerprint}\n`, `:${other.fingerprint}\n`);
    const r = verifyItem(relabelled, "tool", store, { path: PATH });
    expect(r).toMatchObject({ ok: false, outcome: "bad_signature", hashMatches: true, trusted: true, signatureValid: false, owner: "", result: null });
    expect(r.message).toBe(`Ed25519 signature verification failed: ${PATH}\n  Signed by: ${other.fingerprint} (unknown)\n  This may indicate the file was tampered with after signing`);
    expect(verifyItem(relabelled, "tool", store, { path: PATH, devMode: true })).toMatchObject({ ok: true, outcome: "bad_signature", result: "unverified" });
  });

  it("an item that cannot be read is an error, even in dev mode", () => {
    const r = verifyItem(signed, "tool", trusted, { path: "x.rb", devMode: true });
    expect(r).toMatchObject({ ok: false, outcome: "error", result: null, ...NOTHING_CHECKED });
    expect(r.message).not.toBe("");
  });
});

describe("judge", () => {
  it("adds the note after the label and uses the given fixes", () => {
    const base = verifyItem(signed.replace("print('hi')", "print('x')"), "tool", trusted, { path: PATH });
    const r = judge(base, "LABEL", trusted, { modified: "MOD", untrusted: "UNT" }, " (NOTE)");
    expect(r.message).toMatch(/^Content modified since signing: LABEL \(NOTE\)\n[^]*\n {2}Fix: MOD$/);
    const other = verifyItem(signItem(TEXT, "tool", freshKey(), TS, PATH), "tool", trusted, { path: PATH });
    expect(judge(other, "LABEL", trusted, { modified: "MOD", untrusted: "UNT" }).message).toMatch(/^Untrusted key [0-9a-f]{16} for LABEL\n[^]*\n {2}Fix: UNT$/);
  });

  it("fails closed on a store with an entry it could not read, whatever the item: an error naming the first entry, no result", () => {
    const good = verifyItem(signed, "tool", trusted, { path: PATH });
    expect(good.ok).toBe(true);
    const blind = createTrustStore(trusted.list(), [], undefined, [{ path: "/s/a.toml", reason: "it is a FIFO" }, { path: "/s/b.toml", reason: "it is a folder" }]);
    const r = judge(good, "LABEL", blind, { modified: "MOD", untrusted: "UNT" });
    expect(r).toMatchObject({ ok: false, outcome: "error", result: null });
    expect(r.message).toBe(
      "Trust store entry cannot be read: /s/a.toml: it is a FIFO\n  LABEL is not judged with a store missing an entry (it may revoke the signing key)\n  Fix: remove it, or make it the regular .toml file of a key (rye keys trust FILE writes one)",
    );
    // Every other outcome is decided first by the unreadable entry, a modified item too.
    const modified = verifyItem(signed.replace("print('hi')", "print('x')"), "tool", trusted, { path: PATH });
    expect(judge(modified, "LABEL", blind, { modified: "MOD", untrusted: "UNT" }).outcome).toBe("error");
    // An empty list of unreadable entries changes nothing.
    expect(judge(good, "LABEL", createTrustStore(trusted.list(), [], undefined, []), { modified: "MOD", untrusted: "UNT" }).ok).toBe(true);
  });
});

describe("inferItemId", () => {
  it.each([
    ["/p/.ai/tools/rye/bash/bash.py", "tool", "rye/bash/bash"],
    ["./p//.ai/./tools/a/b.tar.gz", "tool", "a/b.tar"],
    ["/p/.ai/directives/x.md", "directive", "x"],
    ["/p/.ai/directives/a/b.md", "directive", "a/b"],
    ["/p/.ai/config/c/d.toml", "config", "c/d"],
    ["/p/.ai/knowledge/k/n.md", "knowledge", "k/n"],
    ["/p/.ai/config/c.yaml", "config", "c"],
    ["/p/.ai/tools/a.py", "directive", "a"],
    ["/p/.ai/tools", "tool", "tools"],
    ["/p/.ai/tools/", "tool", "tools"],
    ["/p/tools/.ai/x/y.py", "tool", "y"],
    ["/p/.ai/.ai/tools/q/r.py", "tool", "q/r"],
    ["noext", "tool", "noext"],
    [".hidden", "tool", ".hidden"],
    ["a/b.", "tool", "b."],
  ] as [string, ItemKind, string][])("%s as %s → %s", (path, kind, id) => {
    expect(inferItemId(path, kind)).toBe(id);
  });

  it("an unknown kind looks for a folder of its own name", () => {
    expect(inferItemId("/p/.ai/widgets/w/x.js", "widgets" as ItemKind)).toBe("w/x");
  });
});

// Limits of a trusted key (docs/signing.md, "A refusal names the key and the entry"), judged at the
// store's `now` when it has one, else at the clock; the check comes after trust, before the signature.
describe("judge: a key's limits", () => {
  const ENTRY = "/home/me/.ai/config/keys/trusted/k.toml";
  const FIX = "  Fix: rebuild (or re-sign) with a key that is trusted now; rye keys list shows each key's state";
  const withLimits = (limits: { kind: "revoked" | "expires" | "not_before"; at: string | null; entry: string }[], now?: Date) =>
    createTrustStore(trusted.list().map((k) => ({ ...k, limits })), [], now);
  const good = verifyItem(signed, "tool", trusted, { path: PATH });
  const fixes = { modified: "MOD", untrusted: "UNT" };

  it("a revoked key is refused, naming the key, when and the entry", () => {
    const r = judge(good, "out/manifest.json", withLimits([{ kind: "revoked", at: "2026-05-01T10:00:00Z", entry: ENTRY }]), fixes);
    expect(r).toMatchObject({ ok: false, outcome: "untrusted", result: null });
    expect(r.message).toBe(
      `Refused key ${TEST_KEY.fingerprint} for out/manifest.json\n  Key ${TEST_KEY.fingerprint} is revoked (since 2026-05-01T10:00:00Z) by the trust entry ${ENTRY}: nothing it signed is accepted\n${FIX}`,
    );
    // Through verifyItem too: the key is trusted, and still refused.
    expect(verifyItem(signed, "tool", withLimits([{ kind: "revoked", at: null, entry: ENTRY }]), { path: PATH })).toMatchObject({ ok: false, outcome: "untrusted", trusted: true });
  });

  it("expiry is judged at the store's time when it has one, else at the clock", () => {
    const expires = [{ kind: "expires" as const, at: "2100-01-01T00:00:00Z", entry: ENTRY }];
    // The clock is before 2100: not expired.
    expect(judge(good, "L", withLimits(expires), fixes).ok).toBe(true);
    expect(judge(good, "L", withLimits(expires, new Date("2099-12-31T23:59:59Z")), fixes).ok).toBe(true);
    const later = judge(good, "L", withLimits(expires, new Date("2100-01-01T00:00:00Z")), fixes);
    expect(later).toMatchObject({ ok: false, outcome: "untrusted" });
    expect(later.message).toBe(`Refused key ${TEST_KEY.fingerprint} for L\n  Key ${TEST_KEY.fingerprint} expired at 2100-01-01T00:00:00Z (trust entry ${ENTRY})\n${FIX}`);
    // An expiry already past at the clock refuses without a store time.
    expect(judge(good, "L", withLimits([{ kind: "expires", at: "2000-01-01T00:00:00Z", entry: ENTRY }]), fixes).ok).toBe(false);
  });
});

describe("TRUST_HOW", () => {
  it("names the three ways to trust a key that docs/signing.md lists", () => {
    expect(TRUST_HOW).toBe("Trust the signer's public key: rye keys trust FILE (the user space's trust store), rye verify --trusted-key FILE, or RYE_TRUSTED_KEYS=FILE");
  });
});

// Equivalent mutants, left alive on purpose:
// - inferItemId's loop bound `i + 1 < parts.length` as `<=` or `i - 1 <`: the extra turns read
//   parts[i + 1] past the end (undefined), which is never the kind's folder, so they always continue.
// - `base`'s `ok: false` and `outcome: "error"`: every return overwrites both (fail, allowUnsigned, judge).
// - `trust.unreadable?.[0]` without `?.`: TrustStore's `unreadable` is a required list (createTrustStore defaults it to []).
// - `trust.get(fp)?.limits` without `?.`: judge reaches it only for a trusted key, so get() is defined.
// - `checked.actualHash ?? ""`: a signed item always has its hash computed before it is judged.
