// The fix a signature message gives names the command or setting that applies, and doing what it
// says makes the check pass.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTrustStore, signItem, signModule, trustStoreFromPems, verifyItem } from "../../src/sign/index.js";
import { pinnedKeys } from "../../src/verify/trust-anchors.js";
import { verifyBundleBytes } from "../../src/verify/verify-bundle.js";
import { freshKey, TEST_KEY } from "./fixtures.js";

const TS = "2026-01-01T00:00:00Z";
const trusted = trustStoreFromPems({ [TEST_KEY.fingerprint]: TEST_KEY.publicPem }, "tester", "project");
const bytes = (s: string) => new TextEncoder().encode(s);

/** The trust store a check gets when RYE_TRUSTED_KEYS names `pem`, as the fix says. */
function withTrustedKeysEnv(publicPem: string) {
  const dir = mkdtempSync(join(tmpdir(), "rye-advice-"));
  writeFileSync(join(dir, "key.pem"), publicPem);
  const warnings: string[] = [];
  const store = createTrustStore(pinnedKeys([], { RYE_TRUSTED_KEYS: join(dir, "key.pem") }, dir, warnings));
  expect(warnings).toEqual([]);
  return store;
}

describe("a bundle's messages", () => {
  const bundle = signModule("export const x = 1;\n", TEST_KEY, TS);

  it("tell a tampered bundle to rebuild it with rye bundle, which writes bundles; re-signing as it does passes", () => {
    const tampered = bundle.replace("x = 1", "x = 2");
    const r = verifyBundleBytes(bytes(tampered), trusted, "out/bundle.mjs");
    expect(r.ok).toBe(false);
    expect(r.problems.join("\n")).toMatch(/Fix: rebuild it with rye bundle$/m);
    expect(r.problems.join("\n")).not.toMatch(/rye build/);
    expect(verifyBundleBytes(bytes(signModule(tampered, TEST_KEY, TS)), trusted, "out/bundle.mjs").ok).toBe(true);
  });

  it("tell an unsigned bundle the same", () => {
    expect(verifyBundleBytes(bytes("export const x = 1;\n"), trusted, "out/bundle.mjs").problems.join("\n")).toMatch(/Fix: rebuild it with rye bundle$/m);
  });

  it("name --trusted-key and RYE_TRUSTED_KEYS for an untrusted key; setting RYE_TRUSTED_KEYS as told passes", () => {
    const other = freshKey();
    const signed = signModule("export const x = 1;\n", other, TS);
    const message = verifyBundleBytes(bytes(signed), trusted, "out/bundle.mjs").problems.join("\n");
    expect(message).toMatch(/--trusted-key FILE/);
    expect(message).toMatch(/RYE_TRUSTED_KEYS=FILE/);
    expect(message).toMatch(/rye bundle/);
    expect(verifyBundleBytes(bytes(signed), withTrustedKeysEnv(other.publicPem), "out/bundle.mjs").ok).toBe(true);
  });
});

describe("a source item signed by an untrusted key", () => {
  it("is told how to trust the key (RYE_TRUSTED_KEYS, --trusted-key, rye keys trust) or re-sign it; each way passes", () => {
    const other = freshKey();
    const text = "#!/usr/bin/env python3\n__version__ = '1.0.0'\nprint('hi')\n";
    const signed = signItem(text, "tool", other, TS, "p/.ai/tools/demo/run.py");
    const r = verifyItem(signed, "tool", trusted, { path: "p/.ai/tools/demo/run.py" });
    expect(r.outcome).toBe("untrusted");
    for (const way of ["rye keys trust FILE", "--trusted-key FILE", "RYE_TRUSTED_KEYS=FILE", "rye sign tool:demo/run"]) expect(r.message).toContain(way);
    expect(r.message).not.toMatch(/your trust store/);
    expect(verifyItem(signed, "tool", withTrustedKeysEnv(other.publicPem), { path: "p/.ai/tools/demo/run.py" }).ok).toBe(true);
    // rye sign re-signs with this machine's (trusted) key.
    expect(verifyItem(signItem(text, "tool", TEST_KEY, TS, "p/.ai/tools/demo/run.py"), "tool", trusted, { path: "p/.ai/tools/demo/run.py" }).ok).toBe(true);
  });
});
