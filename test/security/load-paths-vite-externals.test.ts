// An SSR build leaves dependencies external: Node loads them where the bundle runs, past every load
// hook. Which files of a package Node then loads is not one resolution's answer (an entry that
// re-exports ./out/index.js, `import` and `require` conditions that differ, a package it depends on,
// a link), so the rule is by package: a bundle that leaves external a package holding build output
// anywhere in its files, or in a package it depends on, is refused. Each shape below is a real Vite
// SSR build with ryeVerify() over a tampered copy of the output; a build that passed is run, so a
// payload that would have run writes its marker.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { outsideOf } from "../helpers/outside.js";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeGreetProject, markerRan, node, REPO, rye, tempDir } from "./helpers.js";

const BUILD = (noExternal: string[], plugin = true) => `import { build } from "vite";
import { ryeVerify } from "rye-build/vite";
await build({ root: process.cwd(), configFile: false, logLevel: "silent", plugins: ${plugin ? "[ryeVerify()]" : "[]"}, ssr: { noExternal: ${JSON.stringify(noExternal)} },
  build: { ssr: "app-dep.mjs", outDir: "dist-ext", emptyOutDir: true, minify: false } });
`;

/** A package's files (path → text; a `null` text is a link to the project's copy of out/). */
type Files = Record<string, string | null>;
const OUT = null;

/** Package shapes an SSR build leaves external whose output Node would load at run time. */
const SHAPES: Record<string, { imported: string; packages: Record<string, Files> }> = {
  "an entry that re-exports ./out/index.js": {
    imported: "greeter",
    packages: { greeter: { "package.json": JSON.stringify({ name: "greeter", type: "module", main: "./index.js" }), "index.js": `export * from "./out/index.js";\n`, out: OUT } },
  },
  "exports: import to out/, require elsewhere": {
    imported: "greeter",
    packages: {
      greeter: { "package.json": JSON.stringify({ name: "greeter", type: "module", exports: { import: "./out/index.js", require: "./index.cjs" } }), "index.cjs": "module.exports = {};\n", out: OUT },
    },
  },
  "a dist/ entry importing output deep in the package": {
    imported: "greeter",
    packages: {
      greeter: { "package.json": JSON.stringify({ name: "greeter", type: "module", exports: "./dist/index.js" }), "dist/index.js": `export * from "../lib/generated/out/index.js";\n`, "lib/generated/out": OUT },
    },
  },
  "a package without output that depends on one with it": {
    imported: "app-lib",
    packages: {
      "app-lib": { "package.json": JSON.stringify({ name: "app-lib", type: "module", main: "./index.js", dependencies: { greeter: "1.0.0" } }), "index.js": `export * from "greeter";\n` },
      greeter: { "package.json": JSON.stringify({ name: "greeter", type: "module", main: "./index.js" }), "index.js": `export * from "./out/index.js";\n`, out: OUT },
    },
  },
  "a package whose output folder is a link to one elsewhere": {
    imported: "greeter",
    packages: { greeter: { "package.json": JSON.stringify({ name: "greeter", type: "module", main: "./index.js" }), "index.js": `export * from "./out/index.js";\n`, "out@": null } },
  },
};

describe("Vite SSR build leaving external a dependency that holds rye output", () => {
  const base = tempDir("rye-load-vite-ext-");
  const project = makeGreetProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const vendored = join(base, "vendored-out");
  const modules = join(project, "node_modules");
  let expected = "";

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    symlinkSync(join(REPO, "node_modules", "vite"), join(modules, "vite"), "dir");
    cpSync(join(project, "out"), vendored, { recursive: true });
    writeFileSync(join(project, "plain.mjs"), `import { directives } from "./out/index.js";\nconsole.log(directives["examples/greet"].render({ name: "Ada" }).body);\n`);
    const ok = node(project, env, "--import", "rye-build/register", "plain.mjs");
    expect(ok.status, ok.stderr).toBe(0);
    expected = ok.stdout;
  }, 60_000);

  /** Installs the shape's packages (tampered output when `tamper`), builds with `noExternal`, runs what was built. */
  function build(shape: string, opts: { tamper?: boolean; noExternal?: string[]; plugin?: boolean } = {}) {
    const { imported, packages } = SHAPES[shape]!;
    rmSync(marker, { force: true });
    rmSync(join(project, "dist-ext"), { recursive: true, force: true });
    const installed: string[] = [];
    const outs: string[] = [];
    const saved = readFileSync(join(vendored, "directives", "examples", "greet.js"));
    try {
      for (const [name, files] of Object.entries(packages)) {
        const dir = join(modules, name);
        installed.push(dir);
        for (const [path, text] of Object.entries(files)) {
          const at = join(dir, path.replace(/@$/, ""));
          mkdirSync(dirname(at), { recursive: true });
          if (text === OUT) outs.push(at);
          if (path.endsWith("@")) symlinkSync(vendored, at, "dir");
          else if (text === OUT) cpSync(join(project, "out"), at, { recursive: true });
          else writeFileSync(at, text);
        }
      }
      if (opts.tamper) for (const out of outs) inject(join(out, "directives", "examples", "greet.js"), marker);
      writeFileSync(join(project, "app-dep.mjs"), `import { directives } from ${JSON.stringify(imported)};\nconsole.log(directives["examples/greet"].render({ name: "Ada" }).body);\n`);
      writeFileSync(join(project, "build.mjs"), BUILD(opts.noExternal ?? [], opts.plugin ?? true));
      const b = node(project, env, "build.mjs");
      const ran = existsSync(join(project, "dist-ext", "app-dep.js")) ? node(project, env, join(project, "dist-ext", "app-dep.js")) : null;
      return { ...b, all: b.stdout + b.stderr, ran };
    } finally {
      for (const dir of installed) rmSync(dir, { recursive: true, force: true });
      writeFileSync(join(vendored, "directives", "examples", "greet.js"), saved);
    }
  }

  test("control: without the plugin, the bundle leaves the wrapper package external and runs its tampered output", () => {
    const r = build("an entry that re-exports ./out/index.js", { tamper: true, plugin: false });
    expect(r.status, r.all).toBe(0);
    expect(r.ran?.status).toBe(0);
    expect(markerRan(marker)).toBe(true);
  }, 60_000);

  for (const shape of Object.keys(SHAPES)) {
    test(`${shape}: the build is refused, naming the output folder, and the payload never runs`, () => {
      const r = build(shape, { tamper: true });
      expect(r.status).not.toBe(0);
      expect(r.all).toContain("holds build output");
      expect(r.all).toContain("add \"");
      expect(r.ran).toBeNull();
      expect(markerRan(marker)).toBe(false);
    }, 60_000);
  }

  test("the fix the refusal names (ssr.noExternal) bundles the package verified: untouched it renders, tampered it is refused", () => {
    const ok = build("exports: import to out/, require elsewhere", { noExternal: ["greeter"] });
    expect(ok.status, ok.all).toBe(0);
    expect(ok.ran?.stdout).toBe(expected);
    const bad = build("exports: import to out/, require elsewhere", { tamper: true, noExternal: ["greeter"] });
    expect(bad.status).not.toBe(0);
    expect(bad.all).toContain("Content modified since signing: examples/greet");
    expect(bad.ran).toBeNull();
    expect(markerRan(marker)).toBe(false);
  }, 90_000);
});
