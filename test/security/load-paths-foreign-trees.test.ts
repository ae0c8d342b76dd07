// What an output folder may hold is what its own signed manifest lists, whatever else a checkout
// plants in it: another build's whole tree with its own manifest (signed by the same key, so each of
// its files verifies against that nested manifest), or a module replaced by a folder whose index
// file has an extension a bundler compiles but no extension list names (`index.tsx`, `index.jsx`).
// Each is refused on the Node loader and the bundler plugins, and the payload's marker never exists.
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ESBUILD, ROLLUP, VITE, VITE_DEV, WEBPACK_LIKE } from "./bundler-scripts.js";
import { cleanEnv, makeProject, markerRan, node, payload, REPO, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const MODULE = "directives/examples/greet.js";
const RENDER = `JSON.stringify(g.render({ name: "Ada" }))`;

describe("an output folder holds only what its own manifest lists", () => {
  const base = tempDir("rye-foreign-trees-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const out = join(project, "out");

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    mkdirSync(join(project, "node_modules"), { recursive: true });
    for (const dep of ["esbuild", "vite", "rollup", "webpack"]) symlinkSync(join(REPO, "node_modules", dep), join(project, "node_modules", dep), "dir");
  }, 120_000);

  test("a nested build tree with its own manifest is not believed: its modules are unlisted in the outer one", () => {
    const nested = join(out, "directives", "zz");
    // Without the files the tree rule refuses by name (package.json): only the nested manifest speaks for it.
    cpSync(out, join(base, "copy"), { recursive: true, filter: (src) => !/\/(?:package\.json|\.rye|\.gitattributes)$/.test(src) });
    cpSync(join(base, "copy"), nested, { recursive: true });
    try {
      // The app marks that it ran a module of the planted tree.
      writeFileSync(join(project, "nested.mjs"), `import * as g from "./out/directives/zz/${MODULE}";\nconsole.log(${RENDER});\n(await import("node:fs")).writeFileSync(${JSON.stringify(marker)}, "");\n`);
      rmSync(marker, { force: true });
      const r = node(project, env, "--import", "rye-build/register", "nested.mjs");
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/Not listed in the signed manifest of .*\/out\b/);
      expect(markerRan(marker)).toBe(false);
      const verified = rye(project, env, "verify", "out");
      expect(verified.status).not.toBe(0);
    } finally {
      rmSync(nested, { recursive: true, force: true });
    }
  }, 60_000);

  const WEBPACK = WEBPACK_LIKE(`import bundler from "webpack";\nimport { ryeVerify } from "rye-build/webpack";`, "dist-webpack");
  const BUNDLERS: Record<string, string> = {
    esbuild: ESBUILD("node", "dist-esbuild/app.mjs"),
    "Vite SSR build": VITE("dist-vite"),
    "Vite dev ssrLoadModule": VITE_DEV(`await server.ssrLoadModule("/app.mjs");`),
    Rollup: ROLLUP,
    webpack: WEBPACK,
  };
  const INDEXES = ["index.tsx", "index.jsx"];

  const cases = Object.keys(BUNDLERS).flatMap((b) => INDEXES.map((i) => [b, i] as const));
  test.each(cases)("%s: a module replaced by a folder holding %s is refused, and the payload never runs", (bundler, index) => {
    const at = join(out, MODULE);
    const saved = readFileSync(at);
    rmSync(at);
    mkdirSync(at);
    writeFileSync(join(at, index), `${payload(marker)}export const id = "examples/greet";\nexport const render = () => ({ prompt: "pwned" });\n`);
    writeFileSync(join(project, "app.mjs"), `import * as g from "./out/${MODULE}";\nconsole.log(${RENDER});\n`);
    rmSync(marker, { force: true });
    try {
      const script = join(project, `bundle-${bundler.replace(/\W+/g, "-")}.mjs`);
      writeFileSync(script, BUNDLERS[bundler]!);
      const r = node(project, env, script);
      expect(r.status, r.stdout).not.toBe(0);
      // Rollup and webpack do not resolve a folder to index.tsx/jsx by default: they fail on their own.
      expect(`${r.stdout}${r.stderr}`).toMatch(/Not listed in the signed manifest|is not part of that build|Could not resolve|Can't resolve/);
      expect(markerRan(marker)).toBe(false);
    } finally {
      rmSync(at, { recursive: true, force: true });
      writeFileSync(at, saved);
    }
  }, 120_000);
});
