// The Vite plugin's two resolve-and-bundle rules, under the unplugin (Rollup, Rolldown, webpack, Rspack):
// - a request naming an output folder (`import "./out"`) lands inside it, whatever an edited
//   out/package.json `main` says (the resolver follows it to a payload outside every output folder);
// - a bundle never leaves external a package holding build output (Node would load it where the
//   bundle runs, past every load hook): Rollup leaves an unresolved bare import external on its own,
//   the others when told to.
// Each row is a real build over a tampered tree; a build that passed is run, so a payload that would
// have run writes its marker. Controls show each row's tree is live: untouched, or without the plugin.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ROLLDOWN, ROLLUP_WITH, WEBPACK_LIKE } from "./bundler-scripts.js";
import { cleanEnv, inject, makeGreetProject, markerRan, node, REPO, rye, tempDir } from "./helpers.js";

const base = tempDir("rye-load-unplugin-");
const project = join(base, "project");
const marker = join(base, "PWNED");
// The user space in a folder of its own: the folders above a project count as its checkout.
const env = cleanEnv({ USER_SPACE: tempDir("rye-load-unplugin-home-") });
const PRINT = `console.log(typeof (m.directives ?? m.default?.directives));`;

const WEBPACK = (entry: string, out: string, externals: string[] = []) => WEBPACK_LIKE(`import bundler from "webpack";\nimport { ryeVerify } from "rye-build/webpack";`, out, entry, externals);
const RSPACK = (entry: string, out: string, externals: string[] = []) => WEBPACK_LIKE(`import { rspack as bundler } from "@rspack/core";\nimport { ryeVerify } from "rye-build/rspack";`, out, entry, externals);

/** Each bundler: the build script for an entry, and the file it writes. */
type Bundler = (entry: string, externals: string[]) => { script: string; output: string };
const BUNDLERS: Record<string, Bundler> = {
  // Rollup resolves no folder by itself: node-resolve (stood in for here) reads package.json "main".
  "Rollup (node-style resolver)": (entry) => ({ script: ROLLUP_WITH(entry, "d-rollup/app.mjs", { nodeResolve: true }), output: "d-rollup/app.mjs" }),
  Rolldown: (entry, externals) => ({ script: ROLLDOWN(entry, "d-rolldown/app.mjs", externals), output: "d-rolldown/app.mjs" }),
  webpack: (entry, externals) => ({ script: WEBPACK(entry, "d-webpack", externals), output: "d-webpack/app.mjs" }),
  Rspack: (entry, externals) => ({ script: RSPACK(entry, "d-rspack", externals), output: "d-rspack/app.mjs" }),
};

/** What the attacker makes out/package.json say: "main" to a payload beside the project's out/. */
const POINTS: Record<string, string> = {
  '"main" to a file outside': "../payload/evil.mjs",
  '"main" to a folder outside': "../payload",
};

/** Builds `entry` with `b`, then runs what it wrote (if anything); returns both. */
function buildAndRun(b: { script: string; output: string }) {
  rmSync(marker, { force: true });
  rmSync(join(project, b.output), { force: true });
  writeFileSync(join(project, "build.mjs"), b.script);
  const built = node(project, env, "build.mjs");
  const ran = existsSync(join(project, b.output)) ? node(project, env, b.output) : null;
  return { built, ran, all: built.stdout + built.stderr };
}

beforeAll(() => {
  makeGreetProject(project);
  const r = rye(project, env, "build");
  expect(r.status, r.stderr).toBe(0);
  mkdirSync(join(project, "node_modules", "@rspack"));
  for (const dep of ["rollup", "rolldown", "webpack", "@rspack/core"]) symlinkSync(join(REPO, "node_modules", dep), join(project, "node_modules", dep), "dir");
  const code = `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "payload ran");\nexport const directives = {};\n`;
  mkdirSync(join(project, "payload"));
  writeFileSync(join(project, "payload", "evil.mjs"), code);
  writeFileSync(join(project, "payload", "index.js"), code);
  writeFileSync(join(project, "payload", "package.json"), JSON.stringify({ type: "module", main: "./evil.mjs" }));
  writeFileSync(join(project, "folder.mjs"), `import * as m from "./out";\n${PRINT}\n`);
  // webpack and Rspack want a fully specified request in an ES module: the folder is required from CommonJS.
  writeFileSync(join(project, "folder.cjs"), `const m = require("./out");\n${PRINT}\n`);
}, 120_000);

describe("unplugin: a request naming an output folder lands inside it", () => {
  let original = "";
  beforeAll(() => {
    original = readFileSync(join(project, "out", "package.json"), "utf8");
  });

  for (const [name, bundler] of Object.entries(BUNDLERS)) {
    const entry = /^(webpack|Rspack)/.test(name) ? "folder.cjs" : "folder.mjs";
    test(`${name}, import "./out", untouched build: bundles and runs`, () => {
      writeFileSync(join(project, "out", "package.json"), original);
      const r = buildAndRun(bundler(entry, []));
      expect(r.built.status, r.all).toBe(0);
      expect(r.ran?.stdout.trim(), r.ran?.stderr).toBe("object");
    }, 90_000);

    for (const [pointName, main] of Object.entries(POINTS)) {
      test(`${name}, import "./out", out/package.json ${pointName}: build refused, no marker`, () => {
        writeFileSync(join(project, "out", "package.json"), JSON.stringify({ ...JSON.parse(original), main }));
        try {
          const r = buildAndRun(bundler(entry, []));
          expect(r.built.status, r.all).not.toBe(0);
          expect(r.all).toContain("names the build output folder");
          expect(markerRan(marker)).toBe(false);
        } finally {
          writeFileSync(join(project, "out", "package.json"), original);
        }
      }, 90_000);
    }
  }
});

describe("unplugin: a bundle never leaves external a package holding build output", () => {
  const greeter = join(project, "node_modules", "greeter");
  /** Package shapes whose output Node would load where the bundle runs. */
  const SHAPES: Record<string, Record<string, string>> = {
    "an entry that re-exports ./out/index.js": { "package.json": JSON.stringify({ name: "greeter", type: "module", main: "./index.js" }), "index.js": `export * from "./out/index.js";\n` },
    "exports: the package's own output": { "package.json": JSON.stringify({ name: "greeter", type: "module", exports: "./out/index.js" }) },
  };
  // Rollup leaves the unresolved bare import external itself; the others are told to.
  const EXTERNAL: Record<string, Bundler> = {
    "Rollup (no resolver)": (entry) => ({ script: ROLLUP_WITH(entry, "d-rollup/app.mjs"), output: "d-rollup/app.mjs" }),
    "Rolldown (external: greeter)": BUNDLERS.Rolldown!,
    "webpack (externals: greeter)": BUNDLERS.webpack!,
    "Rspack (externals: greeter)": BUNDLERS.Rspack!,
  };

  function install(shape: string) {
    rmSync(greeter, { recursive: true, force: true });
    mkdirSync(greeter, { recursive: true });
    for (const [path, text] of Object.entries(SHAPES[shape]!)) writeFileSync(join(greeter, path), text);
    cpSync(join(project, "out"), join(greeter, "out"), { recursive: true });
    inject(join(greeter, "out", "directives", "examples", "greet.js"), marker);
  }

  beforeAll(() => {
    writeFileSync(join(project, "app-dep.mjs"), `import * as m from "greeter";\n${PRINT}\n`);
  });

  test("control: Rollup without the plugin leaves greeter external, and the bundle runs its tampered output", () => {
    install("an entry that re-exports ./out/index.js");
    const r = buildAndRun({ script: ROLLUP_WITH("app-dep.mjs", "d-rollup/app.mjs", { plugin: "null" }), output: "d-rollup/app.mjs" });
    expect(r.built.status, r.all).toBe(0);
    expect(readFileSync(join(project, "d-rollup", "app.mjs"), "utf8")).toMatch(/from ["']greeter["']/);
    expect(markerRan(marker)).toBe(true);
  }, 90_000);

  for (const [name, bundler] of Object.entries(EXTERNAL)) {
    for (const shape of Object.keys(SHAPES)) {
      test(`${name}, ${shape}: build refused, naming the output folder, no marker`, () => {
        install(shape);
        const r = buildAndRun(bundler("app-dep.mjs", ["greeter"]));
        expect(r.built.status, r.all).not.toBe(0);
        expect(r.all).toContain("holds build output");
        expect(r.ran).toBeNull();
        expect(markerRan(marker)).toBe(false);
      }, 90_000);
    }
  }

  test("bundled instead (Rolldown resolves it): untouched it runs, tampered it is refused", () => {
    install("an entry that re-exports ./out/index.js");
    const bad = buildAndRun(BUNDLERS.Rolldown!("app-dep.mjs", []));
    expect(bad.built.status, bad.all).not.toBe(0);
    expect(bad.all).toContain("Content modified since signing");
    expect(markerRan(marker)).toBe(false);
    cpSync(join(project, "out"), join(greeter, "out"), { recursive: true });
    const ok = buildAndRun(BUNDLERS.Rolldown!("app-dep.mjs", []));
    expect(ok.built.status, ok.all).toBe(0);
    expect(ok.ran?.stdout.trim(), ok.ran?.stderr).toBe("object");
  }, 90_000);
});
