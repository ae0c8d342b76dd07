// Freshness covers every input of an output, not only its sources (decisions.md #26): the signed
// root names the compiler that made it (its version, a hash of its code and one of the runtime it
// copies into out/) and the options that change its bytes, and `rye verify --current` compares all
// of it with what the compiler installed now would build. An older compiler is simulated for real:
// a copy of this package whose code, or whose runtime, differs by a byte, run as its own process.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { verify } from "../../src/index.js";
import { compilerIdentity, type CompilerIdentity, type OutputOptions } from "../../src/sign/compiler-identity.js";
import { sha256Hex } from "../../src/sign/hash-region.js";
import { generateKeyPair, signingKeyFrom } from "../../src/sign/keys.js";
import { manifestFiles, signManifest, LEGACY_FORMAT } from "../../src/sign/sign-manifest.js";
import { MODULE_SCOPE } from "../../src/output/private-module-folder.js";
import { signModule } from "../../src/sign/sign-module.js";
import { sourceListText } from "../../src/sign/source-tree.js";
import { createTrustStore } from "../../src/sign/trust-store.js";
import { cleanEnv, payload, REPO, rye, tempDir, type Ran } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const GREET = join(".ai", "directives", "examples", "greet.md");

/** A copy of this compiler as installed elsewhere, changed by `change` (an older or patched build). */
function otherCompiler(base: string, name: string, change: (dist: string) => void): string {
  const root = join(base, name);
  mkdirSync(root, { recursive: true });
  for (const part of ["bin", "dist", "package.json", "schema"]) if (existsSync(join(REPO, part))) cpSync(join(REPO, part), join(root, part), { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(root, "node_modules"), "dir");
  change(join(root, "dist"));
  return join(root, "bin", "rye.js");
}

function ryeWith(bin: string, cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Ran {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function project(base: string): { root: string; env: NodeJS.ProcessEnv } {
  const root = join(base, "proj");
  mkdirSync(dirname(join(root, GREET)), { recursive: true });
  cpSync(join(REPO, GREET), join(root, GREET));
  writeFileSync(join(root, "package.json"), '{ "type": "module", "private": true }\n');
  return { root, env: cleanEnv({ USER_SPACE: join(outsideOf(base), "home") }) };
}

describe("output of another compiler, from the very sources the project holds now", () => {
  const base = tempDir("rye-fresh-compiler-");
  const marker = join(base, "older-runtime-ran");
  const p = project(base);
  // An older compiler whose runtime does something this one's does not; and one whose code differs.
  const olderRuntime = otherCompiler(base, "older-runtime", (dist) => {
    const file = join(dist, "runtime", "directive.js");
    writeFileSync(file, `${readFileSync(file, "utf8")}\n${payload(marker)}`);
  });
  const olderCode = otherCompiler(base, "older-code", (dist) => {
    const file = join(dist, "cli-bundle", "main.mjs");
    writeFileSync(file, `${readFileSync(file, "utf8")}\n// a build of other sources\n`);
  });

  test.each([
    ["runtime", olderRuntime, /runtime carried in the output: sha256 [0-9a-f]{64} when built, [0-9a-f]{64} from the compiler installed now$/m],
    ["code", olderCode, /compiler code: sha256 [0-9a-f]{64} when built, [0-9a-f]{64} installed now$/m],
  ])("a compiler whose %s differs: plain verify accepts it, --current refuses it naming what differs; the CI chain imports nothing", (_, bin, named) => {
    const built = ryeWith(bin, p.root, p.env, "build");
    expect(built.status, built.stderr).toBe(0);
    expect(rye(p.root, p.env, "verify", "out").status).toBe(0);
    const r = rye(p.root, p.env, "verify", "--current", "out");
    expect(r.status, r.stdout).toBe(1);
    expect(r.stdout).toContain("Not built by the compiler installed now with the options of a build now: out/manifest.json differs in");
    expect(r.stdout).toMatch(named);
    expect(r.stdout).toContain("Fix: rebuild with rye build");
    // The sources are the same: only the compiler is named.
    expect(r.stdout).not.toContain("Not built from the current sources");
    // What a CI job runs: verify, then import. The import never happens, so the older runtime never runs.
    const ci = spawnSync("sh", ["-c", `"${process.execPath}" "${join(REPO, "bin", "rye.js")}" verify --current out && "${process.execPath}" -e 'await import("./out/index.js")' --input-type=module`], { cwd: p.root, env: p.env, encoding: "utf8", timeout: 60_000 });
    expect(ci.status).not.toBe(0);
    expect(existsSync(marker)).toBe(false);
    // Rebuilt by the compiler installed now, it is current again.
    expect(rye(p.root, p.env, "build").status).toBe(0);
    const ok = rye(p.root, p.env, "verify", "--current", "out");
    expect(ok.status, ok.stdout).toBe(0);
  });

  test("the payload is real: the older runtime's output, imported without verifying, runs it", () => {
    expect(ryeWith(olderRuntime, p.root, p.env, "build").status).toBe(0);
    spawnSync(process.execPath, ["--input-type=module", "-e", 'await import("./out/index.js")'], { cwd: p.root, env: p.env, encoding: "utf8", timeout: 60_000 });
    expect(existsSync(marker)).toBe(true);
  });
});

describe("options that change the output", () => {
  test("--emit-ts: built with it, refused by --current (a build now is without it); built without, accepted", () => {
    const p = project(tempDir("rye-fresh-opt-"));
    expect(rye(p.root, p.env, "build", "--emit-ts").status).toBe(0);
    const r = rye(p.root, p.env, "verify", "--current", "out");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("  option --emit-ts: on when built, off now");
    // Named as the build had it, the same output is current; without it, output built plainly is not.
    expect(rye(p.root, p.env, "verify", "--current", "--emit-ts", "out").status).toBe(0);
    expect(rye(p.root, p.env, "build").status).toBe(0);
    expect(rye(p.root, p.env, "verify", "--current", "--emit-ts", "out").status).toBe(1);
    expect(rye(p.root, p.env, "verify", "--current", "out").status).toBe(0);
  });

  test("an output folder moved elsewhere in the project: its declaration map points at the wrong root, refused", () => {
    const p = project(tempDir("rye-fresh-move-"));
    expect(rye(p.root, p.env, "build", "--out", "build/out").status).toBe(0);
    expect(rye(p.root, p.env, "verify", "--current", "--project", ".", "build/out").status).toBe(0);
    renameSync(join(p.root, "build", "out"), join(p.root, "out"));
    const r = rye(p.root, p.env, "verify", "--current", "out");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`  output folder's place in the project (declaration map source root): "../../" when built, "../" now`);
  });
});

describe("every component of the build identity, in-process: changing any is refused, changing none passes", () => {
  const key = signingKeyFrom(generateKeyPair().privatePem);
  const trust = createTrustStore([{ fingerprint: key.fingerprint, owner: "t", publicPem: key.publicPem, source: "test" }]);
  const base = tempDir("rye-fresh-id-");
  const project = join(base, "p");
  const directive = "# A\n";
  mkdirSync(join(project, ".ai", "directives", "x"), { recursive: true });
  writeFileSync(join(project, ".ai", "directives", "x", "a.md"), directive);
  const listNow = sourceListText([{ space: "project", path: ".ai/directives/x/a.md", sha256: sha256Hex(directive) }]);
  const now = compilerIdentity();
  const other = (h: string) => sha256Hex(`other ${h}`);

  type Component = "sources" | "version" | "code" | "runtime" | "emitTs" | "sourceRoot";
  const COMPONENTS: Component[] = ["sources", "version", "code", "runtime", "emitTs", "sourceRoot"];
  const NAMED: Record<Component, RegExp> = {
    sources: /changed since the build: project \.ai\/directives\/x\/a\.md/,
    version: /compiler version: 0\.0\.9 when built, \S+ installed now/,
    code: /compiler code: sha256 \w+ when built, \w+ installed now/,
    runtime: /runtime carried in the output: sha256 \w+ when built/,
    emitTs: /option --emit-ts: on when built, off now/,
    sourceRoot: /declaration map source root\): "\.\.\/\.\.\/" when built, "\.\.\/" now/,
  };

  /** out/ of `project`, signed with every component as a build now would sign it except those in `changed`. */
  function output(dir: string, changed: ReadonlySet<Component>): string {
    const list = changed.has("sources") ? sourceListText([{ space: "project", path: ".ai/directives/x/a.md", sha256: sha256Hex("# older A\n") }]) : listNow;
    const compiler: CompilerIdentity = {
      version: changed.has("version") ? "0.0.9" : now.version,
      code: changed.has("code") ? other(now.code) : now.code,
      runtime: changed.has("runtime") ? other(now.runtime) : now.runtime,
    };
    const options: OutputOptions = { emitTs: changed.has("emitTs"), sourceRoot: changed.has("sourceRoot") ? "../../" : "../" };
    const module = signModule("export const a = 1;\n", key, "2026-01-01T00:00:00Z");
    // With the package.json every build writes and binds.
    const files = new Map([["d/a.js", module], ["package.json", MODULE_SCOPE]]);
    const header = { version: compiler.version, generated_at: "2026-01-01T00:00:00Z", build: { counter: 0, sources: sha256Hex(list), compiler, options }, sourceList: list };
    for (const [path, text] of manifestFiles([...files].map(([p, t]) => [p, sha256Hex(t)] as const), () => undefined, header, key)) files.set(path, text);
    for (const [path, text] of files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  // Every subset of the six components: 64 outputs.
  const subsets = Array.from({ length: 1 << COMPONENTS.length }, (_, bits) => new Set(COMPONENTS.filter((_, i) => bits & (1 << i))));

  test.each(subsets.map((s) => [[...s].join("+") || "nothing", s] as const))("changed: %s", async (_, changed) => {
    const out = output(join(project, "out"), changed);
    const r = await verify(out, { trust, current: { project }, env: { USER_SPACE: join(base, "no-user-space") } });
    // Every file verifies whatever changed: only freshness can refuse.
    expect(r.output!.files.filter((f) => f.status !== "verified")).toEqual([]);
    expect(r.ok, r.problems.join("\n")).toBe(changed.size === 0);
    const text = r.problems.join("\n");
    for (const c of COMPONENTS) expect(NAMED[c].test(text), `${c} in:\n${text}`).toBe(changed.has(c));
    if (changed.size > 0) expect(text).toMatch(/Fix: rebuild with rye build/);
    // Without --current the same output verifies: freshness is asked for.
    expect((await verify(out, { trust, env: { USER_SPACE: join(base, "no-user-space") } })).ok).toBe(true);
  });

  test("a build now with --emit-ts (current.emitTs) accepts output built with it and refuses output built without", async () => {
    const env = { USER_SPACE: join(base, "no-user-space") };
    expect((await verify(output(join(project, "out"), new Set(["emitTs"])), { trust, current: { project, emitTs: true }, env })).ok).toBe(true);
    const r = await verify(output(join(project, "out"), new Set()), { trust, current: { project, emitTs: true }, env });
    expect(r.problems.join("\n")).toMatch(/option --emit-ts: off when built, on now/);
  });

  test("a format 3 root (no compiler named) verifies plainly, and --current refuses it saying why", async () => {
    const out = output(join(base, "legacy", "out"), new Set());
    const root = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    const legacy = { format: LEGACY_FORMAT, version: root.version, generated_at: root.generated_at, build: { counter: 0, sources: root.build.sources }, files: root.files, shards: root.shards };
    writeFileSync(join(out, "manifest.json"), signManifest(legacy, key));
    const env = { USER_SPACE: join(base, "no-user-space") };
    expect((await verify(out, { trust, env })).ok).toBe(true);
    const r = await verify(out, { trust, current: { project: join(base, "legacy") }, env });
    expect(r.ok).toBe(false);
    expect(r.problems.join("\n")).toContain("is output of an older rye (manifest format 3) whose signed metadata does not name the compiler that made it\n  Fix: rebuild with rye build");
  });

  test("editing the signed compiler or options fails the signature", async () => {
    const out = output(join(base, "edited", "out"), new Set());
    const text = readFileSync(join(out, "manifest.json"), "utf8");
    for (const edited of [text.replace(now.code, other(now.code)), text.replace('"emitTs": false', '"emitTs": true'), text.replace('"sourceRoot": "../"', '"sourceRoot": "../../"')]) {
      expect(edited).not.toBe(text);
      writeFileSync(join(out, "manifest.json"), edited);
      const r = await verify(out, { trust });
      expect(r.ok).toBe(false);
      expect(r.problems.join("\n")).toMatch(/manifest/i);
    }
  });
});
