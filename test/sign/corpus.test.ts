import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { kindFromPath } from "../../src/sign/kind-from-path.js";
import {
  createTrustStore,
  loadTrustStore,
  trustStoreFromPems,
  verifyItem,
  type ItemKind,
  type TrustStore,
  type VerifyOutcome,
} from "../../src/sign/index.js";
import { hasShared, SHARED_DIR, SHARED_SKIP_REASON } from "../helpers/shared.js";
import { REAL_KEYS } from "./fixtures.js";

const CORPUS = resolve(SHARED_DIR, "corpus");
const SEEDS = resolve(SHARED_DIR, "seeds");
const skipNote = hasShared ? "" : ` — skipped: ${SHARED_SKIP_REASON}`;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

/** The corpus's own trust stores: every bundle of both eras, as system spaces. */
function corpusTrust(): TrustStore {
  const roots = ["rye-2026-02/system", ...["core", "standard", "code", "email", "web"].map((b) => `rye-2026-04/${b}`)];
  return loadTrustStore(roots.map((r) => ({ root: join(CORPUS, r), label: `system:${r}` })));
}

/** The three real keys, as the vectors' corpus check used them. */
function allRealKeys(): TrustStore {
  return createTrustStore(
    Object.entries(REAL_KEYS).flatMap(([fp, k]) => trustStoreFromPems({ [fp]: k.pem }, k.owner, "reference").list()),
  );
}

type Tally = Record<string, Record<VerifyOutcome, number> & { files: string[] }>;

function verifyCorpus(era: string, trust: TrustStore): Tally {
  const tally: Tally = {};
  for (const file of walk(join(CORPUS, era))) {
    const kind = kindFromPath(file);
    if (kind === null || kind === "module" || kind === "manifest") continue;
    const r = verifyItem(readFileSync(file, "utf8"), kind as ItemKind, trust, { path: file });
    const row = (tally[kind] ??= { verified: 0, unsigned: 0, hash_mismatch: 0, untrusted: 0, bad_signature: 0, error: 0, files: [] });
    row[r.outcome]++;
    if (r.outcome === "verified") continue;
    const stub = r.outcome === "unsigned" && readFileSync(file, "utf8").includes("(code bodies omitted)") ? " [stub]" : "";
    const sig = r.signature ? ` (${r.signature.fingerprint}${r.signatureValid ? ", signature valid" : ""})` : "";
    row.files.push(`${r.outcome} ${relative(CORPUS, file)}${sig}${stub}`);
  }
  return tally;
}

function table(tally: Tally): string {
  return Object.entries(tally)
    .map(([k, r]) => `${k.padEnd(10)} verified ${r.verified}, stale ${r.hash_mismatch}, untrusted ${r.untrusted}, unsigned ${r.unsigned}, bad sig ${r.bad_signature}, error ${r.error}`)
    .join("\n");
}

describe.skipIf(!hasShared)(`seed signatures${skipNote}`, () => {
  const seeds = [
    ["000_cd848c7605b6640e.txt", "9fbfabe975fa5a7f"],
    ["001_485d7ed17388fba2.txt", "9fbfabe975fa5a7f"],
    ["004_0e862539f4d3adcf.txt", "6ea18199041a1ea8"],
  ] as const;
  for (const [name, fp] of seeds) {
    it(`${name} verifies as knowledge against ${fp} from the corpus trust stores`, () => {
      const trust = corpusTrust();
      const r = verifyItem(readFileSync(join(SEEDS, name), "utf8"), "knowledge", trust, { path: name });
      expect(r.message).toBe("");
      expect(r).toMatchObject({ ok: true, outcome: "verified", hashMatches: true, trusted: true, signatureValid: true });
      expect(r.signature?.fingerprint).toBe(fp);
      expect(trust.get(fp)?.source).toMatch(/^system:rye-2026-0[24]/);
    });
  }

  it("the corpus trust stores hold 9fbf… (2026-02, unsigned file) and 6ea1… (2026-04, signed by the absent 4b98…)", () => {
    const trust = corpusTrust();
    expect(trust.list().map((k) => k.fingerprint).sort()).toEqual(["6ea18199041a1ea8", "9fbfabe975fa5a7f"]);
    expect(trust.get("6ea18199041a1ea8")?.owner).toBe("github-ci");
    expect(trust.warnings.some((w) => w.includes("signed by 4b987fd4e40303ac, which no space trusts"))).toBe(true);
  });
});

// The corpus's tool code files are metadata-only stubs ("code bodies omitted") without their signature lines.
const stubs = (t: Tally) => Object.values(t).flatMap((r) => r.files).filter((f) => f.endsWith("[stub]")).length;
const counts = (t: Tally) =>
  Object.fromEntries(Object.entries(t).map(([k, r]) => [k, [r.verified, r.hash_mismatch, r.untrusted, r.unsigned, r.bad_signature, r.error]]));

describe.skipIf(!hasShared)(`corpus verification${skipNote}`, () => {
  it("2026-04 (era C system bundles): every signed item verifies under the real keys", () => {
    const tally = verifyCorpus("rye-2026-04", allRealKeys());
    console.log(`rye-2026-04 with the three real keys (${stubs(tally)} unsigned stubs):\n${table(tally)}`);
    // [verified, stale, untrusted, unsigned, bad signature, error]
    expect(counts(tally)).toEqual({
      directive: [70, 0, 0, 0, 0, 0],
      knowledge: [54, 0, 0, 0, 0, 0],
      tool: [46, 0, 0, 123, 0, 0],
      config: [16, 0, 0, 2, 0, 0],
    });
    expect(stubs(tally)).toBe(123);
    const other = Object.values(tally).flatMap((r) => r.files).filter((f) => !f.endsWith("[stub]"));
    expect(other.map((f) => f.replace(/^unsigned rye-2026-04\/core\/\.ai\/config\//, ""))).toEqual(["cas/manifest.yaml", "remotes/remotes.yaml"]);
  });

  it("2026-04 with only the corpus trust stores: items signed by 4b987fd4e40303ac are untrusted, nothing is forged", () => {
    const tally = verifyCorpus("rye-2026-04", corpusTrust());
    console.log(`rye-2026-04 with the corpus trust stores:\n${table(tally)}`);
    expect(counts(tally)).toEqual({
      directive: [0, 0, 70, 0, 0, 0],
      knowledge: [0, 0, 54, 0, 0, 0],
      tool: [0, 0, 46, 123, 0, 0],
      config: [0, 0, 16, 2, 0, 0],
    });
    const untrusted = Object.values(tally).flatMap((r) => r.files).filter((f) => f.startsWith("untrusted"));
    expect(untrusted.every((f) => f.endsWith("(4b987fd4e40303ac)"))).toBe(true);
  });

  it("2026-02 (era F): failures are stale hashes under valid signatures, unsigned files or an unknown key, never forgery", () => {
    const tally = verifyCorpus("rye-2026-02", allRealKeys());
    const failures = Object.values(tally).flatMap((r) => r.files);
    console.log(`rye-2026-02 with the three real keys (${stubs(tally)} unsigned stubs):\n${table(tally)}\n${failures.filter((f) => !f.endsWith("[stub]")).join("\n")}`);
    expect(counts(tally)).toEqual({
      directive: [63, 2, 0, 0, 0, 0],
      knowledge: [35, 1, 0, 7, 0, 0],
      tool: [27, 5, 0, 96, 0, 0],
      config: [0, 0, 0, 1, 0, 0],
    });
    expect(stubs(tally)).toBe(92);
    // Stale files were edited after signing: the signature over the stored hash still checks out.
    const stale = failures.filter((f) => f.startsWith("hash_mismatch"));
    expect(stale.filter((f) => !f.includes("signature valid"))).toEqual([
      "hash_mismatch rye-2026-02/system/.ai/bundles/rye-core/manifest.yaml (440443d0858f0199)",
    ]);
  });
});

describe.skipIf(!hasShared)(`rye verify on real files${skipNote}`, () => {
  it("verifies the seeds as knowledge against the corpus bundles' trust stores", async () => {
    const { run } = await import("../../src/cli/commands/verify.js");
    const { captureIo, tempDir } = await import("./fixtures.js");
    const c = captureIo(SEEDS, { USER_SPACE: tempDir() });
    const systems = ["rye-2026-02/system", "rye-2026-04/core"].flatMap((r) => ["--system", join(CORPUS, r)]);
    const seeds = ["000_cd848c7605b6640e.txt", "001_485d7ed17388fba2.txt", "004_0e862539f4d3adcf.txt"];
    expect(await run([...systems, "--kind", "knowledge", ...seeds], c.io)).toBe(0);
    expect(c.out()).toContain("3 of 3 files verified.");
    expect(c.out()).toMatch(/^verified\s+knowledge 004_0e862539f4d3adcf\.txt  signed by 6ea18199041a1ea8 \(github-ci\)/m);
  });
});
