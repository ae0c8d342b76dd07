// verifyOutputDir's report, to the letter: what each kind of mismatch says, which entries are the
// writer's own, what a missing or pending manifest gives. Expected messages are the ones the docs
// and `rye verify` show (docs/security-model.md); each test fails if a branch or message changes.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { generateKeyPair, signingKeyFrom } from "../../src/sign/keys.js";
import { sha256Hex } from "../../src/sign/hash-region.js";
import { signManifest } from "../../src/sign/sign-manifest.js";
import { signModule } from "../../src/sign/sign-module.js";
import { trustStoreFromPems } from "../../src/sign/trust-store.js";
import { listTree, verifyOutputDir } from "../../src/verify/verify-output.js";

const TS = "2026-01-01T00:00:00Z";

function output(files: Record<string, [text: string, itemId: string | null]>, extra: (out: string) => void = () => {}) {
  const pair = generateKeyPair();
  const key = signingKeyFrom(pair.privatePem);
  const out = mkdtempSync(join(tmpdir(), "rye-vo-"));
  const listed = [];
  for (const [path, [text, itemId]] of Object.entries(files)) {
    const signed = signModule(text, key, TS);
    mkdirSync(join(out, path, ".."), { recursive: true });
    writeFileSync(join(out, path), signed);
    listed.push({ path, item_id: itemId, sha256: sha256Hex(signed) });
  }
  writeFileSync(join(out, "manifest.json"), signManifest({ version: "1", generated_at: TS, modules: [], files: listed }, key));
  extra(out);
  return { out, trust: trustStoreFromPems({ [key.fingerprint]: pair.publicPem }) };
}

describe("verifyOutputDir", () => {
  test("a clean folder: ok, every file verified in path order, bundles set aside", async () => {
    const { out, trust } = output({ "z.js": ["export const z = 1;\n", null], "a/b.js": ["export const b = 1;\n", "b"] }, (o) => writeFileSync(join(o, "bundle.mjs"), "x"));
    const r = await verifyOutputDir(out, trust);
    expect(r).toMatchObject({ ok: true, dir: realpathSync(out), problems: [], bundles: ["bundle.mjs"] });
    expect(r.files.map((f) => [f.path, f.itemId, f.status])).toEqual([["a/b.js", "b", "verified"], ["z.js", null, "verified"]]);
    expect(r.manifest.ok).toBe(true);
  });

  test("each mismatch is described, with the item where there is one, under the given label", async () => {
    const { out, trust } = output({ "a.js": ["export const a = 1;\n", "item/a"], "b.js": ["export const b = 1;\n", null], "c.js": ["export const c = 1;\n", "item/c"], "l.js": ["export {};\n", "item/l"] }, (o) => {
      writeFileSync(join(o, "a.js"), "export const a = 2;\n");
      writeFileSync(join(o, "b.js"), "export const b = 2;\n");
      writeFileSync(join(o, "extra.js"), "export {};\n");
      symlinkSync("/etc/hostname", join(o, "link.js"));
    });
    // c.js missing, l.js a link where the manifest lists a file.
    const { rmSync } = await import("node:fs");
    rmSync(join(out, "c.js"));
    rmSync(join(out, "l.js"));
    symlinkSync("/etc/hostname", join(out, "l.js"));
    const r = await verifyOutputDir(out, trust, "out/manifest.json");
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      [
        "Files do not match the signed manifest out/manifest.json:",
        "  A symbolic link, not a file rye build writes: l.js (item/l)",
        "  A symbolic link, not a file rye build writes: link.js",
        "  Differs from the manifest: a.js (item/a)",
        "  Differs from the manifest: b.js",
        "  Not listed in the signed manifest: extra.js",
        "  Missing: c.js (item/c)",
        "  Fix: rebuild with rye build",
      ].join("\n"),
    ]);
  });

  test("the writer's own top-level .rye/ is skipped, links in it included; a .rye deeper down is not", async () => {
    const { out, trust } = output({ "a.js": ["export {};\n", null] }, (o) => {
      mkdirSync(join(o, ".rye", "staging"), { recursive: true });
      symlinkSync("/etc/hostname", join(o, ".rye", "staging", "x.js"));
    });
    expect((await verifyOutputDir(out, trust)).ok).toBe(true);
    mkdirSync(join(out, "d", ".rye"), { recursive: true });
    writeFileSync(join(out, "d", ".rye", "evil.js"), "export {};\n");
    expect((await verifyOutputDir(out, trust)).files.map((f) => [f.path, f.status])).toEqual([["a.js", "verified"], ["d/.rye/evil.js", "unlisted"]]);
    expect({ ...listTree(out), files: listTree(out).files.sort() }).toEqual({ files: ["a.js", "d/.rye/evil.js", "manifest.json"], links: [] });
  });

  test("no manifest: one problem that says so, and nothing else is looked at", async () => {
    const out = mkdtempSync(join(tmpdir(), "rye-vo-"));
    writeFileSync(join(out, "a.js"), "export {};\n");
    const r = await verifyOutputDir(out, trustStoreFromPems({}));
    expect(r).toMatchObject({ ok: false, dir: realpathSync(out), files: [], bundles: [] });
    expect(r.manifest.ok).toBe(false);
    expect(r.problems).toEqual([`No manifest.json in ${out}: not a signed build output (or its manifest was removed)\n  Fix: rebuild with rye build`]);
  });

  test("an untrusted manifest and an older manifest without a file list are refused before any file", async () => {
    const { out } = output({ "a.js": ["export {};\n", null] });
    const untrusted = await verifyOutputDir(out, trustStoreFromPems({}));
    expect(untrusted.ok).toBe(false);
    expect(untrusted.files).toEqual([]);
    expect(untrusted.problems.join("\n")).toMatch(/Untrusted key/);
    const pair = generateKeyPair();
    const key = signingKeyFrom(pair.privatePem);
    writeFileSync(join(out, "manifest.json"), signManifest({ version: "1", generated_at: TS, modules: [] }, key));
    const older = await verifyOutputDir(out, trustStoreFromPems({ [key.fingerprint]: pair.publicPem }), "m.json");
    expect(older).toMatchObject({ ok: false, files: [], problems: ["m.json lists item modules only (an older build); rebuild with rye build so it lists every file"] });
  });

  test("a pending journal: refused with one problem, which is also the manifest's message", async () => {
    const { out, trust } = output({ "a.js": ["export {};\n", null] }, (o) => {
      mkdirSync(join(o, ".rye"));
      writeFileSync(join(o, ".rye", "journal.json"), JSON.stringify({ write: [], remove: [] }));
    });
    const r = await verifyOutputDir(out, trust);
    const message = `A build of ${out} was interrupted while it replaced the output (${join(realpathSync(out), ".rye", "journal.json")} is still pending): the folder may hold parts of two builds\n  Fix: run rye build, which completes it before anything else`;
    expect(r).toEqual({ ok: false, dir: realpathSync(out), manifest: expect.objectContaining({ ok: false, message }), files: [], bundles: [], problems: [message] });
  });
});
