// Vitest's vm pools (`vmThreads`, `vmForks`) evaluate externalised dependencies themselves: they
// read the file and compile it with `new vm.SourceTextModule(code, { identifier })` (ES modules) or
// `vm.Script` / `vm.compileFunction` (CommonJS), past Node's loader hooks and past the Vite plugin.
// Under `--import rye-build/register`, build output shipped in a dependency is refused there when
// it no longer verifies, and runs when it does. Each row is a real Vitest run.
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { outsideOf } from "../helpers/outside.js";
import { join } from "node:path";
import { NAME_FORMS } from "./function-runner-rows.js";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeProject, markerRan, node, payload, REPO, rye, tempDir } from "./helpers.js";

const VITEST = join(REPO, "node_modules", "vitest", "vitest.mjs");
const config = (plugin: boolean, pool: string) =>
  `${plugin ? `import { ryeVerify } from "rye-build/vite";\n` : ""}export default { ${plugin ? "plugins: [ryeVerify()], " : ""}test: { include: ["t/**/*.test.mjs"], pool: ${JSON.stringify(pool)} } };\n`;

describe("Vitest vm pools evaluating build output shipped in a dependency", () => {
  const base = tempDir("rye-load-vm-modules-");
  const project = makeProject(join(base, "project"));
  const home = join(outsideOf(base), "home");
  const marker = join(base, "PWNED");
  const dep = join(project, "node_modules", "ryedep");
  const greet = join(dep, "out", "directives", "examples", "greet.js");

  beforeAll(() => {
    const built = rye(project, cleanEnv({ USER_SPACE: home }), "build");
    expect(built.status, built.stderr).toBe(0);
    for (const d of ["vitest", "vite"]) symlinkSync(join(REPO, "node_modules", d), join(project, "node_modules", d), "dir");
    mkdirSync(dep);
    cpSync(join(project, "out"), join(dep, "out"), { recursive: true });
    writeFileSync(join(dep, "package.json"), JSON.stringify({ name: "ryedep", type: "module", exports: { ".": "./out/index.js" } }));
    mkdirSync(join(project, "t"));
    writeFileSync(join(project, "t", "dep.test.mjs"), `import { test, expect } from "vitest";
import { directives } from "ryedep";
test("greets", () => { expect(directives["examples/greet"].render({ name: "Ada" }).body).toContain("Ada"); });
`);
  }, 60_000);

  function vitest(plugin: boolean, pool: string, tampered: boolean) {
    writeFileSync(join(project, "vitest.config.mjs"), config(plugin, pool));
    rmSync(marker, { force: true });
    const saved = readFileSync(greet);
    if (tampered) inject(greet, marker);
    try {
      const env = cleanEnv({ USER_SPACE: home, NODE_OPTIONS: "--import rye-build/register" });
      const r = node(project, env, VITEST, "run", "--no-color");
      return { ...r, all: r.stdout + r.stderr };
    } finally {
      writeFileSync(greet, saved);
    }
  }

  const rows = ["vmThreads", "vmForks"].flatMap((pool) => [true, false].map((plugin) => [pool, plugin] as const));

  test.each(rows)("pool %s (plugin: %s): a tampered dependency module is refused and its payload never runs", (pool, plugin) => {
    const r = vitest(plugin, pool, true);
    expect(r.status).not.toBe(0);
    // Without the plugin the first output module the runner reaches (out/index.js) is refused already.
    expect(r.all).toMatch(/node_modules\/ryedep\/out\/\S+\.js/);
    expect(r.all).toMatch(/Content modified since signing|build output evaluated by a module runner/);
    expect(markerRan(marker)).toBe(false);
  }, 120_000);

  test.each(["vmThreads", "vmForks"])("pool %s with the plugin: the untouched dependency runs", (pool) => {
    const r = vitest(true, pool, false);
    expect(r.status, r.all).toBe(0);
    expect(r.all).toMatch(/1 passed/);
  }, 120_000);
});

/** How code reaches the class: the default export's property, or a named import (which the register entry keeps in step). */
const REACH: Record<string, string> = {
  "vm.SourceTextModule": `const { default: vm } = await import("node:vm"); const C = vm.SourceTextModule;`,
  "import { SourceTextModule }": `const { SourceTextModule: C } = await import("node:vm");`,
};

describe("new vm.SourceTextModule(code, { identifier }) naming a file of an output folder", () => {
  const base = tempDir("rye-load-stm-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const greet = join(project, "out", "directives", "examples", "greet.js");

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
  }, 60_000);

  /** Compiles `code` as a module named `identifier` and evaluates it; prints "ran" and whether instanceof holds. */
  function run(reach: string, identifier: string, code: string) {
    writeFileSync(join(project, "stm.mjs"), `${REACH[reach]}
const m = new C(${JSON.stringify(code)}, { identifier: ${JSON.stringify(identifier)} });
// The payload imports node:fs: each import is linked to a module holding the builtin's exports.
const { SyntheticModule } = await import("node:vm");
await m.link(async (specifier) => {
  const ns = await import(specifier);
  return new SyntheticModule(Object.keys(ns), function () { for (const k of Object.keys(ns)) this.setExport(k, ns[k]); });
});
await m.evaluate();
console.log("ran", m instanceof C, m instanceof (await import("node:vm")).default.Module);
`);
    return node(project, env, "--experimental-vm-modules", "--no-warnings", "--import", "rye-build/register", "stm.mjs");
  }

  const rows = Object.keys(REACH).flatMap((reach) => Object.keys(NAME_FORMS).map((form) => [reach, form] as const));

  test.each(rows)("%s, identifier as %s: the payload is refused and never runs", (reach, form) => {
    const marker = join(base, `PWNED-${reach.replace(/\W+/g, "_")}-${form.replace(/\W+/g, "_")}`);
    const r = run(reach, NAME_FORMS[form]!(greet), payload(marker));
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("is build output evaluated by a module runner");
    expect(markerRan(marker)).toBe(false);
  });

  test.each(Object.keys(REACH))("%s naming no output file: compiles, runs, and instanceof holds", (reach) => {
    const r = run(reach, join(project, "elsewhere.mjs"), "export const x = 1;");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe("ran true true");
  });
});
