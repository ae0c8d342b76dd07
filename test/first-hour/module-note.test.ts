// What `rye init` says about loading the output, by the kind of package it finds.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { canRequireEsm, moduleNote } from "../../src/init/module-note.js";

function project(pkg: object | null, config?: object): string {
  const dir = mkdtempSync(join(tmpdir(), "rye-note-"));
  if (pkg) writeFileSync(join(dir, "package.json"), JSON.stringify(pkg));
  if (config) writeFileSync(join(dir, "rye.config.json"), JSON.stringify(config));
  return dir;
}

describe("moduleNote", () => {
  test("an ES module package imports the output", () => {
    expect(moduleNote(project({ type: "module" }), "20.19.0")).toEqual(['Load the output with: import { directives } from "./out/index.js";']);
  });
  test.each([{ type: "commonjs" }, {}])("a CommonJS package (%j) requires it, in JavaScript and TypeScript", (pkg) => {
    const note = moduleNote(project(pkg), "20.19.0").join("\n");
    expect(note).toContain('const { directives } = require("./out/index.js");');
    expect(note).toContain('import rye = require("./out/index.js");');
    expect(note).not.toContain("cannot require()");
  });
  test("names the configured output folder", () => {
    expect(moduleNote(project({ type: "commonjs" }, { out: "./build/rye/" }), "22.0.0").join("\n")).toContain('require("./build/rye/index.js")');
  });
  test("warns a Node that cannot require() an ES module", () => {
    expect(moduleNote(project({ type: "commonjs" }), "20.18.3").at(-1)).toMatch(/cannot require\(\) an ES module: use Node 20\.19/);
  });
  test("says nothing without a package.json", () => expect(moduleNote(project(null), "20.19.0")).toEqual([]));
  test.each([["20.19.0", true], ["20.18.9", false], ["21.0.0", true], ["19.99.0", false], ["22.1.0", true]] as const)("canRequireEsm(%s) is %s", (v, ok) => expect(canRequireEsm(v)).toBe(ok));
});
