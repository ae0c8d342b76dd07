// The source list an output's signed root binds (out/manifest/sources.txt, decisions.md #26), as the
// output verifier reads it: a good list is handed back for `--current` and is not an unlisted file;
// an edited, swapped or missing list fails like a shard, with the paths and hashes named.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { generateKeyPair, signingKeyFrom } from "../../src/sign/keys.js";
import { trustStoreFromPems } from "../../src/sign/trust-store.js";
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
