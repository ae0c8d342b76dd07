// More of the output verifier's report: files and links in path order whatever order the folder
// lists them in, a manifest whose key is not trusted reported alone, and a folder whose shard fails
// beside a missing file of another folder.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { generateKeyPair, signingKeyFrom } from "../../src/sign/keys.js";
import { trustStoreFromPems } from "../../src/sign/trust-store.js";
import { verifyOutputDir } from "../../src/verify/verify-output.js";
import { writeSignedOutput } from "../helpers/signed-output.js";

function output(files: Record<string, [string, string | null]>) {
  const pair = generateKeyPair();
  const key = signingKeyFrom(pair.privatePem);
  const out = mkdtempSync(join(tmpdir(), "rye-vo-order-"));
  writeSignedOutput(out, files, key);
  return { out, trust: trustStoreFromPems({ [key.fingerprint]: pair.publicPem }) };
}

const NAMES = ["q", "b", "y", "a", "m", "z", "c", "k", "e", "t"];

describe("the output verifier's report", () => {
  test("files are reported in path order", async () => {
    const { out, trust } = output(Object.fromEntries(NAMES.map((n) => [`${n}.js`, [`export const ${n} = 1;\n`, null]])));
    const r = await verifyOutputDir(out, trust);
    expect(r.ok).toBe(true);
    const paths = r.files.map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
    // The modules and the package.json every build writes (writeSignedOutput adds it).
    expect(paths.length).toBe(NAMES.length + 1);
  });

  test("links are reported in path order, before the files", async () => {
    const { out, trust } = output({ "x.js": ["export {};\n", null] });
    for (const n of NAMES) symlinkSync("/etc/hostname", join(out, `${n}-link.js`));
    const r = await verifyOutputDir(out, trust);
    const links = r.files.filter((f) => f.status === "not-a-file").map((f) => f.path);
    expect(links).toEqual(NAMES.map((n) => `${n}-link.js`).sort());
  });

  test("a manifest signed by a key that is not trusted is the only problem, and no file is checked", async () => {
    const { out } = output({ "a.js": ["export {};\n", null] });
    const other = generateKeyPair();
    const r = await verifyOutputDir(out, trustStoreFromPems({ [signingKeyFrom(other.privatePem).fingerprint]: other.publicPem }));
    expect(r.ok).toBe(false);
    expect(r.files).toEqual([]);
    expect(r.problems).toEqual([r.manifest.message]);
    expect(r.manifest.ok).toBe(false);
  });

  test("a failed shard and a missing file of another folder are both reported, without the failed folder's files", async () => {
    const { out, trust } = output({ "d/a.js": ["export const a = 1;\n", "a"], "e/b.js": ["export const b = 1;\n", "b"], "e/c.js": ["export const c = 1;\n", "c"] });
    writeFileSync(join(out, "manifest", "d.json"), "{}\n");
    rmSync(join(out, "e", "c.js"));
    const r = await verifyOutputDir(out, trust);
    expect(r.ok).toBe(false);
    const bad = r.files.filter((f) => f.status !== "verified").map((f) => [f.path, f.status]);
    expect(bad).toEqual([["manifest/d.json", "modified"], ["e/c.js", "missing"]]);
  });
});
