// Vite's dev server evaluates SSR modules itself (`server.ssrLoadModule`): its ESModulesEvaluator
// compiles each transformed module with `new AsyncFunction(…)`, past Node's loader hooks. Under
// `--import rye-build/register`, output evaluated that way without the rye-build/vite plugin is
// refused, even when a tampered build hides the name Vite gives each module; with the plugin the
// verified build runs and a tampered module is refused. Each row runs a real Vite server.
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { outsideOf } from "../helpers/outside.js";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeProject, markerRan, node, REPO, rye, tempDir } from "./helpers.js";

/** A Vite server in middleware mode that SSR-loads out/index.js and prints its render; `plugin` adds ryeVerify(). */
const SSR = (plugin: boolean, entry = "/out/index.js") => `import { createServer } from "vite";
import { ryeVerify } from "rye-build/vite";
const server = await createServer({ root: process.cwd(), configFile: false, logLevel: "silent", appType: "custom", plugins: ${plugin ? "[ryeVerify()]" : "[]"},
  server: { middlewareMode: true, hmr: false, ws: false }, optimizeDeps: { noDiscovery: true, include: [] } });
try {
  const m = await server.ssrLoadModule(${JSON.stringify(entry)});
  console.log(JSON.stringify(m.directives["examples/greet"].render({ name: "Ada" })));
} finally {
  await server.close();
}
`;

/** Two servers in one process: the first with the plugin (which marks the process), the second, which loads, without. */
const TWO_SERVERS = `import { createServer } from "vite";
import { ryeVerify } from "rye-build/vite";
const options = (plugins) => ({ root: process.cwd(), configFile: false, logLevel: "silent", appType: "custom", plugins,
  server: { middlewareMode: true, hmr: false, ws: false }, optimizeDeps: { noDiscovery: true, include: [] } });
const verified = await createServer(options([ryeVerify()]));
const bare = await createServer(options([]));
try {
  const m = await bare.ssrLoadModule("/out/index.js");
  console.log(JSON.stringify(m.directives["examples/greet"].render({ name: "Ada" })));
} finally {
  await bare.close();
  await verified.close();
}
`;

/** Vite appends no `sourceURL` to a module whose text already holds this comment. */
const UNNAMED = "\n//# sourceMappingSource=vite-generated\n";

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith(".js")).map((e) => join(e.parentPath, e.name));
}

describe("Vite ssrLoadModule (the dev server's module runner) evaluating build output", () => {
  const base = tempDir("rye-load-vite-ssr-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const out = join(project, "out");
  const greet = join(out, "directives", "examples", "greet.js");
  let expected = "";

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    symlinkSync(join(REPO, "node_modules", "vite"), join(project, "node_modules", "vite"), "dir");
    writeFileSync(join(project, "plain.mjs"), `import * as m from "./out/index.js";\nconsole.log(JSON.stringify(m.directives["examples/greet"].render({ name: "Ada" })));\n`);
    const ok = node(project, env, "--import", "rye-build/register", "plain.mjs");
    expect(ok.status, ok.stderr).toBe(0);
    expected = ok.stdout;
  }, 60_000);

  /** Runs `script` (under the register entry unless `plain`) with the build tampered by `tamper`, restored after. */
  function run(script: string, plain: boolean, tamper: () => void = () => {}) {
    const saved = new Map(jsFiles(out).map((f) => [f, readFileSync(f)]));
    rmSync(marker, { force: true });
    tamper();
    try {
      writeFileSync(join(project, "ssr.mjs"), script);
      const r = node(project, env, ...(plain ? [] : ["--import", "rye-build/register"]), "ssr.mjs");
      return { ...r, all: r.stdout + r.stderr };
    } finally {
      for (const [f, bytes] of saved) writeFileSync(f, bytes);
    }
  }
  const tampered = () => inject(greet, marker);
  /** The payload injected, and every output module made to carry no name Vite could give it. */
  const tamperedUnnamed = () => {
    tampered();
    for (const f of jsFiles(out)) writeFileSync(f, readFileSync(f, "utf8") + UNNAMED);
  };

  test("control: under plain node without the plugin, ssrLoadModule runs the tampered module's payload", () => {
    const r = run(SSR(false), true, tampered);
    expect(r.status, r.all).toBe(0);
    expect(markerRan(marker)).toBe(true);
  }, 60_000);

  test("control: under plain node, Vite names no module of a build whose modules carry its comment", () => {
    const r = run(SSR(false), true, tamperedUnnamed);
    expect(r.status, r.all).toBe(0);
    expect(markerRan(marker)).toBe(true);
  }, 60_000);

  test("the loader without the plugin: the untouched build is refused, naming the fix, not run unverified", () => {
    const r = run(SSR(false), false);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("is build output evaluated by a module runner");
    expect(r.all).toContain("add ryeVerify() from rye-build/vite");
    expect(r.stdout).not.toContain("Ada");
  }, 60_000);

  test("the loader without the plugin: a tampered module is refused and its payload never runs", () => {
    const r = run(SSR(false), false, tampered);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("is build output evaluated by a module runner");
    expect(r.stdout).not.toContain("Ada");
    expect(markerRan(marker)).toBe(false);
  }, 60_000);

  test("the loader without the plugin: a tampered module is refused even when no module carries a sourceURL (named by its import.meta)", () => {
    const r = run(SSR(false, "/out/directives/examples/greet.js"), false, tamperedUnnamed);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain(`${greet} is build output evaluated by a module runner`);
    expect(markerRan(marker)).toBe(false);
    const whole = run(SSR(false), false, tamperedUnnamed);
    expect(whole.status).not.toBe(0);
    expect(whole.all).toContain("is build output evaluated by a module runner");
    expect(markerRan(marker)).toBe(false);
  }, 60_000);

  test("the loader with the plugin: the untouched build renders as a verified import does", () => {
    const r = run(SSR(true), false);
    expect(r.status, r.all).toBe(0);
    expect(r.stdout).toBe(expected);
  }, 60_000);

  test("the loader with the plugin: a tampered module is refused, naming the item, and its payload never runs", () => {
    const r = run(SSR(true), false, tampered);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("Content modified since signing: examples/greet");
    expect(r.stdout).not.toContain("Ada");
    expect(markerRan(marker)).toBe(false);
  }, 60_000);

  test("a second server without the plugin in a process the plugin marked: the tampered module is refused when evaluated", () => {
    const r = run(TWO_SERVERS, false, tampered);
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("Content modified since signing: examples/greet");
    expect(markerRan(marker)).toBe(false);
    // Only the tampered module hides its name: it is still named by the import.meta Vite calls it with.
    const unnamed = run(TWO_SERVERS, false, () => {
      tampered();
      writeFileSync(greet, readFileSync(greet, "utf8") + UNNAMED);
    });
    expect(unnamed.status).not.toBe(0);
    expect(unnamed.all).toContain("Content modified since signing: examples/greet");
    expect(markerRan(marker)).toBe(false);
  }, 60_000);
});
