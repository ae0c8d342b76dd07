// `rye bundle` signs what it bundles, so nothing of the checkout may choose that code: not an esbuild
// in the project's node_modules, not a tsconfig.json whose `paths` remap an import, not a package in
// the project's node_modules shadowing one the bundle carries. Each plant writes a marker when it
// runs or when code it put into the bundle runs; the marker must never exist, and the bundle must
// carry none of the planted text.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const rye = join(repo, "bin", "rye.js");

type Plant = (dir: string, marker: string) => void;
const esm = (marker: string) => `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "x");\n`;

const PLANTS: Record<string, Plant> = {
  "node_modules/esbuild (runs at bundle time, appends to the output)": (dir, marker) => {
    mkdirSync(join(dir, "node_modules", "esbuild"), { recursive: true });
    writeFileSync(join(dir, "node_modules", "esbuild", "package.json"), '{"name":"esbuild","version":"0.99.0","main":"index.js"}');
    const real = JSON.stringify(join(repo, "node_modules", "esbuild"));
    writeFileSync(
      join(dir, "node_modules", "esbuild", "index.js"),
      `require("fs").writeFileSync(${JSON.stringify(marker)}, "x");\nconst real = require(${real});\nmodule.exports = { ...real, build: async (o) => { const r = await real.build(o); require("fs").appendFileSync(o.outfile, "\\nrequire('fs').writeFileSync(${JSON.stringify(marker)}, 'x');\\n"); return r; }, buildSync: (o) => { const r = real.buildSync(o); require("fs").appendFileSync(o.outfile, "\\nrequire('fs').writeFileSync(${JSON.stringify(marker)}, 'x');\\n"); return r; } };\n`,
    );
  },
  "tsconfig.json paths remapping execa": (dir, marker) => {
    writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "baseUrl": ".", "paths": { "execa": ["./evil-execa.js"] } } }');
    writeFileSync(join(dir, "evil-execa.js"), `${esm(marker)}export function execa() { throw new Error("planted"); }\n`);
  },
  "jsconfig.json paths remapping execa": (dir, marker) => {
    writeFileSync(join(dir, "jsconfig.json"), '{ "compilerOptions": { "baseUrl": ".", "paths": { "execa": ["./evil-execa.js"] } } }');
    writeFileSync(join(dir, "evil-execa.js"), `${esm(marker)}export function execa() { throw new Error("planted"); }\n`);
  },
  "node_modules/execa shadowing the CLI's own": (dir, marker) => {
    mkdirSync(join(dir, "node_modules", "execa"), { recursive: true });
    writeFileSync(join(dir, "node_modules", "execa", "package.json"), '{"name":"execa","type":"module","exports":"./index.js"}');
    writeFileSync(join(dir, "node_modules", "execa", "index.js"), `${esm(marker)}export function execa() { throw new Error("planted"); }\n`);
  },
  "out/node_modules/execa beside the output": (dir, marker) => {
    mkdirSync(join(dir, "out", "node_modules", "execa"), { recursive: true });
    writeFileSync(join(dir, "out", "node_modules", "execa", "package.json"), '{"name":"execa","type":"module","exports":"./index.js"}');
    writeFileSync(join(dir, "out", "node_modules", "execa", "index.js"), `${esm(marker)}export function execa() { throw new Error("planted"); }\n`);
  },
};

function project(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), "rye-bundle-pr-"));
  cpSync(join(repo, ".ai"), join(dir, ".ai"), { recursive: true });
  const home = mkdtempSync(join(tmpdir(), "rye-bundle-home-"));
  return { dir, env: { PATH: process.env.PATH, HOME: home, USER_SPACE: home } };
}

describe("rye bundle takes no code from the checkout", () => {
  test.each(Object.entries(PLANTS))("%s", (_name, plant) => {
    const { dir, env } = project();
    const marker = join(dir, "..", `${dir.split("/").pop()}-MARKER`);
    const bundled = () => spawnSync(process.execPath, [rye, "bundle"], { cwd: dir, env, encoding: "utf8" });
    // The untouched checkout bundles; then the plant, and a bundle again.
    expect(bundled().status).toBe(0);
    plant(dir, marker);
    const run = bundled();
    expect(existsSync(marker)).toBe(false);
    if (run.status !== 0) {
      // Refusing is fine too (a plant inside out/ is a file no build wrote), as long as it says why.
      expect(run.stderr).toMatch(/error RYE\d{4}/);
      return;
    }
    const text = readFileSync(join(dir, "out", "bundle.mjs"), "utf8");
    expect(text).not.toContain("MARKER");
    // The bundle runs a tool as CI would (plain node after a signature check): still no marker.
    const tool = spawnSync(process.execPath, ["out/bundle.mjs", "tool", "examples/word_count", "--params", '{"text": "a b c"}'], { cwd: dir, env, encoding: "utf8" });
    expect(tool.stdout + tool.stderr).not.toMatch(/planted/);
    expect(existsSync(marker)).toBe(false);
  });
});
