// A config file bundled before any plugin exists: Vite and Vitest (default config loader) and Rollup
// (--bundleConfigAsCjs, --configPlugin) bundle the config with no application plugin, inlining its
// relative imports, and import the bundle; the Node loader sees only a new file outside out/. The rye
// plugin module the config imports is evaluated before the bundle's body (package imports stay external
// and are hoisted): it refuses when a compiled script outside every output folder carries build output
// (an inline source map naming a file of out/, or a rye signature line). Each row runs the real CLI over
// a tampered build and asserts the refusal and that the payload's marker is absent; the controls show
// configs without output load, and that the documented way (a native config under the loader) verifies.
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeGreetProject, markerRan, node, REPO, rye, tempDir } from "./helpers.js";

const base = tempDir("rye-config-bundles-");
const project = join(base, "project");
const marker = join(base, "PWNED");
// The user space in a folder of its own: the folders above a project count as its checkout.
const env = cleanEnv({ USER_SPACE: tempDir("rye-config-bundles-home-") });
const greet = join(project, "out", "directives", "examples", "greet.js");
const VITE = join("node_modules", "vite", "bin", "vite.js");
const VITEST = join("node_modules", "vitest", "vitest.mjs");
const ROLLUP = join("node_modules", "rollup", "dist", "bin", "rollup");

/** How a config names build output: a static import, or a dynamic one in its body (inlined all the same). */
const IMPORTS: Record<string, string> = {
  "static import": `import { directives } from "./out/index.js";\n`,
  "dynamic import()": `const { directives } = await import("./out/index.js");\n`,
};
const IDS = `JSON.stringify(Object.keys(directives))`;

const viteConfig = (imp: string) => `${imp}import { ryeVerify } from "rye-build/vite";
export default { logLevel: "silent", plugins: [ryeVerify()], define: { __IDS__: ${imp ? IDS : `"[]"`} }, build: { ssr: "entry.mjs", outDir: "dist-vc", emptyOutDir: true } };
`;
const vitestConfig = (imp: string) => `${imp}import { ryeVerify } from "rye-build/vite";
export default { plugins: [ryeVerify()], define: { __IDS__: ${imp ? IDS : `"[]"`} }, test: { include: ["ids.test.mjs"] } };
`;
const rollupConfig = (imp: string) => `${imp}import { ryeVerify } from "rye-build/rollup";
export default { input: "entry.mjs", plugins: [ryeVerify()], output: { file: "dist-rc/app.mjs" }, onwarn() {} };
`;

/** Each loader: the config file it reads, its text for an import, and the command (node arguments). */
const LOADERS: Record<string, { file: string; config: (imp: string) => string; args: string[] }> = {
  "vite build (vite.config.mjs)": { file: "vite.config.mjs", config: viteConfig, args: [VITE, "build"] },
  "vite build (vite.config.ts)": { file: "vite.config.ts", config: viteConfig, args: [VITE, "build"] },
  "vitest run (vitest.config.mjs)": { file: "vitest.config.mjs", config: vitestConfig, args: [VITEST, "run"] },
  "rollup -c --bundleConfigAsCjs": { file: "rollup.config.js", config: rollupConfig, args: [ROLLUP, "-c", "rollup.config.js", "--bundleConfigAsCjs"] },
  "rollup -c --configPlugin": { file: "rollup.config.mjs", config: rollupConfig, args: [ROLLUP, "-c", "rollup.config.mjs", "--configPlugin", "{name:'noop'}"] },
};

let original: Buffer;

function run(loader: string, imp: string, register = false) {
  const l = LOADERS[loader]!;
  for (const f of ["vite.config.mjs", "vite.config.ts", "vitest.config.mjs", "rollup.config.js", "rollup.config.mjs"]) rmSync(join(project, f), { force: true });
  writeFileSync(join(project, l.file), l.config(imp));
  rmSync(marker, { force: true });
  const r = node(project, env, ...(register ? ["--import", "rye-build/register"] : []), ...l.args);
  return { ...r, all: r.stdout + r.stderr };
}

beforeAll(() => {
  makeGreetProject(project);
  const built = rye(project, env, "build");
  expect(built.status, built.stderr).toBe(0);
  for (const dep of ["vite", "vitest", "rollup"]) symlinkSync(join(REPO, "node_modules", dep), join(project, "node_modules", dep), "dir");
  writeFileSync(join(project, "entry.mjs"), `console.log(JSON.stringify(__IDS__));\n`);
  writeFileSync(join(project, "ids.test.mjs"), `import { test } from "vitest";\ntest("ids", () => {});\n`);
  original = readFileSync(greet);
}, 120_000);

describe("a bundled config file that inlines build output is refused before the output runs", () => {
  for (const loader of Object.keys(LOADERS)) {
    test(`${loader}, no build output imported: loads and builds`, () => {
      writeFileSync(greet, original);
      const r = run(loader, "");
      expect(r.status, r.all).toBe(0);
      expect(r.all).not.toContain("holds build output");
    }, 90_000);

    // Rollup cannot bundle a config's dynamic import (no top-level await in CommonJS; a second chunk it never writes).
    for (const [how, imp] of Object.entries(IMPORTS).filter(([h]) => !(loader.startsWith("rollup") && h.startsWith("dynamic")))) {
      for (const register of [false, true]) {
        test(`${loader}, ${how} of tampered output${register ? ", under --import rye-build/register" : ""}: refused, no marker`, () => {
          inject(greet, marker);
          try {
            const r = run(loader, imp, register);
            expect(r.status, r.all).not.toBe(0);
            expect(r.all).toContain("holds build output that no rye verifier read");
            expect(markerRan(marker)).toBe(false);
          } finally {
            writeFileSync(greet, original);
          }
        }, 90_000);
      }
    }

    test(`${loader}, static import of untouched output: refused too (nothing there can verify it), naming the fix`, () => {
      writeFileSync(greet, original);
      const r = run(loader, IMPORTS["static import"]!);
      expect(r.status, r.all).not.toBe(0);
      expect(r.all).toContain("load the config natively");
    }, 90_000);
  }
});

describe("the fix the refusal names: a config loaded natively under the loader is verified", () => {
  const NATIVE: Record<string, string[]> = {
    "vite build --configLoader native": [VITE, "build", "--configLoader", "native"],
    "rollup -c rollup.config.mjs": [ROLLUP, "-c", "rollup.config.mjs"],
  };
  for (const [name, args] of Object.entries(NATIVE)) {
    const loader = name.startsWith("vite") ? "vite build (vite.config.mjs)" : "rollup -c --configPlugin";
    const write = () => writeFileSync(join(project, LOADERS[loader]!.file), LOADERS[loader]!.config(IMPORTS["static import"]!));

    test(`${name}, untouched output: builds, the config's value in the bundle`, () => {
      writeFileSync(greet, original);
      write();
      rmSync(join(project, "dist-vc"), { recursive: true, force: true });
      const r = node(project, env, "--import", "rye-build/register", ...args);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      if (name.startsWith("vite")) expect(existsSync(join(project, "dist-vc", "entry.js"))).toBe(true);
      if (name.startsWith("vite")) expect(node(project, env, join("dist-vc", "entry.js")).stdout).toContain("examples/greet");
    }, 90_000);

    test(`${name}, tampered output: the loader refuses it, no marker`, () => {
      inject(greet, marker);
      try {
        write();
        rmSync(marker, { force: true });
        const r = node(project, env, "--import", "rye-build/register", ...args);
        expect(r.status).not.toBe(0);
        expect(r.stdout + r.stderr).toContain("Content modified since signing");
        expect(markerRan(marker)).toBe(false);
      } finally {
        writeFileSync(greet, original);
      }
    }, 90_000);
  }
});

