// The package is ready to publish: what `npm pack` puts in the tarball is the built package and
// nothing of the sources or tests, every export and bin it declares is in it with its types, and the
// metadata a registry and provenance need is there. Types resolving from a real install is checked
// by the first-hour test (exports.mts).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { canRequireEsm } from "../../src/init/module-note.js";
import { REPO } from "./install.js";

interface Manifest {
  name: string;
  engines: { node: string };
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  files: string[];
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
  scripts: Record<string, string>;
}

const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as Manifest;
const packed = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } })) as { files: { path: string }[] }[];
const files = new Set(packed[0]!.files.map((f) => f.path));
const strip = (target: string) => target.replace(/^\.\//, "");

/** Every file an `exports` entry names, with the condition it is under. */
const targets = Object.entries(pkg.exports).flatMap(([entry, value]) =>
  typeof value === "string" ? [{ entry, condition: "default", target: strip(value) }] : Object.entries(value).map(([condition, target]) => ({ entry, condition, target: strip(target) })),
);

describe("the tarball npm pack makes", () => {
  test("holds no sources, tests, scripts or editor folders", () => {
    const stray = [...files].filter((f) => /^(src|test|scripts|bench|editors|reports|grammar\/generated|\.ai|node_modules)\//.test(f) || (/\.ts$/.test(f) && !f.endsWith(".d.ts")) || /\.test\.|tsbuildinfo|metafile\.json$/.test(f));
    expect(stray).toEqual([]);
  });

  test("holds the readme, the licence and the manifest", () => {
    for (const f of ["README.md", "LICENSE", "package.json"]) expect(files.has(f), f).toBe(true);
  });

  test.each(targets)("exports $entry ($condition) names a file in it: $target", ({ target }) => {
    expect(files.has(target)).toBe(true);
  });

  test("every code export has types beside it, under a types condition listed first", () => {
    for (const [entry, value] of Object.entries(pkg.exports)) {
      if (typeof value === "string") continue;
      expect(Object.keys(value)[0], entry).toBe("types");
      expect(value.types, entry).toMatch(/\.d\.ts$/);
      expect(strip(value.types!).replace(/\.d\.ts$/, ".js"), entry).toBe(strip(value.default!));
    }
  });

  test.each(Object.entries(pkg.bin))("bin %s is in it and starts with a node shebang", (_, target) => {
    expect(files.has(strip(target))).toBe(true);
    expect(readFileSync(join(REPO, target), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });
});

describe("package.json", () => {
  test("is named rye-build, with a bin of that name beside rye, and the README says to call rye-build", () => {
    expect(pkg.name).toBe("rye-build");
    expect(Object.keys(pkg.bin).sort()).toEqual(["rye", "rye-build"]);
    expect(readFileSync(join(REPO, "README.md"), "utf8")).toMatch(/never call it through npx as\s+`npx rye`/);
  });

  test("engines.node is the oldest Node that can require() the output, and this Node satisfies it", () => {
    expect(pkg.engines.node).toBe(">=20.19.0");
    expect(canRequireEsm(process.versions.node)).toBe(true);
    expect(canRequireEsm("20.18.9")).toBe(false);
  });

  test("points at the same repository as the VS Code extension, with a homepage and an issue tracker", () => {
    const vscode = JSON.parse(readFileSync(join(REPO, "editors", "vscode", "package.json"), "utf8")) as Manifest;
    expect(pkg.repository.type).toBe("git");
    expect(pkg.repository.url.replace(/^git\+/, "")).toBe(vscode.repository.url);
    const web = vscode.repository.url.replace(/\.git$/, "");
    expect(pkg.homepage).toBe(`${web}#readme`);
    expect(pkg.bugs.url).toBe(`${web}/issues`);
  });

  test("prepublishOnly builds from an empty dist/, type-checks and runs a test subset that exists", () => {
    const script = pkg.scripts.prepublishOnly!;
    expect(script).toMatch(/rmSync\('dist'.*&& npm run build && npm run check && vitest run /);
    const tests = script.split("vitest run ")[1]!.split(" ");
    expect(tests).toContain("test/first-hour/package.test.ts");
    for (const t of tests) expect(existsSync(join(REPO, t)), t).toBe(true);
  });
});
