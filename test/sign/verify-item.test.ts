import { describe, expect, it } from "vitest";
import {
  createTrustStore,
  inferItemId,
  signItem,
  trustStoreFromPems,
  verifyItem,
  verifyMessage,
  type ItemKind,
} from "../../src/sign/index.js";
import { freshKey, TEST_KEY } from "./fixtures.js";

const TS = "2026-01-01T00:00:00Z";
const trusted = trustStoreFromPems({ [TEST_KEY.fingerprint]: TEST_KEY.publicPem }, "tester", "project");
const SAMPLES: Array<[ItemKind, string, string]> = [
  ["directive", "p/.ai/directives/demo/hello.md", '# Hello\n\n```xml\n<directive name="hello" version="1.0.0">\n  <metadata/>\n</directive>\n```\n\n<process>Say hello.</process>\n'],
  ["knowledge", "p/.ai/knowledge/demo/notes.md", "```yaml\nname: notes\n```\n\nSome notes.\n"],
  ["tool", "p/.ai/tools/demo/run.py", "#!/usr/bin/env python3\n__version__ = '1.0.0'\nprint('hi')\n"],
  ["tool", "p/.ai/tools/demo/run.ts", "#!/usr/bin/env node\nexport const __version__ = '1.0.0';\n"],
  ["config", "p/.ai/config/demo/settings.yaml", "key: value\n"],
  ["config", "p/.ai/config/keys/trusted/k.toml", 'owner = "x"\n'],
];

describe("signItem + verifyItem", () => {
  for (const [kind, path, text] of SAMPLES) {
    it(`signs and verifies a ${kind} (${path.split(".").pop()})`, () => {
      const signed = signItem(text, kind, TEST_KEY, TS, path);
      const r = verifyItem(signed, kind, trusted, { path });
      expect(r).toMatchObject({ ok: true, outcome: "verified", signed: true, hashMatches: true, trusted: true, signatureValid: true, owner: "tester", message: "" });
      expect(r.result).toBe(r.actualHash);
      expect(signItem(signed, kind, TEST_KEY, TS, path)).toBe(signed);
      // Python reads in text mode, so a CRLF checkout still verifies.
      expect(verifyItem(signed.replace(/\n/g, "\r\n"), kind, trusted, { path }).outcome).toBe("verified");
    });
  }

  const [kind, path, text] = SAMPLES[2]!;
  const signed = signItem(text, kind, TEST_KEY, TS, path);

  it("reports an unsigned item with the original's message", () => {
    const r = verifyItem(text, kind, trusted, { path });
    expect(r).toMatchObject({ ok: false, outcome: "unsigned", signed: false });
    expect(r.message).toBe(`Unsigned item: ${path}\n  Kind: tool\n  Expected: rye:signed: header\n  Fix: rye sign tool:demo/run`);
    expect(verifyItem(text, kind, trusted, { path, allowUnsigned: true })).toMatchObject({ ok: true, outcome: "unsigned", result: "unsigned" });
  });

  it("reports a changed item, even with allowUnsigned, and lets dev mode through", () => {
    const edited = signed.replace("print('hi')", "print('pwned')");
    const r = verifyItem(edited, kind, trusted, { path, allowUnsigned: true });
    expect(r).toMatchObject({ ok: false, outcome: "hash_mismatch", hashMatches: false, trusted: true, signatureValid: true });
    expect(r.message).toMatch(/^Content modified since signing: p\/\.ai\/tools\/demo\/run\.py\n  Expected hash: [0-9a-f]{16}…\n  Actual hash: [0-9a-f]{16}…\n  Fix: Re-sign after editing:\n    rye sign tool:demo\/run$/);
    expect(verifyItem(edited, kind, trusted, { path, devMode: true })).toMatchObject({ ok: true, outcome: "hash_mismatch", result: "unverified" });
  });

  it("reports an untrusted key, listing the trusted ones", () => {
    const other = freshKey();
    const r = verifyItem(signItem(text, kind, other, TS, path), kind, trusted, { path });
    expect(r).toMatchObject({ outcome: "untrusted", trusted: false, signatureValid: null, hashMatches: true });
    expect(r.message).toBe(
      `Untrusted key ${other.fingerprint} for ${path}\n  Item signed by: ${other.fingerprint}\n  Trusted keys: ${TEST_KEY.fingerprint}\n` +
        `  Fix: Add this key to your trust store, or re-sign:\n    rye sign tool:demo/run`,
    );
    expect(verifyItem(signItem(text, kind, other, TS, path), kind, createTrustStore([]), { path }).message).toContain("Trusted keys: none");
  });

  it("reports a wrong fingerprint: a line claiming another trusted key fails its signature", () => {
    const other = freshKey();
    const both = createTrustStore([...trusted.list(), ...trustStoreFromPems({ [other.fingerprint]: other.publicPem }, "other").list()]);
    const relabelled = signed.replace(`:${TEST_KEY.fingerprint}\n`, `:${other.fingerprint}\n`);
    const r = verifyItem(relabelled, kind, both, { path });
    expect(r).toMatchObject({ outcome: "bad_signature", trusted: true, signatureValid: false });
    expect(r.message).toBe(
      `Ed25519 signature verification failed: ${path}\n  Signed by: ${other.fingerprint} (other)\n  This may indicate the file was tampered with after signing`,
    );
  });

  it("accepts padded signatures and rejects non-canonical base64url", () => {
    const sig = /:([A-Za-z0-9_-]{86}):/.exec(signed)![1]!;
    expect(verifyItem(signed.replace(sig, `${sig}==`), kind, trusted, { path }).outcome).toBe("verified");
    const hash = verifyItem(signed, kind, trusted, { path }).actualHash!;
    const last = sig.at(-1)!;
    // The last character carries 2 spare bits; a lenient decoder would accept every sibling of it.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(verifyMessage(hash, sig, TEST_KEY.publicPem)).toBe(true);
    expect(verifyMessage(hash, sig.slice(0, -1) + sibling, TEST_KEY.publicPem)).toBe(false);
    expect(verifyMessage(hash, `${sig.slice(0, 40)}!${sig.slice(41)}`, TEST_KEY.publicPem)).toBe(false);
  });

  it("verifies a line carrying |provider@user provenance", () => {
    const withProvenance = signed.replace(`:${TEST_KEY.fingerprint}\n`, `:${TEST_KEY.fingerprint}|github@leo\n`);
    const r = verifyItem(withProvenance, kind, trusted, { path });
    expect(r.outcome).toBe("verified");
    expect(r.signature).toMatchObject({ registryProvider: "github", registryUsername: "leo" });
  });

  it("does not cover a directive's body after the fence, as in the original", () => {
    const [dk, dp, dt] = SAMPLES[0]!;
    const s = signItem(dt, dk, TEST_KEY, TS, dp);
    expect(verifyItem(s.replace("Say hello.", "Say goodbye."), dk, trusted, { path: dp }).outcome).toBe("verified");
    expect(verifyItem(s.replace('version="1.0.0"', 'version="2.0.0"'), dk, trusted, { path: dp }).outcome).toBe("hash_mismatch");
    expect(verifyItem("<!-- x -->\nno xml\n", dk, trusted, { path: dp })).toMatchObject({ outcome: "unsigned" });
  });

  it("reports a signed directive with no XML and an unknown tool extension as errors", () => {
    const line = signed.split("\n")[1]!.replace("# ", "<!-- ") + " -->\n";
    expect(verifyItem(`${line}no xml`, "directive", trusted, { path: "x.md" })).toMatchObject({ ok: false, outcome: "error", message: "No XML directive found in content" });
    expect(verifyItem(signed, "tool", trusted, { path: "x.rb", devMode: true })).toMatchObject({ ok: false, outcome: "error" });
  });
});

describe("inferItemId", () => {
  it("takes the path below .ai/<kind dir>, else the stem", () => {
    expect(inferItemId("/p/.ai/tools/rye/bash/bash.py", "tool")).toBe("rye/bash/bash");
    expect(inferItemId("/p/.ai/config/keys/trusted/x.toml", "config")).toBe("keys/trusted/x");
    expect(inferItemId("rel/.ai/knowledge/a.b.md", "knowledge")).toBe("a.b");
    expect(inferItemId("/p/.ai/tools/a.py", "directive")).toBe("a");
    expect(inferItemId("/p/.ai/tools", "tool")).toBe("tools");
    expect(inferItemId(".hidden", "tool")).toBe(".hidden");
  });
});
