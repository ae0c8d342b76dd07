// The victim's own, validly signed build, then changed on disk: every change is refused where the
// file would be evaluated, and no payload runs.
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeProject, markerRan, node, payload, rye, tempDir, writeApp } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

describe("a signed build changed after signing", () => {
  const base = tempDir();
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const out = join(project, "out");
  const greet = join(out, "directives", "examples", "greet.js");
  const count = join(out, "directives", "examples", "count_words.js");
  const tool = join(out, "tools", "examples", "word_count.js");
  const originals = new Map<string, Buffer>();
  let expected = "";

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    writeApp(project);
    for (const f of [greet, count, tool]) originals.set(f, readFileSync(f));
    // The untouched build renders under the loader: the refusals below are about the changes.
    const ok = node(project, env, "--import", "rye-build/register", "app.mjs");
    expect(ok.status, ok.stderr).toBe(0);
    expected = ok.stdout;
    expect(JSON.parse(expected)).toMatchObject({ body: expect.stringContaining("Ada") });
  }, 60_000);

  beforeEach(() => {
    for (const [f, bytes] of originals) writeFileSync(f, bytes);
    rmSync(marker, { force: true });
  });

  function expectLoaderRefuses(item: RegExp) {
    const app = node(project, env, "--import", "rye-build/register", "app.mjs");
    expect(app.status).not.toBe(0);
    expect(app.stderr).toMatch(/IntegrityError/);
    expect(app.stderr).toMatch(item);
    expect(app.stdout).toBe("");
    expect(markerRan(marker)).toBe(false);
    expect(rye(project, env, "verify", "out").status).toBe(1);
  }

  test("rye bundle after an in-place edit of out/ (which a no-op build cannot see): refused, nothing bundled or signed", () => {
    // A second, no-op build once out/ is a second old records a stamp a later build trusts on file metadata alone.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100);
    expect(rye(project, env, "build").status).toBe(0);
    const { atime, mtime } = statSync(greet);
    inject(greet, marker);
    utimesSync(greet, atime, mtime);
    const bundled = rye(project, env, "bundle");
    expect(bundled.status).toBe(1);
    expect(bundled.stderr).toMatch(/does not verify, so it is not bundled:\n.*Differs from the manifest: directives\/examples\/greet\.js \(examples\/greet\)/s);
    expect(existsSync(join(out, "bundle.mjs"))).toBe(false);
    expect(existsSync(join(out, "bundle.mjs.sig"))).toBe(false);
    expect(markerRan(marker)).toBe(false);
  });

  test("a tampered module: the loader refuses it at import time, naming the item", () => {
    inject(greet, marker);
    expectLoaderRefuses(/Content modified since signing: examples\/greet/);
  });

  test("a module with its own check deleted is refused the same way", () => {
    writeFileSync(greet, readFileSync(greet, "utf8").replace(/^.*ensureIntegrity.*$/gm, ""));
    inject(greet, marker);
    expectLoaderRefuses(/Content modified since signing: examples\/greet/);
  });

  test("two validly signed modules swapped: each is bound to its path and item, so the swap is refused", () => {
    copyFileSync(count, greet);
    writeFileSync(count, originals.get(greet)!);
    expectLoaderRefuses(/Content modified since signing: examples\/(greet|count_words)/);
  });

  test("an unlisted file in the output folder is refused when imported", () => {
    writeFileSync(join(project, "extra.mjs"), `import "./out/directives/examples/extra.js";\n`);
    writeFileSync(join(out, "directives", "examples", "extra.js"), payload(marker));
    const app = node(project, env, "--import", "rye-build/register", "extra.mjs");
    expect(app.status).not.toBe(0);
    expect(app.stderr).toMatch(/Not listed in the signed manifest/);
    expect(markerRan(marker)).toBe(false);
    expect(rye(project, env, "verify", "out").stdout).toMatch(/^unlisted +module +out\/directives\/examples\/extra\.js/m);
    rmSync(join(out, "directives", "examples", "extra.js"));
  });

  test("a CommonJS file planted in out/: refused by require() and by import, before any of it runs", () => {
    const planted = join(out, "directives", "examples", "planted.cjs");
    writeFileSync(planted, `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "payload ran");\nmodule.exports = 1;\n`);
    writeFileSync(join(project, "planted-require.cjs"), `require("./out/directives/examples/planted.cjs");\n`);
    writeFileSync(join(project, "planted-import.mjs"), `import "./out/directives/examples/planted.cjs";\n`);
    try {
      for (const app of ["planted-require.cjs", "planted-import.mjs"]) {
        const r = node(project, env, "--import", "rye-build/register", app);
        expect(r.status, app).not.toBe(0);
        expect(r.stderr, app).toMatch(/Not listed in the signed manifest/);
        expect(markerRan(marker), app).toBe(false);
      }
      // Without the loader the same file runs: the refusals above are the loader's.
      expect(node(project, env, "planted-require.cjs").status).toBe(0);
      expect(markerRan(marker)).toBe(true);
    } finally {
      rmSync(planted);
    }
  });

  test("the manifest deleted: nothing of the folder loads; with the folder pinned in RYE_OUTPUT_DIRS, not even files stripped of every marker", () => {
    const manifest = join(out, "manifest.json");
    const saved = readFileSync(manifest);
    rmSync(manifest);
    try {
      inject(greet, marker);
      const app = node(project, env, "--import", "rye-build/register", "app.mjs");
      expect(app.status).not.toBe(0);
      expect(app.stderr).toMatch(/was written by rye build but no signed manifest\.json vouches for it/);
      expect(markerRan(marker)).toBe(false);
      // Every file of out/ stripped of its signature line and header: ordinary code, unless the folder is pinned.
      const stripped = new Map<string, Buffer>();
      for (const f of [join(out, "index.js"), greet]) {
        stripped.set(f, readFileSync(f));
        writeFileSync(f, readFileSync(f, "utf8").replace(/^\/\/ rye:signed:.*\n/, "").replace(/^.*@generated by rye build.*$/gm, ""));
      }
      const pinned = node(project, { ...env, RYE_OUTPUT_DIRS: out }, "--import", "rye-build/register", "app.mjs");
      for (const [f, bytes] of stripped) writeFileSync(f, bytes);
      expect(pinned.status).not.toBe(0);
      expect(pinned.stderr).toMatch(/out\/manifest\.json cannot be loaded: it does not exist/);
      expect(markerRan(marker)).toBe(false);
    } finally {
      writeFileSync(manifest, saved);
    }
  });

  test("a module replaced between import and first render: the verified bytes already loaded are the ones that render", () => {
    const late = join(project, "late.mjs");
    const replacement = payload(marker) + "export function render() { return 'replaced'; }\n";
    writeFileSync(late, `import { writeFileSync } from "node:fs";
import { directives } from "./out/index.js";
writeFileSync(${JSON.stringify(greet)}, ${JSON.stringify(replacement)});
let shown;
try { shown = JSON.stringify(directives["examples/greet"].render({ name: "Ada" })); } catch (e) { shown = e.name; }
console.log(shown);
`);
    const app = node(project, env, "--import", "rye-build/register", "late.mjs");
    expect(markerRan(marker)).toBe(false);
    expect(app.stdout).not.toContain("replaced");
    expect(app.stdout).toBe(expected);
  });

  test("rye run tool verifies the tool module and everything it imports from out/ before any of it runs", () => {
    inject(tool, marker);
    const r = rye(project, env, "run", "tool", "examples/word_count", "--dry-run");
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "error", error: expect.stringContaining("Content modified since signing: examples/word_count") });
    expect(markerRan(marker)).toBe(false);
    // Deeper in the import graph: a runtime file the tool reaches.
    writeFileSync(tool, originals.get(tool)!);
    const runtime = join(out, "runtime", "exec", "run-tool.js");
    const saved = readFileSync(runtime);
    inject(runtime, marker);
    const deep = rye(project, env, "run", "tool", "examples/word_count", "--dry-run");
    writeFileSync(runtime, saved);
    expect(deep.status).toBe(1);
    expect(JSON.parse(deep.stdout).error).toContain("Content modified since signing: runtime/exec/run-tool.js");
    expect(markerRan(marker)).toBe(false);
    // Untouched, it runs.
    expect(rye(project, env, "run", "tool", "examples/word_count", "--dry-run").status).toBe(0);
  });

  test("rye run tool: a tool module replaced by a symbolic link (to a payload, a linked folder, another build's file) is refused before any of it runs", () => {
    // Node imports a link's target: rye checks the path it asked for, so a link inside out/ is refused.
    const evil = join(base, "evil-tools");
    const other = join(base, "other-out");
    mkdirSync(evil, { recursive: true });
    const fake = `${payload(marker)}export const id = "pwn";\nexport async function execute() { return { status: "success" }; }\n`;
    writeFileSync(join(evil, "word_count.js"), fake);
    cpSync(join(out, "tools", "examples"), join(evil, "examples"), { recursive: true });
    writeFileSync(join(evil, "examples", "word_count.js"), fake);
    rmSync(other, { recursive: true, force: true });
    cpSync(out, other, { recursive: true });
    const examples = join(out, "tools", "examples");
    const links: Record<string, [at: string, target: string]> = {
      relative: [tool, relative(dirname(tool), join(evil, "word_count.js"))],
      absolute: [tool, join(evil, "word_count.js")],
      "linked folder": [examples, join(evil, "examples")],
      "another output folder's other item, same key": [tool, join(other, "directives", "examples", "greet.js")],
    };
    for (const [kind, [at, target]] of Object.entries(links)) {
      renameSync(at, `${at}.saved`);
      symlinkSync(target, at);
      rmSync(marker, { force: true });
      let r;
      try {
        r = rye(project, env, "run", "tool", "examples/word_count", "--dry-run");
      } finally {
        rmSync(at);
        renameSync(`${at}.saved`, at);
      }
      expect(r.status, kind).toBe(1);
      expect(JSON.parse(r.stdout).error, kind).toMatch(/is a symbolic link inside the build output folder/);
      expect(markerRan(marker), kind).toBe(false);
    }
    // Untouched, it runs.
    expect(rye(project, env, "run", "tool", "examples/word_count", "--dry-run").status).toBe(0);
  });
});
