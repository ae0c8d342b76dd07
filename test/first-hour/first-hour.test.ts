// A new user's first hour, scripted: the package from `npm pack`, installed offline into a project
// `npm init -y` made (CommonJS), then the README's steps as written: rye init, build, import from
// TypeScript with `tsc --init` defaults (TypeScript 6, and 7 when it installs offline) and from
// CommonJS, run through the verifying loader, esbuild and Vite builds, a signed bundle checked with
// openssl and run, `rye build --check`, and the language server started as docs/editors.md starts it.
// Every command must exit 0 and print something.
import { spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { handshake } from "../editors/lsp-handshake.js";
import { firstHourProject, REPO, type Place } from "./install.js";
import { failingStep, readmeBlock, readmeShell, shellStep, step } from "./steps.js";

let p: Place;
const node = process.execPath;
const npx = (args: string[]) => step("npx", ["--no-install", ...args], p.app, p.env);
const tsc6 = join(REPO, "node_modules", "typescript", "bin", "tsc");
const GREETING = "Write one line: Hello Ada!";

beforeAll(() => {
  p = firstHourProject();
  console.log(`first hour in ${p.app}; rye-build installed by ${p.installedBy}`);
}, 180_000);

/** @typescript/native-preview from the npm cache, or why not. */
function typescript7(): { tsgo: string } | { skip: string } {
  const dir = join(p.base, "ts7");
  const r = spawnSync("npm", ["install", "--offline", "--no-save", "--prefix", dir, "@typescript/native-preview"], { env: p.env, encoding: "utf8" });
  const tsgo = join(dir, "node_modules", ".bin", "tsgo");
  if (r.status === 0 && existsSync(tsgo)) return { tsgo };
  return { skip: `TypeScript 7 (@typescript/native-preview) is not installable offline: ${/npm error code (\S+)/.exec(r.stderr)?.[1] ?? `exit ${r.status}`} (an online npm install of it once puts it in the cache)` };
}

/** A module importing the types of every code export of the installed package: tsc fails on one that does not resolve. */
function exportsProbe(): string {
  const { exports } = JSON.parse(readFileSync(join(p.app, "node_modules", "rye-build", "package.json"), "utf8")) as { exports: Record<string, unknown> };
  const entries = Object.keys(exports).filter((e) => !e.endsWith(".json"));
  expect(entries.length).toBeGreaterThan(5);
  const lines = entries.map((e, i) => `import type * as m${i} from "${join("rye-build", e)}";`);
  return `${lines.join("\n")}\nexport type Exports = [${entries.map((_, i) => `typeof m${i}`).join(", ")}];\n`;
}

/** `tsc --init` then a compile of app.ts (CommonJS) and esm.mts, listing what was written. */
function compileWith(tsc: string[]): void {
  rmSync(join(p.app, "tsconfig.json"), { force: true });
  for (const f of ["app.js", "esm.mjs"]) rmSync(join(p.app, f), { force: true });
  step(tsc[0]!, [...tsc.slice(1), "--init"], p.app, p.env);
  const config = readFileSync(join(p.app, "tsconfig.json"), "utf8");
  expect(config).toMatch(/"module":\s*"nodenext"/);
  expect(config).toMatch(/"verbatimModuleSyntax":\s*true/);
  const listed = step(tsc[0]!, [...tsc.slice(1), "--listEmittedFiles"], p.app, p.env).stdout;
  expect(listed).toContain(join(p.app, "app.js"));
  expect(listed).toContain(join(p.app, "esm.mjs"));
  expect(listed).toContain(join(p.app, "exports.d.mts"));
}

/** Both compiled files run under the verifying loader and print the greeting. */
function runCompiled(): void {
  expect(shellStep(readmeShell(/--import rye-build\/register app\.js/), p.app, p.env).stdout).toContain(GREETING);
  expect(step(node, ["--import", "rye-build/register", "esm.mjs"], p.app, p.env).stdout).toContain(GREETING);
}

describe("the first hour, offline, from npm pack", { timeout: 90_000 }, () => {
  test("npm init -y made a CommonJS package, and rye-build's two bins are installed", () => {
    expect(JSON.parse(readFileSync(join(p.app, "package.json"), "utf8"))).toMatchObject({ type: "commonjs" });
    expect(npx(["rye-build", "--version"]).stdout).toMatch(/\d+\.\d+\.\d+/);
    expect(npx(["rye", "--version"]).stdout).toMatch(/\d+\.\d+\.\d+/);
  });

  test("rye init scaffolds a project and says how a CommonJS package loads the output", () => {
    const out = npx(["rye-build", "init"]).stdout;
    expect(out).toContain("created  .ai/directives/hello/summarize.md");
    expect(out).toContain('require("./out/index.js")');
    mkdirSync(join(p.app, ".ai", "directives", "hello"), { recursive: true });
    writeFileSync(join(p.app, ".ai", "directives", "hello", "greet.md"), readmeBlock("directive", "hello/greet"));
  });

  test("rye build compiles both directives", () => {
    expect(npx(["rye-build", "build"]).stdout).toMatch(/Compiled 2 of 2 directives/);
    expect(JSON.parse(readFileSync(join(p.app, "out", "package.json"), "utf8"))).toMatchObject({ type: "module" });
  });

  test("TypeScript 6 with tsc --init defaults compiles the README's CommonJS and ESM code, and both run under the loader", () => {
    writeFileSync(join(p.app, "app.ts"), readmeBlock("package", "commonjs"));
    writeFileSync(join(p.app, "esm.mts"), readmeBlock("package", "module"));
    writeFileSync(join(p.app, "exports.mts"), exportsProbe());
    compileWith([node, tsc6]);
    runCompiled();
  });

  test("TypeScript 7 (native preview) with its tsc --init defaults, when installable", (ctx) => {
    const ts7 = typescript7();
    if ("skip" in ts7) {
      console.log(`skipped: ${ts7.skip}`);
      return ctx.skip(ts7.skip);
    }
    compileWith([ts7.tsgo]);
    runCompiled();
  });

  test("TypeScript 6 with module: commonjs compiles the ESM import form to a require() that runs under the loader", () => {
    // After the tsc --init compiles: their tsconfig.json would take this folder in too.
    const dir = join(p.app, "classic");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "commonjs", target: "es2022", strict: true, types: [], skipLibCheck: true }, files: ["main.ts"] }));
    // The README's ESM block, one folder down.
    writeFileSync(join(dir, "main.ts"), readmeBlock("package", "module").replaceAll("./out/index.js", "../out/index.js"));
    expect(step(node, [tsc6, "-p", dir, "--listEmittedFiles"], p.app, p.env).stdout).toContain(join(dir, "main.js"));
    expect(readFileSync(join(dir, "main.js"), "utf8")).toContain('require("../out/index.js")');
    expect(step(node, ["--import", "rye-build/register", join(dir, "main.js")], p.app, p.env).stdout).toContain(GREETING);
  });

  test("plain CommonJS JavaScript requires the output, directives and tools, under the loader", () => {
    writeFileSync(
      join(p.app, "plain.js"),
      `const { directives } = require("./out/index.js");\nconst { tools } = require("./out/tools.js");\nconsole.log(directives["hello/greet"].render({ name: "Ada" }).prompt);\nconsole.log(Object.keys(tools).join(","));\n`,
    );
    const out = step(node, ["--import", "rye-build/register", "plain.js"], p.app, p.env).stdout;
    expect(out).toContain(GREETING);
    expect(out).toContain("hello/word_count");
  });

  test("the loader refuses a changed output file before any of it runs", () => {
    const file = join(p.app, "out", "directives", "hello", "greet.js");
    const marker = join(p.base, "tampered-ran");
    const kept = `${file}.kept`;
    copyFileSync(file, kept);
    appendFileSync(file, `\nrequire("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`);
    try {
      expect(failingStep(node, ["--import", "rye-build/register", "plain.js"], p.app, p.env).stderr).toMatch(/IntegrityError|modified since signing/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      copyFileSync(kept, file);
      rmSync(kept);
    }
  });

  test("esbuild bundles the CommonJS app through the rye-build/esbuild plugin, and the bundle runs", () => {
    writeFileSync(
      join(p.app, "esbuild.mjs"),
      `import { build } from "esbuild";\nimport { ryeVerify } from "rye-build/esbuild";\nconst r = await build({ entryPoints: ["app.js"], bundle: true, platform: "node", outfile: "dist-esbuild/app.cjs", plugins: [ryeVerify()], metafile: true });\nconsole.log(Object.keys(r.metafile.inputs).join("\\n"));\n`,
    );
    expect(step(node, ["esbuild.mjs"], p.app, p.env).stdout).toContain("out/directives/hello/greet.js");
    expect(step(node, ["dist-esbuild/app.cjs"], p.app, p.env).stdout).toContain(GREETING);
  });

  test("Vite builds with the rye-build/vite plugin, and the build runs", () => {
    writeFileSync(join(p.app, "vite.config.mjs"), `import { ryeVerify } from "rye-build/vite";\nexport default { plugins: [ryeVerify()], build: { outDir: "dist-vite" } };\n`);
    writeFileSync(join(p.app, "main.mjs"), `import { directives } from "./out/index.js";\nconsole.log(directives["hello/greet"].render({ name: "Ada" }).prompt);\n`);
    expect(step(node, [join(p.app, "node_modules", "vite", "bin", "vite.js"), "build", "--ssr", "main.mjs"], p.app, p.env).stdout).toMatch(/dist-vite\/main\.mjs/);
    expect(step(node, ["dist-vite/main.mjs"], p.app, p.env).stdout).toContain(GREETING);
  });

  test("the README's CI steps: rye bundle, openssl verify, run the bundle", () => {
    const ci = readmeShell(/openssl pkeyutl -verify/).replaceAll("examples/greet", "hello/greet");
    const out = shellStep(ci, p.app, p.env).stdout;
    expect(out).toContain("Signature Verified Successfully");
    // `node out/bundle.mjs` and `rye run` each print the rendered directive.
    expect(out.split(GREETING).length - 1).toBeGreaterThanOrEqual(2);
  });

  test("rye build --check passes on fresh output and fails on a stale one", () => {
    expect(npx(["rye-build", "build", "--check"]).status).toBe(0);
    const directive = join(p.app, ".ai", "directives", "hello", "greet.md");
    const text = readFileSync(directive, "utf8");
    writeFileSync(directive, text.replace("Write one line", "Write a line"));
    try {
      const stale = failingStep("npx", ["--no-install", "rye-build", "build", "--check"], p.app, p.env);
      expect(`${stale.stdout}${stale.stderr}`).toMatch(/hello\/greet|stale|out of date/i);
    } finally {
      writeFileSync(directive, text);
    }
  });

  test("the language server answers over stdio, started as docs/editors.md starts it", async () => {
    const draft = join(p.app, ".ai", "directives", "hello", "draft.md");
    writeFileSync(draft, readmeBlock("directive", "hello/greet").replace('name="greet"', 'name="draft"').replace("{input:greeting} ", ""));
    // docs/editors.md: npx --no-install (VS Code's setting), then the workspace's bin link (Neovim, Helix).
    for (const [command, args] of [["npx", ["--no-install", "rye-build", "lsp", "--stdio"]], [join(p.app, "node_modules", ".bin", "rye-build"), ["lsp", "--stdio"]]] as const) {
      const r = await handshake(command, [...args], p.app, p.app, draft, p.env);
      expect(r.serverName, command).toMatch(/rye/);
      expect(r.hasCompletion).toBe(true);
      expect(r.codes).toContain("RYE2002");
    }
  });
});
