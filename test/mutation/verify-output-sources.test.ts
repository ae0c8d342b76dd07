// The source list an output's signed root binds (out/manifest/sources.txt, decisions.md #26), as the
// output verifier reads it: a good list is handed back for `--current` and is not an unlisted file;
// an edited, swapped or missing list fails like a shard, with the paths and hashes named.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { generateKeyPair, signingKeyFrom } from "../../src/sign/keys.js";
import { trustStoreFromPems } from "../../src/sign/trust-store.js";
import { READ_LIMITS } from "../../src/project/read-regular.js";
import { verifyOutputDir } from "../../src/verify/verify-output.js";
import { writeSignedOutput } from "../helpers/signed-output.js";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const LIST = "manifest/sources.txt";

function output() {
  const pair = generateKeyPair();
  const key = signingKeyFrom(pair.privatePem);
  const out = mkdtempSync(join(tmpdir(), "rye-vo-src-"));
  writeSignedOutput(out, { "a/b.js": ["export const b = 1;\n", "b"], "z.js": ["export const z = 1;\n", null] }, key);
  return { out, trust: trustStoreFromPems({ [key.fingerprint]: pair.publicPem }) };
}

describe("the source list of an output", () => {
  test("a good list: ok, handed back as read, and counted neither as verified nor as unlisted", async () => {
    const { out, trust } = output();
    const text = readFileSync(join(out, LIST), "utf8");
    const r = await verifyOutputDir(out, trust);
    expect(r.ok).toBe(true);
    expect(r.sourceList).toBe(text);
    expect(r.files.map((f) => f.path)).not.toContain(LIST);
    expect(r.problems).toEqual([]);
  });

  test("an edited list fails, with both hashes, and is not handed back", async () => {
    const { out, trust } = output();
    const before = readFileSync(join(out, LIST), "utf8");
    writeFileSync(join(out, LIST), `${before}project\t.ai/directives/x.md\t${"0".repeat(64)}\n`);
    const r = await verifyOutputDir(out, trust, "out/manifest.json");
    expect(r.ok).toBe(false);
    expect(r.sourceList).toBeUndefined();
    const entry = r.files.find((f) => f.path === LIST);
    expect(entry).toMatchObject({ status: "modified", expected: sha(before), actual: sha(readFileSync(join(out, LIST), "utf8")), itemId: null });
    expect(r.problems).toEqual([`Files do not match the signed manifest out/manifest.json:\n  Differs from the manifest: ${LIST}\n  Fix: rebuild with rye build`]);
  });

  test("a missing list fails as missing", async () => {
    const { out, trust } = output();
    const before = readFileSync(join(out, LIST), "utf8");
    rmSync(join(out, LIST));
    const r = await verifyOutputDir(out, trust);
    expect(r.ok).toBe(false);
    expect(r.files.find((f) => f.path === LIST)).toMatchObject({ status: "missing", expected: sha(before), actual: null });
    expect(r.problems[0]).toContain(`  Missing: ${LIST}\n`);
    expect(r.dir).toBe(realpathSync(out));
  });
});

// The manifest and the source list are read through the bounded reader with the manifest kind's
// limit (src/project/read-regular.ts): a folder or an over-limit file there fails the output, naming why.
describe("a manifest or source list that cannot be read", () => {
  // Sparse: one byte over the limit costs no disk.
  const over = READ_LIMITS.manifest + 1;

  test("a folder at manifest.json: the output fails, naming the folder and why, and no file is checked", async () => {
    const { out, trust } = output();
    rmSync(join(out, "manifest.json"));
    mkdirSync(join(out, "manifest.json"));
    const r = await verifyOutputDir(out, trust);
    expect(r.ok).toBe(false);
    expect(r.files).toEqual([]);
    expect(r.problems).toEqual([`manifest.json of ${out} cannot be read: it is a folder, not a regular file; only regular files are read\n  Fix: rebuild with rye build`]);
  });

  test("a manifest.json over the manifest limit is not read", async () => {
    const { out, trust } = output();
    truncateSync(join(out, "manifest.json"), over);
    const r = await verifyOutputDir(out, trust);
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([`manifest.json of ${out} cannot be read: it is ${over} bytes, over the limit of ${READ_LIMITS.manifest} bytes\n  Fix: rebuild with rye build`]);
  });

  test("a source list over the manifest limit is not read: it fails as missing, with no hash of its bytes", async () => {
    const { out, trust } = output();
    const before = readFileSync(join(out, LIST), "utf8");
    truncateSync(join(out, LIST), over);
    const r = await verifyOutputDir(out, trust);
    expect(r.ok).toBe(false);
    expect(r.sourceList).toBeUndefined();
    expect(r.files.find((f) => f.path === LIST)).toMatchObject({ status: "missing", expected: sha(before), actual: null });
  });
});

// Mutants of src/verify/verify-output.ts left alive, and why:
// - describe()'s shard test `f.status !== "verified"` (as true, or against ""), and its `default:`:
//   describe() is only called for checks that are not verified, so neither is ever reached otherwise.
// - mayBeListed() (emptied, its `at < 0` test or its folder slice changed), the hashing list's `() => undefined`, and
//   `actual[...] ?? hashes.of(...)` as `&&`: they decide only which files are hashed ahead of time;
//   any file left out is hashed on demand by hashes.of(), so every result is the same (speed only).
// - `checks.length < listed` as `<=` or true: the missing-file walk runs more often and finds nothing.
// - `text || "{}"` and the journal case's `verifyManifest("{}")` with "": both fail the manifest,
//   and the message is replaced by the one naming why before anything reads it.
// - `!manifest.ok || !manifest.manifest` as `&&`: verifyManifest returns a manifest exactly when ok.
// - `tree.files.sort()` and the sort of links/others removed: the file systems these tests run on
//   list a folder's names in sorted order already (verify-output-order.test.ts would fail otherwise).
