// Vite pre-bundles dependencies in one optimizer per environment (client, ssr, any environment an
// application or framework declares, Vitest's), each a bundle of its own without the application's
// plugins, written to a cache folder in node_modules/.vite and reused while its recorded hashes
// match. The rule: rye-build/vite's check runs in every optimizer the resolved config holds, and no
// optimizer reuses a cache (a checkout can carry one). Each row is a real Vite server (or Vitest run)
// over a dependency shipping rye output: untouched it is pre-bundled and runs; tampered it is refused
// and the payload never runs; a payload planted in the cache a verified run wrote never runs either.
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { outsideOf } from "../helpers/outside.js";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeGreetProject, markerRan, node, REPO, rye, tempDir } from "./helpers.js";
import { VITEST } from "./vitest-project.js";

/** Each optimizer: the config that sends `greeter` through it, the cache folder it writes, and how the app reaches it. */
const OPTIMIZERS = {
  client: { config: `optimizeDeps: { noDiscovery: true, include: ["greeter"] }`, cache: "deps", served: true },
  ssr: { config: `optimizeDeps: { noDiscovery: true, include: [] }, ssr: { noExternal: ["greeter"], optimizeDeps: { include: ["greeter"] } }`, cache: "deps_ssr", served: false },
  "edge (environment API)": {
    config: `optimizeDeps: { noDiscovery: true, include: [] }, environments: { edge: { consumer: "server", resolve: { noExternal: ["greeter"] }, optimizeDeps: { include: ["greeter"] } } }`,
    cache: "deps_edge",
    served: false,
  },
} as const;
type Optimizer = keyof typeof OPTIMIZERS;

/** A dev server whose `which` optimizer pre-bundles greeter; prints what the app got (or the served code's verdict). */
const DEV = (which: Optimizer, plugin = true) => `import { createServer, createServerModuleRunner } from "vite";
import { ryeVerify } from "rye-build/vite";
const server = await createServer({ root: process.cwd(), configFile: false, logLevel: "silent", appType: "custom", plugins: ${plugin ? "[ryeVerify()]" : "[]"},
  server: { middlewareMode: true, hmr: false, ws: false }, ${OPTIMIZERS[which].config} });
try {
  ${
    OPTIMIZERS[which].served
      ? `const dep = await server.transformRequest("/dep.js");
  const url = dep.code.match(/from\\s+"([^"]*greeter[^"]*)"/)[1];
  const r = await server.transformRequest(url);
  console.log(r.code.includes("examples/greet") ? "prebundled" : "missing");
  console.log(r.code.includes("PWNED") ? "PAYLOAD" : "clean");`
      : `const m = ${which === "ssr" ? `await server.ssrLoadModule("/dep.js")` : `await createServerModuleRunner(server.environments.edge, { hmr: false }).import("/dep.js")`};
  console.log(m.greeting);`
  }
} finally {
  await server.close();
}
`;

const VITEST_CONFIG = `import { ryeVerify } from "rye-build/vite";
export default { plugins: [ryeVerify()], test: { include: ["t/**/*.test.mjs"], deps: { optimizer: { ssr: { enabled: true, include: ["greeter"] } } }, server: { deps: { inline: ["greeter"] } } } };
`;

describe("Vite's dependency optimizers pre-bundling a dependency that ships rye output", () => {
  const base = tempDir("rye-load-vite-opt-");
  const project = makeGreetProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const greeter = join(project, "node_modules", "greeter");
  const greet = join(greeter, "out", "directives", "examples", "greet.js");
  const cacheRoot = join(project, "node_modules", ".vite");
  let expected = "";

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    for (const dep of ["vite", "vitest"]) symlinkSync(join(REPO, "node_modules", dep), join(project, "node_modules", dep), "dir");
    mkdirSync(greeter);
    writeFileSync(join(greeter, "package.json"), JSON.stringify({ name: "greeter", type: "module", exports: "./out/index.js" }));
    cpSync(join(project, "out"), join(greeter, "out"), { recursive: true });
    writeFileSync(join(project, "dep.js"), `import { directives } from "greeter";\nexport const greeting = directives["examples/greet"].render({ name: "Ada" }).body;\n`);
    mkdirSync(join(project, "t"));
    writeFileSync(join(project, "t", "dep.test.mjs"), `import { test, expect } from "vitest";\nimport { greeting } from "../dep.js";\ntest("greets", () => { expect(greeting).toContain("Ada"); });\n`);
    writeFileSync(join(project, "vitest.opt.config.mjs"), VITEST_CONFIG);
    writeFileSync(join(project, "plain.mjs"), `import { greeting } from "./dep.js";\nconsole.log(greeting);\n`);
    const ok = node(project, env, "--import", "rye-build/register", "plain.mjs");
    expect(ok.status, ok.stderr).toBe(0);
    expected = ok.stdout;
  }, 60_000);

  /** Runs the dev script for `which` (keeping the optimizer cache when `keepCache`), with greeter tampered by `tamper`. */
  function dev(which: Optimizer, opts: { tamper?: boolean; keepCache?: boolean; plugin?: boolean } = {}) {
    const saved = readFileSync(greet);
    rmSync(marker, { force: true });
    if (!opts.keepCache) rmSync(cacheRoot, { recursive: true, force: true });
    if (opts.tamper) inject(greet, marker);
    try {
      writeFileSync(join(project, "dev.mjs"), DEV(which, opts.plugin ?? true));
      const r = node(project, env, "dev.mjs");
      return { ...r, all: r.stdout + r.stderr };
    } finally {
      writeFileSync(greet, saved);
    }
  }

  /** Every pre-bundle of greeter the optimizers left in the cache folder. */
  const cached = () => (existsSync(cacheRoot) ? readdirSync(cacheRoot, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name === "greeter.js").map((e) => join(e.parentPath, e.name)) : []);
  /** What a checkout would carry: a payload appended to every cached pre-bundle (their metadata untouched). */
  const plant = () => {
    const files = cached();
    for (const f of files) appendFileSync(f, `\nimport("node:fs").then((f) => f.writeFileSync(${JSON.stringify(marker)}, "PWNED"));\n`);
    return files;
  };

  test("control: without the plugin the SSR optimizer bundles the tampered output and the payload runs", () => {
    const r = dev("ssr", { tamper: true, plugin: false });
    expect(r.status, r.all).toBe(0);
    expect(markerRan(marker)).toBe(true);
  }, 60_000);

  for (const which of Object.keys(OPTIMIZERS) as Optimizer[]) {
    const { cache, served } = OPTIMIZERS[which];

    test(`${which}: the untouched dependency is pre-bundled by that optimizer and runs as the loader runs it`, () => {
      const r = dev(which);
      expect(r.status, r.all).toBe(0);
      expect(r.stdout).toBe(served ? "prebundled\nclean\n" : expected);
      expect(existsSync(join(cacheRoot, cache, "greeter.js"))).toBe(true);
    }, 60_000);

    test(`${which}: a tampered module of the dependency is refused, naming the item, and its payload never runs`, () => {
      const r = dev(which, { tamper: true });
      expect(r.status).not.toBe(0);
      expect(r.all).toContain("Content modified since signing: examples/greet");
      expect(r.stdout).not.toContain("PAYLOAD");
      expect(markerRan(marker)).toBe(false);
    }, 60_000);

    test(`${which}: a payload planted in the cache a verified run wrote is not reused: re-optimized, it never runs`, () => {
      expect(dev(which).status).toBe(0);
      const planted = plant();
      expect(planted).toContain(join(cacheRoot, cache, "greeter.js"));
      const r = dev(which, { keepCache: true });
      expect(r.status, r.all).toBe(0);
      expect(r.stdout).toBe(served ? "prebundled\nclean\n" : expected);
      expect(markerRan(marker)).toBe(false);
      expect(readFileSync(join(cacheRoot, cache, "greeter.js"), "utf8")).not.toContain("PWNED");
    }, 60_000);
  }

  /** Vitest with its SSR optimizer on (deps.optimizer.ssr), greeter inlined, tampered by `tamper`. */
  function vitest(opts: { tamper?: boolean; keepCache?: boolean } = {}) {
    const saved = readFileSync(greet);
    rmSync(marker, { force: true });
    if (!opts.keepCache) rmSync(cacheRoot, { recursive: true, force: true });
    if (opts.tamper) inject(greet, marker);
    try {
      const r = node(project, env, VITEST, "run", "--config", "vitest.opt.config.mjs");
      return { ...r, all: r.stdout + r.stderr };
    } finally {
      writeFileSync(greet, saved);
    }
  }

  test("Vitest deps.optimizer.ssr: the untouched dependency is pre-bundled and the test passes", () => {
    const r = vitest();
    expect(r.status, r.all).toBe(0);
    expect(cached().length).toBeGreaterThan(0);
  }, 90_000);

  test("Vitest deps.optimizer.ssr: a tampered module is refused and its payload never runs", () => {
    const r = vitest({ tamper: true });
    expect(r.status).not.toBe(0);
    expect(r.all).toContain("Content modified since signing: examples/greet");
    expect(markerRan(marker)).toBe(false);
  }, 90_000);

  // Vitest (4.x) re-optimizes on each run whatever the plugin does: this row keeps that true, it does not test the rule.
  test("Vitest deps.optimizer.ssr: a payload planted in the cache a verified run wrote never runs", () => {
    expect(vitest().status).toBe(0);
    expect(plant().length).toBeGreaterThan(0);
    const r = vitest({ keepCache: true });
    expect(r.status, r.all).toBe(0);
    expect(markerRan(marker)).toBe(false);
  }, 90_000);
});
