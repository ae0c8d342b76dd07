// The fix a signature message gives names the command or setting that applies, and doing what it
// says makes the check pass.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTrustStore, signItem, signModule, trustStoreFromPems, verifyItem } from "../../src/sign/index.js";
import { pinnedKeys } from "../../src/verify/trust-anchors.js";
import { verifyBundleBytes } from "../../src/verify/verify-bundle.js";
import { runRye } from "../helpers/cli.js";
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
  it("keeps the original's message, and rye verify adds the real ways to trust the key; setting RYE_TRUSTED_KEYS as told passes", async () => {
    const other = freshKey();
    const project = mkdtempSync(join(tmpdir(), "rye-advice-project-"));
    const text = "#!/usr/bin/env python3\n__version__ = '1.0.0'\nprint('hi')\n";
    mkdirSync(join(project, ".ai", "tools", "demo"), { recursive: true });
    writeFileSync(join(project, ".ai", "tools", "demo", "run.py"), signItem(text, "tool", other, TS, ".ai/tools/demo/run.py"));
    const r = verifyItem(signItem(text, "tool", other, TS, "p/.ai/tools/demo/run.py"), "tool", trusted, { path: "p/.ai/tools/demo/run.py" });
    expect(r.message).toContain("Fix: Add this key to your trust store, or re-sign:\n    rye sign tool:demo/run");
    const user = mkdtempSync(join(tmpdir(), "rye-advice-user-"));
    const refused = await runRye(["verify", ".ai"], project, { USER_SPACE: user });
    expect(refused.code).toBe(1);
    for (const way of ["rye keys trust FILE", "--trusted-key FILE", "RYE_TRUSTED_KEYS=FILE", "rye sign tool:demo/run"]) expect(refused.stdout).toContain(way);
    const pem = join(user, "other.pem");
    writeFileSync(pem, other.publicPem);
    const pinned = await runRye(["verify", ".ai"], project, { USER_SPACE: user, RYE_TRUSTED_KEYS: pem });
    expect(pinned.code).toBe(0);
    expect((await runRye(["verify", ".ai", "--trusted-key", pem], project, { USER_SPACE: user })).code).toBe(0);
  });
});
