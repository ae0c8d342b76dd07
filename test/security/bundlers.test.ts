// A consumer of out/index.js bundled with esbuild (node and browser) and Vite (SSR), through the
// rye-build plugins: verified at bundle time, and the result runs with no file system around it.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cleanEnv, inject, makeProject, markerRan, node, REPO, rye, tempDir, writeApp } from "./helpers.js";

const ESBUILD = (platform: string, outfile: string) => `import * as esbuild from "esbuild";
import { ryeVerify } from "rye-build/esbuild";
await esbuild.build({ entryPoints: ["app.mjs"], bundle: true, platform: ${JSON.stringify(platform)}, format: "esm", outfile: ${JSON.stringify(outfile)}, plugins: [ryeVerify()], logLevel: "silent" });
`;

const VITE = (outDir: string) => `import { build } from "vite";
import { ryeVerify } from "rye-build/vite";
await build({ root: process.cwd(), configFile: false, logLevel: "silent", plugins: [ryeVerify()], build: { ssr: "app.mjs", outDir: ${JSON.stringify(outDir)}, emptyOutDir: true, minify: false } });
`;

describe("bundling a consumer of out/index.js with the verifying plugins", () => {
  const base = tempDir();
  const project = makeProject(join(base, "project"));
  for (const dep of ["esbuild", "vite"]) symlinkSync(join(REPO, "node_modules", dep), join(project, "node_modules", dep), "dir");
  const env = cleanEnv({ USER_SPACE: join(base, "home") });
  const marker = join(base, "PWNED");
  const built = rye(project, env, "build");
  writeApp(project);
  const bundlers: Record<string, { script: string; output: () => string }> = {
    "esbuild (node)": { script: ESBUILD("node", "dist-node/app.mjs"), output: () => join(project, "dist-node", "app.mjs") },
    "esbuild (browser)": { script: ESBUILD("browser", "dist-browser/app.mjs"), output: () => join(project, "dist-browser", "app.mjs") },
    "Vite SSR": { script: VITE("dist-vite"), output: () => join(project, "dist-vite", readdirSync(join(project, "dist-vite")).find((f) => /\.m?js$/.test(f))!) },
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
    const greet = join(project, "out", "directives", "examples", "greet.js");
    const saved = readFileSync(greet);
    const output = join(project, name.includes("Vite") ? "dist-vite" : name.includes("browser") ? "dist-browser" : "dist-node");
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
});
