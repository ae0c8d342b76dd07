// A request that names a build output folder, or a file in one, loads only a file of that folder.
// Node resolves a folder through its package.json ("main", "exports") and index files: an edited
// out/package.json can point anywhere, and the resolved file (a payload outside every output folder)
// carries no mark. ("exports" is not consulted for a folder named by path: an edited one is the
// tree rule's, which refuses an out/ whose package.json differs from the signed one.) Rows: how the application names out/ × where the folder's package.json points.
// Each asserts the refusal and that the payload's marker does not exist; the untouched build loads.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, makeProject, markerRan, node, payload, REPO, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const base = tempDir("rye-folder-request-");
const project = join(base, "project");
const marker = join(base, "PWNED");
const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
const PRINT = `console.log(typeof (m.directives ?? m.default?.directives));`;

/** How the application asks for the folder (or something in it). */
const SPELLINGS: Record<string, { file: string; text: string }> = {
  'require("./out")': { file: "app.cjs", text: `const m = require("./out");\n${PRINT}\n` },
  'require("./out/")': { file: "app.cjs", text: `const m = require("./out/");\n${PRINT}\n` },
  "require(absolute folder path)": { file: "app.cjs", text: `const m = require(require("node:path").join(__dirname, "out"));\n${PRINT}\n` },
  'createRequire(...)("./out")': { file: "app.mjs", text: `import { createRequire } from "node:module";\nconst m = createRequire(import.meta.url)("./out");\n${PRINT}\n` },
  'require("./out/directives/..")': { file: "app.cjs", text: `const m = require("./out/directives/..");\n${PRINT}\n` },
  "require.resolve then import()": { file: "app.cjs", text: `(async () => { const m = await import(require.resolve("./out")); ${PRINT} })();\n` },
};

/** What the attacker makes out/package.json say (a payload next to the project, in the checkout). */
const POINTS: Record<string, (payloadRel: string) => object> = {
  '"main" to a file outside': (p) => ({ main: p }),
  '"main" to a file outside, by an absolute path': (p) => ({ main: join(project, "out", p) }),
  '"main" to a folder outside (its index.js)': (p) => ({ main: p.replace(/\/evil\.cjs$/, "") }),
};

describe("a request that names an output folder loads only a file inside it", () => {
  let original = "";
  beforeAll(() => {
    makeProject(project);
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    original = readFileSync(join(project, "out", "package.json"), "utf8");
    mkdirSync(join(project, "payload"), { recursive: true });
    const code = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "payload ran");\nmodule.exports = { directives: {} };\n`;
    writeFileSync(join(project, "payload", "evil.cjs"), code);
    writeFileSync(join(project, "payload", "index.js"), code);
    writeFileSync(join(project, "payload", "package.json"), `{ "type": "commonjs" }\n`);
    void payload;
    for (const dep of ["esbuild", "vite"]) symlinkSync(join(REPO, "node_modules", dep), join(project, "node_modules", dep), "dir");
    writeFileSync(join(project, "bundled.mjs"), `import * as m from "./out";\n${PRINT}\n`);
  }, 120_000);

  function run(spelling: { file: string; text: string }) {
    rmSync(marker, { force: true });
    writeFileSync(join(project, spelling.file), spelling.text);
    return node(project, env, "--import", "rye-build/register", spelling.file);
  }

  for (const [name, spelling] of Object.entries(SPELLINGS)) {
    test(`${name}, untouched build: loads`, () => {
      writeFileSync(join(project, "out", "package.json"), original);
      const r = run(spelling);
      expect(r.stderr).toBe("");
      expect(r.stdout.trim()).toBe("object");
    }, 60_000);

    for (const [pointName, point] of Object.entries(POINTS)) {
      test(`${name}, out/package.json ${pointName}: refused, no marker`, () => {
        writeFileSync(join(project, "out", "package.json"), JSON.stringify({ ...JSON.parse(original), ...point("../payload/evil.cjs") }));
        const r = run(spelling);
        expect(r.status, r.stdout).not.toBe(0);
        expect(r.stderr).toMatch(/IntegrityError/);
        expect(markerRan(marker)).toBe(false);
      }, 60_000);
    }
  }

  /** Bundlers: the plugin's resolve hook applies the same rule; the bundle, if any, is run. */
  const BUNDLERS: Record<string, { script: string; output: string }> = {
    "esbuild with ryeVerify()": {
      script: `import * as esbuild from "esbuild";\nimport { ryeVerify } from "rye-build/esbuild";\nawait esbuild.build({ entryPoints: ["bundled.mjs"], bundle: true, platform: "node", format: "esm", outfile: "eb/app.mjs", plugins: [ryeVerify()], logLevel: "silent" });\n`,
      output: "eb/app.mjs",
    },
    "Vite SSR build with ryeVerify()": {
      script: `import { build } from "vite";\nimport { ryeVerify } from "rye-build/vite";\nawait build({ logLevel: "silent", configFile: false, plugins: [ryeVerify()], build: { ssr: "bundled.mjs", outDir: "vb", rollupOptions: { output: { entryFileNames: "app.mjs" } } } });\n`,
      output: "vb/app.mjs",
    },
  };

  for (const [name, b] of Object.entries(BUNDLERS)) {
    // esbuild resolves no absolute "main" at all: the relative edits are the bundlers' rows.
    for (const [pointName, point] of Object.entries(POINTS).filter(([n]) => !n.includes("absolute"))) {
      test(`${name}, import "./out", out/package.json ${pointName}: build refused, no marker`, () => {
        writeFileSync(join(project, "out", "package.json"), JSON.stringify({ ...JSON.parse(original), ...point("../payload/evil.cjs") }));
        rmSync(marker, { force: true });
        rmSync(join(project, b.output), { force: true });
        writeFileSync(join(project, "build.mjs"), b.script);
        const r = node(project, env, "build.mjs");
        expect(r.status, r.stdout).not.toBe(0);
        expect(r.stderr).toMatch(/IntegrityError|resolves to/);
        if (existsSync(join(project, b.output))) node(project, env, b.output);
        expect(markerRan(marker)).toBe(false);
      }, 60_000);
    }
  }
});
