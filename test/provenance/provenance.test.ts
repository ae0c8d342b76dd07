// Provenance: every compiled module names where it came from, the record an application logs is
// the signed manifest's facts, and rye verify --provenance accepts a true record and refuses one
// with any field altered, or any record once the output no longer verifies.
import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { plainDirective, runRye, tempTree, testUserSpace } from "../helpers/cli.js";
import { PROVENANCE_FIELDS, type Provenance } from "../../src/runtime/provenance.js";
import { readProvenance } from "../../src/runtime/provenance-file.js";

const SOURCE = ".ai/directives/team/greet.md";
// CRLF line ends and a non-ASCII letter: the hash is of the file's bytes, not of a normalised text.
const TEXT = plainDirective("greet", "Say hello to Zoë.").replace(/\n/g, "\r\n");
let dir: string;
let env: NodeJS.ProcessEnv;
let record: Provenance;

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
const recordFile = (r: unknown) => {
  const file = join(dir, `record-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(r));
  return file;
};

beforeAll(async () => {
  dir = tempTree({ [SOURCE]: TEXT });
  // The user space (whose key signs) is outside the project, and its public key pinned, as CI would.
  const user = testUserSpace();
  env = { USER_SPACE: user, RYE_TRUSTED_KEYS: join(user, ".ai/config/keys/signing/public_key.pem"), RYE_BUILD_COUNTER: "7", SOURCE_DATE_EPOCH: "1767225600" };
  const built = await runRye(["build"], dir, env);
  expect(built.code, built.stderr).toBe(0);
  const mod = (await import(pathToFileURL(join(dir, "out/directives/team/greet.js")).href)) as { provenance: Provenance };
  record = readProvenance(join(dir, "out"), mod);
}, 120_000);

describe("the record", () => {
  test("names the item, and the sha256 of its source's bytes as out/manifest/sources.txt lists it", () => {
    const bytes = readFileSync(join(dir, SOURCE));
    expect(record.item).toBe("team/greet");
    expect(record.kind).toBe("directive");
    expect(record.source_sha256).toBe(sha256(bytes));
    const listed = readFileSync(join(dir, "out/manifest/sources.txt"), "utf8").split("\n").find((l) => l.endsWith(` project ${JSON.stringify(SOURCE)}`));
    expect(listed?.slice(0, 64)).toBe(sha256(bytes));
  });

  test("carries the signed root manifest's signer, version and build metadata", () => {
    const root = JSON.parse(readFileSync(join(dir, "out/manifest.json"), "utf8")) as { version: string; generated_at: string; build: { counter: number; sources: string }; signature: string };
    expect(record.signer).toBe(root.signature.split(":").at(-1));
    expect(record.signer).toMatch(/^[a-f0-9]{16}$/);
    expect(record.compiler).toBe(root.version);
    expect(root.build.counter).toBe(7);
    expect(root.build.sources).toBe(sha256(readFileSync(join(dir, "out/manifest/sources.txt"))));
    expect(record.build_id).toBe(`${root.build.sources}/7/${root.generated_at}`);
  });

  test("is a constant of the module, frozen", async () => {
    const mod = (await import(pathToFileURL(join(dir, "out/directives/team/greet.js")).href)) as { provenance: Provenance };
    expect(Object.isFrozen(mod.provenance)).toBe(true);
    expect(Object.keys(mod.provenance)).toEqual(["item", "kind", "source_sha256", "compiler"]);
  });
});

describe("rye verify --provenance", () => {
  test("passes for the true record", async () => {
    const r = await runRye(["verify", "out", "--provenance", recordFile(record)], dir, env);
    expect(r.stdout + r.stderr).toMatch(/verified\s+provenance .* directive team\/greet matches out/);
    expect(r.code).toBe(0);
  });

  test.each(PROVENANCE_FIELDS)("fails, naming the field, when %s is altered", async (field) => {
    const altered = { ...record, [field]: field === "kind" ? "knowledge" : `${record[field]}x` };
    const r = await runRye(["verify", "out", "--provenance", recordFile(altered)], dir, env);
    expect(r.code).toBe(1);
    // A record of another item finds no such item, and one of another kind names the kind; any other field is compared.
    expect(r.stdout).toContain(`field "${field}"`);
  });

  test("fails on tampered output before comparing anything", async () => {
    const copy = tempTree({ [SOURCE]: TEXT });
    expect((await runRye(["build"], copy, env)).code).toBe(0);
    appendFileSync(join(copy, "out/directives/team/greet.js"), "\n// tampered\n");
    const r = await runRye(["verify", "out", "--provenance", recordFile(record)], copy, env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/modified/);
    expect(r.stderr).toContain("was not compared: the output did not verify");
    expect(r.stdout).not.toContain("field");
  }, 120_000);
});

describe("a bundle", () => {
  test("prints the same record from rye run, and verify --provenance checks it against the bundle", async () => {
    const bundled = await runRye(["bundle"], dir, env);
    expect(bundled.code, bundled.stderr).toBe(0);
    const run = await runRye(["run", "out/bundle.mjs", "directive", "team/greet"], dir, env);
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { provenance: Provenance };
    expect(printed.provenance).toEqual(record);
    const file = recordFile(printed);
    expect((await runRye(["verify", "out/bundle.mjs", "--provenance", file], dir, env)).code).toBe(0);
    const altered = await runRye(["verify", "out/bundle.mjs", "--provenance", recordFile({ ...record, source_sha256: "0".repeat(64) })], dir, env);
    expect(altered.code).toBe(1);
    expect(altered.stdout).toContain('field "source_sha256" differs from out/bundle.mjs');
  }, 180_000);
});

describe("an incremental rebuild", () => {
  test("of one edited source rewrites that item's module, and not another item's", async () => {
    const other = ".ai/directives/team/other.md";
    const proj = tempTree({ [SOURCE]: TEXT, [other]: plainDirective("other") });
    expect((await runRye(["build"], proj, env)).code).toBe(0);
    const files = (id: string) => [`out/directives/team/${id}.js`, `out/directives/team/${id}.d.ts`].map((f) => join(proj, f));
    const before = new Map([...files("greet"), ...files("other")].map((f) => [f, readFileSync(f, "utf8")]));
    const { mtimeMs } = statSync(files("other")[0]!);
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(join(proj, SOURCE), TEXT.replace("Zoë", "Zoé"));
    expect((await runRye(["build"], proj, env)).code).toBe(0);
    expect(statSync(files("other")[0]!).mtimeMs).toBe(mtimeMs);
    for (const f of files("other")) expect(readFileSync(f, "utf8")).toBe(before.get(f));
    const js = readFileSync(files("greet")[0]!, "utf8");
    expect(js).not.toBe(before.get(files("greet")[0]!));
    expect(js).toContain(`source_sha256:"${sha256(readFileSync(join(proj, SOURCE)))}"`);
    expect((await runRye(["verify", "out"], proj, env)).code).toBe(0);
  }, 120_000);
});

describe("rye test --json", () => {
  test("reports each case's item provenance when it tests built output", async () => {
    const proj = tempTree({ [SOURCE]: TEXT, ".ai/tests/directives/team/greet.test.yaml": "cases:\n  - name: says hello\n    expect:\n      body:\n        contains: Zoë\n" });
    expect((await runRye(["build"], proj, env)).code).toBe(0);
    // Built output loads through Node's verifying loader: the command runs in a process of its own.
    const r = spawnSync(process.execPath, [fileURLToPath(new URL("../../bin/rye.js", import.meta.url)), "test", "--out", "out", "--json"], { cwd: proj, env: { ...env, PATH: process.env.PATH }, encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { results: { name: string; provenance?: Provenance }[] };
    const mod = (await import(pathToFileURL(join(proj, "out/directives/team/greet.js")).href)) as { provenance: Provenance };
    expect(report.results.map((x) => x.provenance)).toEqual([readProvenance(join(proj, "out"), mod)]);
    expect(report.results[0]!.provenance!.source_sha256).toBe(sha256(readFileSync(join(proj, SOURCE))));
    const file = recordFile(report.results[0]!.provenance);
    expect((await runRye(["verify", "out", "--provenance", file], proj, env)).code).toBe(0);
  }, 120_000);
});
