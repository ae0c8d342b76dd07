import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { run as keys } from "../../src/cli/commands/keys.js";
import { run as verify } from "../../src/cli/commands/verify.js";
import { loadSigningKey, signItem, type SigningKey } from "../../src/sign/index.js";
import { writeSignedOutput } from "../helpers/signed-output.js";
import { captureIo, tempDir } from "./fixtures.js";

const TS = "2026-01-01T00:00:00Z";
const DIRECTIVE = '# Hi\n\n```xml\n<directive name="hi" version="1.0.0">\n  <metadata/>\n</directive>\n```\n';

function write(root: string, rel: string, text: string): string {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function keysIn(home: string, ...args: string[]) {
  const c = captureIo(home, { USER_SPACE: home, SOURCE_DATE_EPOCH: "1767225600" });
  const code = await keys(args, c.io);
  return { code, out: c.out(), err: c.err() };
}

/** A user space with a generated, trusted key, and a project signed with it. */
async function setup(): Promise<{ home: string; project: string; key: SigningKey }> {
  const home = tempDir();
  expect((await keysIn(home, "generate")).code).toBe(0);
  expect((await keysIn(home, "trust")).code).toBe(0);
  const key = loadSigningKey(join(home, ".ai", "config", "keys", "signing"));
  const project = tempDir();
  write(project, ".ai/directives/demo/hi.md", signItem(DIRECTIVE, "directive", key, TS, "hi.md"));
  write(project, ".ai/knowledge/demo/notes.md", signItem("Notes\n", "knowledge", key, TS, "notes.md"));
  write(project, ".ai/tools/demo/run.py", signItem("print(1)\n", "tool", key, TS, "run.py"));
  write(project, ".ai/config/demo/c.yaml", signItem("a: 1\n", "config", key, TS, "c.yaml"));
  writeSignedOutput(join(project, "out"), { "demo/hi.js": ["export const ITEM_ID = 'demo/hi';\n", "demo/hi", DIRECTIVE] }, key, TS);
  write(project, "src/own-code.ts", "export const x = 1;\n");
  return { home, project, key };
}

async function verifyIn(cwd: string, home: string, ...args: string[]) {
  const c = captureIo(cwd, { USER_SPACE: home });
  const code = await verify(args, c.io);
  return { code, out: c.out(), err: c.err() };
}

describe("rye keys", () => {
  it("generates a key pair with safe modes, refuses to overwrite, and never prints private material", async () => {
    const home = tempDir();
    const g = await keysIn(home, "generate");
    expect(g.code).toBe(0);
    const dir = join(home, ".ai", "config", "keys", "signing");
    if (process.platform !== "win32") expect(statSync(join(dir, "private_key.pem")).mode & 0o777).toBe(0o600);
    const secret = readFileSync(join(dir, "private_key.pem"), "utf8").split("\n")[1]!;
    expect(g.out + g.err).not.toContain(secret);
    expect(g.out).not.toContain("PRIVATE KEY-----");
    const again = await keysIn(home, "generate");
    expect(again.code).toBe(1);
    expect(again.err).toContain("already exists");
    expect((await keysIn(home, "generate", "--force")).code).toBe(0);

    const s = await keysIn(home, "show");
    expect(s.code).toBe(0);
    expect(s.out.split("\n")[0]).toBe(loadSigningKey(dir).fingerprint);
    expect(s.out).toContain("-----BEGIN PUBLIC KEY-----");
    expect(s.out + s.err).not.toContain("PRIVATE");
  });

  it("honours RYE_SIGNING_KEY_DIR and reports a missing key", async () => {
    const home = tempDir();
    const keyDir = join(tempDir(), "k");
    const c = captureIo(home, { USER_SPACE: home, RYE_SIGNING_KEY_DIR: keyDir });
    expect(await keys(["generate"], c.io)).toBe(0);
    expect(existsSync(join(keyDir, "private_key.pem"))).toBe(true);
    const missing = await keysIn(tempDir(), "show");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("rye keys generate");
  });

  it("trusts a key into a space, signed by the user's key, and trusts a PEM file for another space", async () => {
    const home = tempDir();
    await keysIn(home, "generate");
    const key = loadSigningKey(join(home, ".ai", "config", "keys", "signing"));
    const t = await keysIn(home, "trust", "--owner", "me");
    expect(t.code).toBe(0);
    const path = join(home, ".ai", "config", "keys", "trusted", `${key.fingerprint}.toml`);
    expect(readFileSync(path, "utf8")).toMatch(/^# rye:signed:2026-01-01T00:00:00Z:[0-9a-f]{64}:\S+:[0-9a-f]{16}\nversion = "1.0.0"\n[\s\S]*owner = "me"/);

    const other = tempDir();
    await keysIn(other, "generate");
    const pemFile = join(other, ".ai", "config", "keys", "signing", "public_key.pem");
    const project = tempDir();
    expect((await keysIn(home, "trust", "--space", project, pemFile)).code).toBe(0);
    expect(existsSync(join(project, ".ai", "config", "keys", "trusted"))).toBe(true);
  });

  it.skipIf(process.platform === "win32")("refuses to sign with a private key readable by others", async () => {
    const home = tempDir();
    await keysIn(home, "generate");
    chmodSync(join(home, ".ai", "config", "keys", "signing", "private_key.pem"), 0o644);
    const t = await keysIn(home, "trust");
    expect(t.code).toBe(1);
    expect(t.err).toMatch(/accessible by group or others \(mode 0644\)\. Run: chmod 600/);
  });

  it("rejects unknown subcommands and options with exit code 2", async () => {
    const home = tempDir();
    expect((await keysIn(home)).code).toBe(2);
    expect((await keysIn(home, "renew")).code).toBe(2);
    expect((await keysIn(home, "generate", "--nope")).code).toBe(2);
  });
});

describe("rye verify", () => {
  it("walks a project: items, generated modules and the manifest verify; other code is not picked up", async () => {
    const { home, project } = await setup();
    const r = await verifyIn(project, home);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    // Four sources, then the output folder (its manifest, shard, module and package.json) in one line.
    expect(lines.at(-1)).toBe("8 of 8 files verified.");
    expect(lines).toHaveLength(6);
    // Sources name the store that vouched for their key; build output names its anchor.
    expect(r.out).toMatch(/^verified\s+directive\s+\.ai\/directives\/demo\/hi\.md  signed by [0-9a-f]{16} \(local\), hash matches, key trusted by the user store, signature valid$/m);
    expect(r.out).toMatch(/^verified\s+manifest\s+out\/manifest\.json  signed by [0-9a-f]{16} \[trusted via this machine's signing key\], hash matches, key trusted, signature valid; 3 of 3 files verified$/m);
    expect(r.out).not.toContain("own-code");
    expect(r.out).not.toMatch(/^verified\s+module/m);
    // --verbose: every file of the output folder on its own line too.
    const verbose = await verifyIn(project, home, "--verbose");
    expect(verbose.out).toMatch(/^verified\s+module\s+out\/demo\/hi\.js  sha256 matches \(listed in out\/manifest\.json\), signed by [0-9a-f]{16} \[trusted via this machine's signing key\]$/m);
    expect(verbose.out).toMatch(/^verified\s+shard\s+out\/manifest\/demo\.json  sha256 matches/m);
    expect(verbose.out.trim().split("\n").at(-1)).toBe("8 of 8 files verified.");
  });

  it("reports each failure with the original's message and exits 1", async () => {
    const { home, project } = await setup();
    const tool = join(project, ".ai/tools/demo/run.py");
    writeFileSync(tool, readFileSync(tool, "utf8").replace("print(1)", "print(2)"));
    write(project, ".ai/tools/demo/new.py", "print(3)\n");
    const mod = join(project, "out/demo/hi.js");
    writeFileSync(mod, readFileSync(mod, "utf8") + "// extra\n");
    const r = await verifyIn(project, home, ".ai", "out/demo/hi.js", "--require-signed-sources");
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^modified\s+tool\s+\.ai\/tools\/demo\/run\.py  signed by .*hash differs, key trusted by the user store, signature valid$/m);
    expect(r.out).toContain("    Content modified since signing: .ai/tools/demo/run.py\n      Expected hash: ");
    expect(r.out).toContain("      Fix: Re-sign after editing:\n        rye sign tool:demo/run\n");
    expect(r.out).toContain("    Unsigned item: .ai/tools/demo/new.py\n      Kind: tool\n");
    expect(r.out).toMatch(/^modified\s+module\s+out\/demo\/hi\.js/m);
    expect(r.out).toMatch(/Differs from the manifest: demo\/hi\.js \(demo\/hi\)/);
    // The two sources and the module; the manifest itself still verifies and is not counted again.
    expect(r.out.trim().split("\n").at(-1)).toBe("6 of 9 files verified, 3 failed.");
  });

  it("an unsigned source is reported as unsigned and accepted, unless --require-signed-sources is given", async () => {
    const { home, project } = await setup();
    write(project, ".ai/tools/demo/new.py", "print(3)\n");
    const r = await verifyIn(project, home, ".ai");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^unsigned\s+tool\s+\.ai\/tools\/demo\/new\.py  not signed$/m);
    expect(r.out).not.toContain("Unsigned item:");
    expect(r.out.trim().split("\n").at(-1)).toMatch(/^\d+ of \d+ files verified, 1 unsigned source accepted \(rye sign signs them; --require-signed-sources refuses them\)\.$/);
    const strict = await verifyIn(project, home, ".ai", "--require-signed-sources");
    expect(strict.code).toBe(1);
    expect(strict.out).toContain("    Unsigned item: .ai/tools/demo/new.py\n      Kind: tool\n");
    expect(strict.out.trim().split("\n").at(-1)).toMatch(/, 1 failed\.$/);
    const json = JSON.parse((await verifyIn(project, home, ".ai", "--json")).out) as { path: string; status: string; ok: boolean }[];
    expect(json.find((l) => l.path.endsWith("new.py"))).toMatchObject({ status: "unsigned", ok: true });
  });

  it("one edited module of an output folder is one failed file, named on its own line; the manifest's row stays verified", async () => {
    const { home, project } = await setup();
    const mod = join(project, "out/demo/hi.js");
    writeFileSync(mod, readFileSync(mod, "utf8").replace("export", "export /* edited */"));
    const r = await verifyIn(project, home, "out");
    expect(r.code).toBe(1);
    const lines = r.out.trim().split("\n");
    // manifest.json, the shard of demo/, package.json and the module: four files, one of them failed.
    expect(lines.at(-1)).toBe("3 of 4 files verified, 1 failed.");
    expect(r.out).toMatch(/^verified\s+manifest\s+out\/manifest\.json  signed by [0-9a-f]{16} .*signature valid; 2 of 3 files verified$/m);
    expect(lines.filter((l) => /^[a-z]/.test(l) && !l.startsWith("verified"))).toEqual([expect.stringMatching(/^modified\s+module\s+out\/demo\/hi\.js  sha256 differs \(listed in out\/manifest\.json\)/)]);
    expect(r.out).toContain("    Content modified since signing: out/demo/hi.js (demo/hi)\n");
    // A manifest that fails its own check is the one failed file: its files cannot be checked against it.
    writeFileSync(join(project, "out/manifest.json"), readFileSync(join(project, "out/manifest.json"), "utf8").replace('"version"', '"version" '));
    const broken = await verifyIn(project, home, "out");
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/^modified\s+manifest\s+out\/manifest\.json /m);
    expect(broken.out.trim().split("\n").at(-1)).toBe("0 of 1 files verified, 1 failed.");
  });

  it("reports items signed by a key no space trusts, and uses --system spaces", async () => {
    const { home, project } = await setup();
    const stranger = tempDir();
    const untrusted = await verifyIn(project, stranger, ".ai/directives");
    expect(untrusted.code).toBe(1);
    expect(untrusted.out).toMatch(/^untrusted\s+directive .* key not trusted, signature not checked\n    Untrusted key [0-9a-f]{16} for \.ai\/directives\/demo\/hi\.md\n      Item signed by: [0-9a-f]{16}\n      Trusted keys: none\n/);
    const viaSystem = await verifyIn(project, stranger, "--system", home, ".ai/directives");
    expect(viaSystem.code).toBe(0);
  });

  it("prints JSON with --json and fails on a missing path or an empty selection", async () => {
    const { home, project } = await setup();
    const j = await verifyIn(project, home, "--json", ".ai/knowledge");
    expect(JSON.parse(j.out)).toEqual([
      expect.objectContaining({ path: ".ai/knowledge/demo/notes.md", kind: "knowledge", outcome: "verified", ok: true, hashMatches: true, trusted: true, signatureValid: true, trustedBy: "user" }),
    ]);
    const missing = await verifyIn(project, home, "nope");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("cannot read nope");
    const empty = await verifyIn(tempDir(), home);
    expect(empty.code).toBe(1);
    expect(empty.err).toContain("nothing to verify");
    expect((await verifyIn(project, home, "--bogus")).code).toBe(2);
  });
});

describe("rye sign writes through no link out of the project", () => {
  it("an item that is a link to a file outside is an error, and that file is unchanged", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { runRye, testUserSpace } = await import("../helpers/cli.js");
    const outside = mkdtempSync(join(tmpdir(), "rye-sign-outside-"));
    const victim = join(outside, "victim.md");
    const text = "# victim\n\n```xml\n<directive name=\"victim\" version=\"1.0.0\">\n  <metadata>\n    <description>x</description>\n  </metadata>\n</directive>\n```\n\nBody.\n";
    writeFileSync(victim, text);
    const dir = mkdtempSync(join(tmpdir(), "rye-sign-link-"));
    mkdirSync(join(dir, ".ai", "directives"), { recursive: true });
    symlinkSync(victim, join(dir, ".ai", "directives", "victim.md"));
    const env = { USER_SPACE: testUserSpace() };
    for (const args of [["sign", "--project", dir, ".ai/directives/victim.md"], ["sign", "--project", dir, "directive:victim"]]) {
      const { code, stderr } = await runRye(args, dir, env);
      expect(code).toBe(1);
      expect(stderr).toMatch(/outside the project/);
      expect(readFileSync(victim, "utf8")).toBe(text);
    }
  });
});
