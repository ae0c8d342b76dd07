// verifyOutputDir's report, to the letter: what each kind of mismatch says, which entries are the
// writer's own, what a missing or pending manifest gives. Expected messages are the ones the docs
// and `rye verify` show (docs/security-model.md); each test fails if a branch or message changes.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { generateKeyPair, signingKeyFrom } from "../../src/sign/keys.js";
import { FORMAT_1_MANIFEST, writeSignedOutput } from "../helpers/signed-output.js";
import { trustStoreFromPems } from "../../src/sign/trust-store.js";
import { listTree, verifyOutputDir } from "../../src/verify/verify-output.js";

const TS = "2026-01-01T00:00:00Z";

function output(files: Record<string, [text: string, itemId: string | null]>, extra: (out: string) => void = () => {}) {
  const pair = generateKeyPair();
  const key = signingKeyFrom(pair.privatePem);
  const out = mkdtempSync(join(tmpdir(), "rye-vo-"));
  writeSignedOutput(out, files, key, TS);
  extra(out);
  return { out, trust: trustStoreFromPems({ [key.fingerprint]: pair.publicPem }) };
}

describe("verifyOutputDir", () => {
  test("a clean folder: ok, every file verified in path order, bundles set aside", async () => {
    const { out, trust } = output({ "z.js": ["export const z = 1;\n", null], "a/b.js": ["export const b = 1;\n", "b"] }, (o) => writeFileSync(join(o, "bundle.mjs"), "x"));
    const r = await verifyOutputDir(out, trust);
    expect(r).toMatchObject({ ok: true, dir: realpathSync(out), problems: [], bundles: ["bundle.mjs"] });
    // The shard of a/ first (the manifest's own files), then every file in path order.
    expect(r.files.map((f) => [f.path, f.itemId, f.status])).toEqual([["manifest/a.json", null, "verified"], ["a/b.js", "b", "verified"], ["package.json", null, "verified"], ["z.js", null, "verified"]]);
    expect(r.manifest.ok).toBe(true);
  });

  test("each mismatch is described, with the item where there is one, under the given label", async () => {
    const { out, trust } = output({ "d/a.js": ["export const a = 1;\n", "item/a"], "b.js": ["export const b = 1;\n", null], "d/c.js": ["export const c = 1;\n", "item/c"], "d/l.js": ["export {};\n", "item/l"] }, (o) => {
      writeFileSync(join(o, "d/a.js"), "export const a = 2;\n");
      writeFileSync(join(o, "b.js"), "export const b = 2;\n");
      writeFileSync(join(o, "extra.js"), "export {};\n");
      symlinkSync("/etc/hostname", join(o, "link.js"));
    });
    // c.js missing, l.js a link where the manifest lists a file.
    const { rmSync } = await import("node:fs");
    rmSync(join(out, "d/c.js"));
    rmSync(join(out, "d/l.js"));
    symlinkSync("/etc/hostname", join(out, "d/l.js"));
    const r = await verifyOutputDir(out, trust, "out/manifest.json");
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      [
        "Files do not match the signed manifest out/manifest.json:",
        "  A symbolic link, not a file rye build writes: d/l.js (item/l)",
        "  A symbolic link, not a file rye build writes: link.js",
        "  Differs from the manifest: b.js",
        "  Differs from the manifest: d/a.js (item/a)",
        "  Not listed in the signed manifest: extra.js",
        "  Missing: d/c.js (item/c)",
        "  Fix: rebuild with rye build",
      ].join("\n"),
    ]);
  });

  test("a shard that is edited, missing, or moved to another folder's name fails, naming it; its folder's files are not reported one by one", async () => {
    const { out, trust } = output({ "d/a.js": ["export const a = 1;\n", "item/a"], "e/b.js": ["export const b = 1;\n", "item/b"] });
    const { readFileSync, renameSync, rmSync } = await import("node:fs");
    writeFileSync(join(out, "manifest/d.json"), readFileSync(join(out, "manifest/d.json"), "utf8").replace("item/a", "item/x"));
    rmSync(join(out, "manifest/e.json"));
    const r = await verifyOutputDir(out, trust, "out/manifest.json");
    expect(r.problems).toEqual([
      [
        "Files do not match the signed manifest out/manifest.json:",
        "  Differs from the signed manifest: manifest/d.json (the shard listing d/, so none of its files can be checked)",
        "  Missing: manifest/e.json (the shard listing e/, so none of its files can be checked)",
        "  Fix: rebuild with rye build",
      ].join("\n"),
    ]);
    // The shard of d/ under e/'s name: each binds its folder, so both fail.
    renameSync(join(out, "manifest/d.json"), join(out, "manifest/e.json"));
    const moved = await verifyOutputDir(out, trust);
    expect(moved.files.filter((f) => f.status !== "verified").map((f) => [f.path, f.status])).toEqual([["manifest/d.json", "missing"], ["manifest/e.json", "modified"]]);
  });

  test("the writer's own top-level .rye/ is skipped, links in it included; a .rye deeper down is not", async () => {
    const { out, trust } = output({ "a.js": ["export {};\n", null] }, (o) => {
      mkdirSync(join(o, ".rye", "staging"), { recursive: true });
      symlinkSync("/etc/hostname", join(o, ".rye", "staging", "x.js"));
    });
    expect((await verifyOutputDir(out, trust)).ok).toBe(true);
    mkdirSync(join(out, "d", ".rye"), { recursive: true });
    writeFileSync(join(out, "d", ".rye", "evil.js"), "export {};\n");
    expect((await verifyOutputDir(out, trust)).files.map((f) => [f.path, f.status])).toEqual([["a.js", "verified"], ["d/.rye/evil.js", "unlisted"], ["package.json", "verified"]]);
    expect({ ...listTree(out), files: listTree(out).files.sort() }).toEqual({ files: ["a.js", "d/.rye/evil.js", "manifest.json", "manifest/sources.txt", "package.json"], links: [], others: [] });
  });

  test.skipIf(process.platform === "win32")("a FIFO in place of a listed file, or as the package.json, is not a file: reported, never opened", async () => {
    const { out, trust } = output({ "d/a.js": ["export const a = 1;\n", "item/a"], "b.js": ["", null] }, (o) => {
      for (const fifo of ["d/a.js", "b.js", "package.json"]) {
        rmSync(join(o, fifo), { force: true });
        expect(spawnSync("mkfifo", [join(o, fifo)]).status).toBe(0);
      }
    });
    const r = await verifyOutputDir(out, trust);
    expect(r.ok).toBe(false);
    // b.js was listed empty: a FIFO reads as empty too, and still fails.
    expect(r.files.filter((f) => f.status !== "verified").map((f) => [f.path, f.itemId, f.status, f.link])).toEqual([
      ["b.js", null, "not-a-file", false],
      ["d/a.js", "item/a", "not-a-file", false],
      ["package.json", null, "not-a-file", false],
    ]);
    expect(r.problems[0]).toContain("  Not a regular file, not a file rye build writes: d/a.js (item/a)\n");
  });

  test("a build of thousands of files in many folders (hashed by worker threads too): each edited, missing or unlisted file is found", async () => {
    const files: Record<string, [string, string | null]> = {};
    for (let i = 0; i < 2100; i++) files[`f${i % 25}/m${i}.js`] = [`export const n = ${i};\n`, `f${i % 25}/m${i}`];
    const { out, trust } = output(files, (o) => {
      writeFileSync(join(o, "f3/m1503.js"), "export const n = -1;\n");
      rmSync(join(o, "f24/m99.js"));
      writeFileSync(join(o, "f7/extra.js"), "export {};\n");
    });
    const r = await verifyOutputDir(out, trust);
    expect(r.ok).toBe(false);
    expect(r.files.filter((f) => f.status !== "verified").map((f) => [f.path, f.itemId, f.status])).toEqual([
      ["f3/m1503.js", "f3/m1503", "modified"],
      ["f7/extra.js", null, "unlisted"],
      ["f24/m99.js", "f24/m99", "missing"],
    ]);
    // 25 shards and 2099 files present plus package.json, each hashed once and matching but the one edited.
    expect(r.files.filter((f) => f.status === "verified")).toHaveLength(25 + 2098 + 1);
    expect(r.files.find((f) => f.path === "f0/m0.js")?.actual).toBe(createHash("sha256").update(readFileSync(join(out, "f0/m0.js"))).digest("hex"));
  });

  test("no manifest: one problem that says so, and nothing else is looked at", async () => {
    const out = mkdtempSync(join(tmpdir(), "rye-vo-"));
    writeFileSync(join(out, "a.js"), "export {};\n");
    const r = await verifyOutputDir(out, trustStoreFromPems({}));
    expect(r).toMatchObject({ ok: false, dir: realpathSync(out), files: [], bundles: [] });
    expect(r.manifest.ok).toBe(false);
    expect(r.problems).toEqual([`No manifest.json in ${out}: not a signed build output (or its manifest was removed)\n  Fix: rebuild with rye build`]);
  });

  test("an untrusted manifest and a manifest of the first format are refused before any file", async () => {
    const { out } = output({ "a.js": ["export {};\n", null] });
    const untrusted = await verifyOutputDir(out, trustStoreFromPems({}));
    expect(untrusted.ok).toBe(false);
    expect(untrusted.files).toEqual([]);
    expect(untrusted.problems.join("\n")).toMatch(/Untrusted key/);
    writeFileSync(join(out, "manifest.json"), FORMAT_1_MANIFEST);
    const older = await verifyOutputDir(out, trustStoreFromPems({}), "m.json");
    expect(older).toMatchObject({ ok: false, files: [], problems: ["Manifest m.json is in an older format than this rye reads (format 3 or 4: split by folder, with signed build metadata)\n  Fix: rebuild with rye build"] });
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
