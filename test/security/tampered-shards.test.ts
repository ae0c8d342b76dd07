// The victim's own, validly signed build with its manifest's shards changed on disk. A shard is not
// signed itself: the signed root binds each one to its folder by sha256, so every change to a shard
// (edited to vouch for a payload, swapped between folders, removed, added) is refused where a file
// of its folder would be evaluated, and by rye verify; no payload runs.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../../src/sign/hash-region.js";
import { shardPath } from "../../src/sign/sign-manifest.js";
import { FORMAT_1_MANIFEST } from "../helpers/signed-output.js";
import { cleanEnv, inject, makeProject, markerRan, node, payload, rye, tempDir, writeApp } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

describe("a signed build whose manifest shards are changed after signing", () => {
  const base = tempDir();
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const out = join(project, "out");
  const greet = join(out, "directives", "examples", "greet.js");
  const directivesShard = join(out, shardPath("directives/examples"));
  const toolsShard = join(out, shardPath("tools/examples"));
  const saved = new Map<string, Buffer>();

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    writeApp(project);
    for (const f of [greet, directivesShard, toolsShard, join(out, "manifest.json")]) saved.set(f, readFileSync(f));
    const ok = node(project, env, "--import", "rye-build/register", "app.mjs");
    expect(ok.status, ok.stderr).toBe(0);
    expect(rye(project, env, "verify", "out").status).toBe(0);
  }, 60_000);

  afterEach(() => {
    for (const [f, bytes] of saved) writeFileSync(f, bytes);
    rmSync(join(out, shardPath("directives/evil")), { force: true });
    rmSync(join(out, "directives", "evil"), { recursive: true, force: true });
    rmSync(marker, { force: true });
  });

  function expectRefused(app: ReturnType<typeof node>, why: RegExp, verifyWhy: RegExp) {
    expect(app.status).not.toBe(0);
    expect(app.stderr).toMatch(/IntegrityError/);
    expect(app.stderr).toMatch(why);
    expect(app.stdout).toBe("");
    expect(markerRan(marker)).toBe(false);
    const verified = rye(project, env, "verify", "out");
    expect(verified.status).toBe(1);
    expect(verified.stdout).toMatch(verifyWhy);
  }

  test("a shard edited to vouch for a tampered module: its bytes no longer match the root, so nothing of its folder loads", () => {
    inject(greet, marker);
    const text = readFileSync(directivesShard, "utf8");
    const before = sha256Hex(saved.get(greet)!);
    expect(text).toContain(before);
    writeFileSync(directivesShard, text.replace(before, sha256Hex(readFileSync(greet))));
    expectRefused(node(project, env, "--import", "rye-build/register", "app.mjs"), /Shard of directives\/examples differs from the signed manifest/, /Differs from the signed manifest: manifest\/directives%2Fexamples\.json \(the shard listing directives\/examples\//);
  });

  test("shards swapped between folders: each is bound to its own folder, so both are refused", () => {
    inject(greet, marker);
    copyFileSync(directivesShard, join(base, "swap"));
    copyFileSync(toolsShard, directivesShard);
    renameSync(join(base, "swap"), toolsShard);
    expectRefused(node(project, env, "--import", "rye-build/register", "app.mjs"), /Shard of directives\/examples differs/, /manifest\/directives%2Fexamples\.json[^\n]*\n[^\n]*manifest\/tools%2Fexamples\.json/);
  });

  test("a shard removed: the files of its folder are vouched for by nothing, and do not load", () => {
    inject(greet, marker);
    rmSync(directivesShard);
    expectRefused(node(project, env, "--import", "rye-build/register", "app.mjs"), /Missing shard of directives\/examples/, /Missing: manifest\/directives%2Fexamples\.json/);
  });

  test("a shard added for a folder the root does not name: the folder's files are unlisted, and refused", () => {
    mkdirSync(join(out, "directives", "evil"), { recursive: true });
    const evil = join(out, "directives", "evil", "x.js");
    writeFileSync(evil, payload(marker));
    const shard = { folder: "directives/evil", files: { "x.js": sha256Hex(readFileSync(evil)) }, items: {} };
    writeFileSync(join(out, shardPath("directives/evil")), `${JSON.stringify(shard, null, 1)}\n`);
    writeFileSync(join(project, "evil.mjs"), `import "./out/directives/evil/x.js";\n`);
    expectRefused(node(project, env, "--import", "rye-build/register", "evil.mjs"), /Not listed in the signed manifest/, /^unlisted +module +out\/manifest\/directives%2Fevil\.json/m);
    expect(rye(project, env, "verify", "out").stdout).toMatch(/^unlisted +module +out\/directives\/evil\/x\.js/m);
  });

  test("a root manifest of the first format: refused with a rebuild message, and nothing loads", () => {
    inject(greet, marker);
    writeFileSync(join(out, "manifest.json"), FORMAT_1_MANIFEST);
    expectRefused(node(project, env, "--import", "rye-build/register", "app.mjs"), /older format than this rye reads/, /older format than this rye reads[^\n]*\n +Fix: rebuild with rye build/);
    expect(existsSync(marker)).toBe(false);
  });
});
