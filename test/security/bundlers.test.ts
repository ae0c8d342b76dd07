// A consumer of out/index.js bundled with esbuild (node and browser), Vite (SSR), Rollup, webpack
// and Rspack, through the rye-build plugins: verified at bundle time, and the result runs with no
// file system around it. Vite SSR also bundles rye output that ships inside a dependency, which it
// would otherwise leave external for Node to load unverified.
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { DEV_RENDER, ESBUILD, ROLLUP, VITE, VITE_BROWSER, VITE_DEV, WEBPACK_LIKE } from "./bundler-scripts.js";
import { cleanEnv, inject, makeProject, markerRan, node, REPO, rye, tempDir, writeApp } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const WEBPACK = WEBPACK_LIKE(`import bundler from "webpack";\nimport { ryeVerify } from "rye-build/webpack";`, "dist-webpack");
const RSPACK = WEBPACK_LIKE(`import { rspack as bundler } from "@rspack/core";\nimport { ryeVerify } from "rye-build/rspack";`, "dist-rspack");

describe("bundling a consumer of out/index.js with the verifying plugins", () => {
  const base = tempDir();
  const project = makeProject(join(base, "project"));
  mkdirSync(join(project, "node_modules", "@rspack"));
  for (const dep of ["esbuild", "vite", "rollup", "webpack", "@rspack/core"]) symlinkSync(join(REPO, "node_modules", dep), join(project, "node_modules", dep), "dir");
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const built = rye(project, env, "build");
  writeApp(project);
  // A dependency whose entry is its own rye build (a copy of this one), and an app rendering through it.
  const greeter = join(project, "node_modules", "greeter");
  mkdirSync(greeter);
  writeFileSync(join(greeter, "package.json"), JSON.stringify({ name: "greeter", type: "module", exports: "./out/index.js" }));
  if (built.status === 0) cpSync(join(project, "out"), join(greeter, "out"), { recursive: true });
  writeFileSync(join(project, "app-dep.mjs"), `import { directives } from "greeter";\nconsole.log(JSON.stringify(directives["examples/greet"].render({ name: "Ada" })));\n`);
  const firstJs = (dir: string) => join(project, dir, readdirSync(join(project, dir)).find((f) => /\.m?js$/.test(f))!);
  const bundlers: Record<string, { script: string; output: () => string; dir: string; dep?: true }> = {
    "esbuild (node)": { script: ESBUILD("node", "dist-node/app.mjs"), output: () => join(project, "dist-node", "app.mjs"), dir: "dist-node" },
    "esbuild (browser)": { script: ESBUILD("browser", "dist-browser/app.mjs"), output: () => join(project, "dist-browser", "app.mjs"), dir: "dist-browser" },
    "Vite SSR": { script: VITE("dist-vite"), output: () => firstJs("dist-vite"), dir: "dist-vite" },
    "Vite SSR of rye output inside a dependency (external by default)": { script: VITE("dist-vite-dep", "app-dep.mjs"), output: () => firstJs("dist-vite-dep"), dir: "dist-vite-dep", dep: true },
    "Vite (browser build)": { script: VITE_BROWSER, output: () => firstJs("dist-vite-browser"), dir: "dist-vite-browser" },
    Rollup: { script: ROLLUP, output: () => join(project, "dist-rollup", "app.mjs"), dir: "dist-rollup" },
    webpack: { script: WEBPACK, output: () => join(project, "dist-webpack", "app.mjs"), dir: "dist-webpack" },
    Rspack: { script: RSPACK, output: () => join(project, "dist-rspack", "app.mjs"), dir: "dist-rspack" },
  };

  function bundle(name: string) {
    const script = join(project, `bundle-${name.replace(/\W+/g, "-")}.mjs`);
    writeFileSync(script, bundlers[name]!.script);
    return node(project, env, script);
  }

  test("the build succeeded", () => expect(built.status, built.stderr).toBe(0));

  test.each(Object.keys(bundlers))(`%s: the bundle renders exactly as the loader does, without any file of out/`, (name) => {
    const expected = node(project, env, "--import", "rye-build/register", "app.mjs");
    expect(expected.status, expected.stderr).toBe(0);
    const b = bundle(name);
    expect(b.status, b.stderr).toBe(0);
    const output = bundlers[name]!.output();
    if (name.includes("browser")) expect(readFileSync(output, "utf8")).not.toMatch(/["']node:|child_process|execa/);
    // Alone in an empty folder, under a user space with no keys: nothing is read at run time.
    const alone = tempDir("rye-sec-alone-");
    copyFileSync(output, join(alone, "app.mjs"));
    const run = node(alone, cleanEnv({ USER_SPACE: join(alone, "nobody") }), "app.mjs");
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(expected.stdout);
  }, 60_000);

  test.each(Object.keys(bundlers))("%s: a tampered module fails the bundle, naming the item, and no output is written", (name) => {
    const greet = join(bundlers[name]!.dep ? join(greeter, "out") : join(project, "out"), "directives", "examples", "greet.js");
    const saved = readFileSync(greet);
    const output = join(project, bundlers[name]!.dir);
    rmSync(output, { recursive: true, force: true });
    mkdirSync(output, { recursive: true });
    inject(greet, marker);
    try {
      const b = bundle(name);
      expect(b.status).not.toBe(0);
      expect(b.stderr).toContain("Content modified since signing: examples/greet");
      expect(readdirSync(output)).toEqual([]);
      expect(markerRan(marker)).toBe(false);
    } finally {
      writeFileSync(greet, saved);
    }
    expect(existsSync(greet)).toBe(true);
  }, 60_000);

  const devRows: Record<string, { what: string; dep?: true; ok: (stdout: string, expected: string) => void }> = {
    "Vite dev: the transform a browser request for an output module gets": {
      what: `const r = await server.transformRequest("/out/directives/examples/greet.js");\n  console.log(r.code.includes("examples/greet") ? "transformed" : "missing");`,
      ok: (stdout) => expect(stdout).toBe("transformed\n"),
    },
    "Vite dev: ssrLoadModule of a consumer of out/": { what: DEV_RENDER.replace("ENTRY", '"/app.mjs"'), ok: (stdout, expected) => expect(stdout).toBe(expected) },
    "Vite dev: ssrLoadModule of rye output inside a dependency (externalised, loaded by Node)": {
      what: DEV_RENDER.replace("ENTRY", '"/app-dep.mjs"'),
      dep: true,
      ok: (stdout, expected) => expect(stdout).toBe(expected),
    },
  };

  function dev(name: string) {
    const script = join(project, `dev-${name.replace(/\W+/g, "-").slice(0, 40)}.mjs`);
    writeFileSync(script, VITE_DEV(devRows[name]!.what));
    return node(project, env, script);
  }

  test.each(Object.keys(devRows))("%s: the untouched build is served", (name) => {
    const expected = node(project, env, "--import", "rye-build/register", "app.mjs");
    const r = dev(name);
    expect(r.status, r.stderr).toBe(0);
    devRows[name]!.ok(r.stdout, expected.stdout);
  }, 60_000);

  test.each(Object.keys(devRows))("%s: a tampered module is refused, naming the item, and its payload never runs", (name) => {
    const greet = join(devRows[name]!.dep ? join(greeter, "out") : join(project, "out"), "directives", "examples", "greet.js");
    const saved = readFileSync(greet);
    rmSync(marker, { force: true });
    inject(greet, marker);
    try {
      const r = dev(name);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain("Content modified since signing: examples/greet");
      expect(r.stdout).not.toMatch(/Ada|transformed/);
      expect(markerRan(marker)).toBe(false);
    } finally {
      writeFileSync(greet, saved);
    }
  }, 60_000);
});

describe("bundling a module of out/ replaced by a symbolic link", () => {
  // The bundlers follow links before their load hook sees a file: the plugins check the import as
  // written, so a link inside an output folder fails the bundle whatever it points at.
  const base = tempDir("rye-sec-links-");
  const project = makeProject(join(base, "project"));
  mkdirSync(join(project, "node_modules", "@rspack"));
  for (const dep of ["esbuild", "vite", "rollup", "webpack", "@rspack/core"]) symlinkSync(join(REPO, "node_modules", dep), join(project, "node_modules", dep), "dir");
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const built = rye(project, env, "build");
  const out = join(project, "out");
  const greet = join(out, "directives", "examples", "greet.js");
  const evil = join(base, "evil");
  const other = join(base, "other-out");
  writeFileSync(join(project, "app.mjs"), `import * as g from "./out/directives/examples/greet.js";\nconsole.log(JSON.stringify(g.render({ name: "Ada" })));\n`);
  if (built.status === 0) {
    cpSync(join(out, "directives", "examples"), join(evil, "examples"), { recursive: true });
    const body = `import * as __ryeFs from "node:fs";\n__ryeFs.writeFileSync(${JSON.stringify(marker)}, "payload ran");\nexport const render = () => ({ body: "pwned" });\n`;
    writeFileSync(join(evil, "greet.js"), body);
    writeFileSync(join(evil, "examples", "greet.js"), body);
    cpSync(out, other, { recursive: true });
  }
  const bundlers: Record<string, { script: string; output: string }> = {
    "esbuild (node)": { script: ESBUILD("node", "dist-node/app.mjs"), output: "dist-node/app.mjs" },
    "Vite SSR": { script: VITE("dist-vite"), output: "dist-vite/app.js" },
    Rollup: { script: ROLLUP, output: "dist-rollup/app.mjs" },
    webpack: { script: WEBPACK, output: "dist-webpack/app.mjs" },
    Rspack: { script: RSPACK, output: "dist-rspack/app.mjs" },
  };
  const fileLink = (target: string) => () => {
    const saved = readFileSync(greet);
    rmSync(greet);
    symlinkSync(target, greet);
    return () => {
      rmSync(greet);
      writeFileSync(greet, saved);
    };
  };
  const folderLink = (at: string, target: string) => () => {
    renameSync(at, `${at}.saved`);
    symlinkSync(target, at, "dir");
    return () => {
      rmSync(at);
      renameSync(`${at}.saved`, at);
    };
  };
  const kinds: Record<string, () => () => void> = {
    "relative link to an unmarked payload": fileLink("../../../../evil/greet.js"),
    "absolute link to an unmarked payload": fileLink(join(evil, "greet.js")),
    "linked folder on the path": folderLink(join(out, "directives", "examples"), join(evil, "examples")),
    "link to another item of another output folder signed by the same key": fileLink(join(other, "directives", "examples", "count_words.js")),
  };

  function bundle(name: string) {
    rmSync(join(project, dirname(bundlers[name]!.output)), { recursive: true, force: true });
    const script = join(project, `bundle-${name.replace(/\W+/g, "-")}.mjs`);
    writeFileSync(script, bundlers[name]!.script);
    return node(project, env, script);
  }

  test("the build succeeded, and the relative link really names the payload", () => {
    expect(built.status, built.stderr).toBe(0);
    const undo = kinds["relative link to an unmarked payload"]!();
    try {
      expect(readFileSync(greet, "utf8")).toContain("payload ran");
    } finally {
      undo();
    }
  });

  test.each(Object.keys(bundlers))("%s: the untouched build bundles and renders", (name) => {
    const b = bundle(name);
    expect(b.status, b.stderr).toBe(0);
    const r = node(project, env, join(project, bundlers[name]!.output));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("Ada");
  }, 60_000);

  const cases = Object.keys(bundlers).flatMap((b) => Object.keys(kinds).map((k) => [b, k] as const));
  test.each(cases)("%s, %s: the bundle fails and the payload never runs", (name, kind) => {
    const undo = kinds[kind]!();
    rmSync(marker, { force: true });
    let b;
    try {
      b = bundle(name);
      // Had it bundled, what it bundled runs here: the marker then shows what would have run.
      if (b.status === 0) node(project, env, join(project, bundlers[name]!.output));
    } finally {
      undo();
    }
    expect(b.status).not.toBe(0);
    expect(b.stderr).toMatch(/is a symbolic link inside the build output folder/);
    expect(existsSync(join(project, bundlers[name]!.output))).toBe(false);
    expect(markerRan(marker)).toBe(false);
  }, 60_000);
});

describe("a planted node_modules in out/ fails every bundle", () => {
  // The runtime in out/ imports execa by bare name; a bundler resolves it from out/ upward, so a
  // planted out/node_modules/execa whose main leaves the package would be bundled in. The plugins
  // refuse a folder holding resolution files its manifest does not record, and resolve an output
  // module's runtime package from rye-build's install (or keep it external), never from out/.
  const base = tempDir("rye-sec-plant-");
  const project = makeProject(join(base, "project"));
  mkdirSync(join(project, "node_modules", "@rspack"));
  for (const dep of ["esbuild", "vite", "rollup", "webpack", "@rspack/core", "execa"]) symlinkSync(join(REPO, "node_modules", dep), join(project, "node_modules", dep), "dir");
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const built = rye(project, env, "build");
  const planted = join(project, "out", "node_modules");
  writeFileSync(join(project, "app.mjs"), `import * as m from "./out/runtime/agents/launch-agent.js";\nconsole.log(typeof m.buildArgv);\n`);
  writeFileSync(join(project, "payload.mjs"), `import * as __ryeFs from "node:fs";\n__ryeFs.writeFileSync(${JSON.stringify(marker)}, "payload ran");\nexport const execa = () => {};\n`);
  const bundlers: Record<string, { script: string; output: string }> = {
    "esbuild (node)": { script: ESBUILD("node", "dist-node/app.mjs"), output: "dist-node/app.mjs" },
    "Vite SSR": { script: VITE("dist-vite"), output: "dist-vite/app.js" },
    Rollup: { script: ROLLUP, output: "dist-rollup/app.mjs" },
    webpack: { script: WEBPACK, output: "dist-webpack/app.mjs" },
    Rspack: { script: RSPACK, output: "dist-rspack/app.mjs" },
  };

  function bundle(name: string) {
    rmSync(join(project, dirname(bundlers[name]!.output)), { recursive: true, force: true });
    const script = join(project, `bundle-${name.replace(/\W+/g, "-")}.mjs`);
    writeFileSync(script, bundlers[name]!.script);
    return node(project, env, script);
  }

  test.each(Object.keys(bundlers))("%s: the untouched build bundles, and the bundle runs", (name) => {
    expect(built.status, built.stderr).toBe(0);
    const b = bundle(name);
    expect(b.status, b.stderr).toBe(0);
    const r = node(project, env, join(project, bundlers[name]!.output));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("function\n");
  }, 60_000);

  test.each(Object.keys(bundlers))("%s, with out/node_modules/execa whose main is a payload: the bundle fails and the payload never runs", (name) => {
    mkdirSync(join(planted, "execa"), { recursive: true });
    writeFileSync(join(planted, "execa", "package.json"), JSON.stringify({ name: "execa", version: "9.9.9", main: "../../../payload.mjs" }));
    rmSync(marker, { force: true });
    let b;
    try {
      b = bundle(name);
      // Had it bundled, what it bundled runs here: the marker then shows what would have run.
      if (b.status === 0) node(project, env, join(project, bundlers[name]!.output));
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
    expect(b.status).not.toBe(0);
    expect(b.stderr).toContain("module resolution files its signed manifest does not record (node_modules/execa/package.json)");
    expect(existsSync(join(project, bundlers[name]!.output))).toBe(false);
    expect(markerRan(marker)).toBe(false);
  }, 60_000);
});

describe("Vite's separate bundles (worker entries, pre-bundled dependencies) verify too", () => {
  // Vite builds `new Worker(new URL(…))` entries with `worker.plugins` and pre-bundles dependencies
  // with the optimizer's own plugins, not the application's: ryeVerify() adds itself to both.
  const base = tempDir("rye-sec-vite-");
  const project = makeProject(join(base, "project"));
  symlinkSync(join(REPO, "node_modules", "vite"), join(project, "node_modules", "vite"), "dir");
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const built = rye(project, env, "build");
  const greet = join(project, "out", "directives", "examples", "greet.js");
  const greeter = join(project, "node_modules", "greeter");
  mkdirSync(greeter);
  writeFileSync(join(greeter, "package.json"), JSON.stringify({ name: "greeter", type: "module", exports: "./out/index.js" }));
  if (built.status === 0) cpSync(join(project, "out"), join(greeter, "out"), { recursive: true });
  writeFileSync(join(project, "main.js"), `const w = new Worker(new URL("./out/directives/examples/greet.js", import.meta.url), { type: "module" });\n`);
  writeFileSync(join(project, "index.html"), `<script type="module" src="/main.js"></script>\n`);
  writeFileSync(join(project, "dep.js"), `import { directives } from "greeter";\nconsole.log(directives);\n`);
  const WORKER_BUILD = `import { build } from "vite";
import { ryeVerify } from "rye-build/vite";
await build({ root: process.cwd(), configFile: false, logLevel: "silent", plugins: [ryeVerify()], build: { outDir: "dist-worker", emptyOutDir: true, minify: false } });
`;
  // The client's pre-bundled greeter, as the dev server serves it to a browser.
  const OPTIMIZED = VITE_DEV(`const dep = await server.transformRequest("/dep.js");
  const url = dep.code.match(/from\\s+"([^"]*greeter[^"]*)"/)[1];
  const r = await server.transformRequest(url);
  console.log(r.code.includes("examples/greet") ? "prebundled" : "missing");
  console.log(r.code.includes("payload ran") ? "PAYLOAD" : "clean");`).replace("include: []", 'include: ["greeter"]');
  const assets = () => (existsSync(join(project, "dist-worker", "assets")) ? readdirSync(join(project, "dist-worker", "assets")).filter((f) => f.endsWith(".js")) : []);

  function run(name: string, script: string) {
    const file = join(project, `${name}.mjs`);
    writeFileSync(file, script);
    rmSync(join(project, "node_modules", ".vite"), { recursive: true, force: true });
    return node(project, env, file);
  }

  test("the build succeeded", () => expect(built.status, built.stderr).toBe(0));

  test("worker entry: the untouched build bundles the worker chunk", () => {
    const b = run("worker-build", WORKER_BUILD);
    expect(b.status, b.stderr).toBe(0);
    expect(assets().some((f) => readFileSync(join(project, "dist-worker", "assets", f), "utf8").includes("examples/greet"))).toBe(true);
  }, 60_000);

  test("worker entry: a tampered module fails the build, and the payload never runs", () => {
    const saved = readFileSync(greet);
    rmSync(marker, { force: true });
    inject(greet, marker);
    let b;
    try {
      b = run("worker-build", WORKER_BUILD);
      // Had it built, the worker chunk carries the payload: running it shows what would have run.
      if (b.status === 0) for (const f of assets()) node(project, env, join(project, "dist-worker", "assets", f));
    } finally {
      writeFileSync(greet, saved);
    }
    expect(b.status).not.toBe(0);
    expect(b.stderr).toContain("Content modified since signing: examples/greet");
    expect(markerRan(marker)).toBe(false);
  }, 60_000);

  test("dev pre-bundling (optimizeDeps) of a dependency shipping rye output: the untouched build is served", () => {
    const r = run("optimize", OPTIMIZED);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("prebundled\nclean\n");
  }, 60_000);

  test("dev pre-bundling (optimizeDeps) of a tampered dependency: refused, the payload is never served", () => {
    const file = join(greeter, "out", "directives", "examples", "greet.js");
    const saved = readFileSync(file);
    inject(file, marker);
    try {
      const r = run("optimize", OPTIMIZED);
      expect(r.stdout).not.toContain("PAYLOAD");
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain("Content modified since signing: examples/greet");
      expect(markerRan(marker)).toBe(false);
    } finally {
      writeFileSync(file, saved);
    }
  }, 60_000);
});
