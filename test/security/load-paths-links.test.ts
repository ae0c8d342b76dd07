// A module of an output folder replaced by a symbolic link: Node resolves links before it loads, so
// the loader sees the link's TARGET, which may lie outside every output folder and carry no rye mark.
// Each way of loading the module (rows) is tried with each kind of link (kinds): the untouched build
// loads; every link is refused, naming the link, and the payload's marker is never written.
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, makeProject, markerRan, node, payload, replaceFileWithLink, replaceFolderWithLink, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const MODULE = "directives/examples/greet.js";
const RENDER = `JSON.stringify(g.render({ name: "Ada" }))`;

/** How the application reaches out/directives/examples/greet.js (or the copy in node_modules/plain). */
const ROWS: Record<string, { files: Record<string, string>; args: string[]; prints: boolean }> = {
  "static import": { files: { "app.mjs": `import * as g from "./out/${MODULE}";\nconsole.log(${RENDER});\n` }, args: ["app.mjs"], prints: true },
  "dynamic import()": { files: { "app.mjs": `const g = await import("./out/${MODULE}");\nconsole.log(${RENDER});\n` }, args: ["app.mjs"], prints: true },
  "import() of an absolute file URL": { files: { "app.mjs": `const g = await import(new URL("./out/${MODULE}", import.meta.url).href);\nconsole.log(${RENDER});\n` }, args: ["app.mjs"], prints: true },
  "require()": { files: { "app.cjs": `const g = require("./out/${MODULE}");\nconsole.log(${RENDER});\n` }, args: ["app.cjs"], prints: true },
  "require() without the extension": { files: { "app.cjs": `const g = require("./out/${MODULE.replace(/\.js$/, "")}");\nconsole.log(${RENDER});\n` }, args: ["app.cjs"], prints: true },
  "createRequire": { files: { "app.mjs": `import { createRequire } from "node:module";\nconst g = createRequire(import.meta.url)("./out/${MODULE}");\nconsole.log(${RENDER});\n` }, args: ["app.mjs"], prints: true },
  "import of a dependency's subpath": { files: { "app.mjs": `const g = await import("plain/out/${MODULE}");\nconsole.log(${RENDER});\n` }, args: ["app.mjs"], prints: true },
  "require() of a dependency's subpath": { files: { "app.cjs": `const g = require("plain/out/${MODULE}");\nconsole.log(${RENDER});\n` }, args: ["app.cjs"], prints: true },
  "the main script itself": { files: {}, args: [`out/${MODULE}`], prints: false },
  "a Worker started from the file": {
    files: { "app.mjs": `import { Worker } from "node:worker_threads";\nconst w = new Worker("./out/${MODULE}");\nw.on("error", (e) => { console.error(String(e && e.stack || e)); process.exitCode = 1; });\n` },
    args: ["app.mjs"],
    prints: false,
  },
};

describe("a module of an output folder replaced by a symbolic link is refused on every load path", () => {
  const base = tempDir("rye-load-links-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const evil = join(base, "evil");
  const other = join(base, "other-out");
  let expected = "";

  /** The module (in out/ and in node_modules/plain/out/) becomes a link, by kind; returns the undo. */
  const KINDS: Record<string, (out: string) => () => void> = {
    "relative link to an unmarked payload outside": (out) => fileLink(out, (at) => relative(join(at, ".."), join(evil, "greet.js"))),
    "absolute link to an unmarked payload outside": (out) => fileLink(out, () => join(evil, "greet.js")),
    "linked folder on the path (examples/ -> an outside copy with the payload)": (out) => folderLink(join(out, "directives", "examples"), join(evil, "examples")),
    "link to another item of another output folder signed by the same key": (out) => fileLink(out, () => join(other, "directives", "examples", "count_words.js")),
    "linked folder to another output folder signed by the same key": (out) => folderLink(join(out, "directives"), join(other, "directives")),
  };

  function fileLink(out: string, target: (at: string) => string): () => void {
    const at = join(out, MODULE);
    return replaceFileWithLink(at, target(at));
  }

  const folderLink = replaceFolderWithLink;

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    const out = join(project, "out");
    // node_modules/plain: a dependency shipping the same build, no exports map, so subpaths resolve.
    mkdirSync(join(project, "node_modules", "plain"), { recursive: true });
    writeFileSync(join(project, "node_modules", "plain", "package.json"), JSON.stringify({ name: "plain", type: "module" }));
    cpSync(out, join(project, "node_modules", "plain", "out"), { recursive: true });
    // The payloads: an unmarked module that renders, and a copy of examples/ holding it.
    cpSync(join(out, "directives", "examples"), join(evil, "examples"), { recursive: true });
    const body = `${payload(marker)}export const render = () => ({ body: "pwned" });\n`;
    writeFileSync(join(evil, "greet.js"), body);
    writeFileSync(join(evil, "examples", "greet.js"), body);
    // Another output folder, signed by the same key: its files verify, for their own paths and items.
    cpSync(out, other, { recursive: true });
    writeFileSync(join(project, "plain.mjs"), `import * as g from "./out/${MODULE}";\nconsole.log(${RENDER});\n`);
    const ok = node(project, env, "--import", "rye-build/register", "plain.mjs");
    expect(ok.status, ok.stderr).toBe(0);
    expected = ok.stdout;
    expect(expected).toContain("Ada");
  }, 60_000);

  function run(name: string) {
    const row = ROWS[name]!;
    for (const [file, text] of Object.entries(row.files)) writeFileSync(join(project, file), text);
    return node(project, env, "--import", "rye-build/register", ...row.args);
  }

  test("control: with nothing verifying (plain node), a linked payload does run", () => {
    const undo = KINDS["absolute link to an unmarked payload outside"]!(join(project, "out"));
    try {
      rmSync(marker, { force: true });
      node(project, env, "plain.mjs");
      expect(markerRan(marker)).toBe(true);
    } finally {
      undo();
      rmSync(marker, { force: true });
    }
  });

  test.each(Object.keys(ROWS))("%s: the untouched build loads", (name) => {
    const r = run(name);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(ROWS[name]!.prints ? expected : "");
  }, 60_000);

  const cases = Object.keys(ROWS).flatMap((row) => Object.keys(KINDS).map((kind) => [row, kind] as const));
  test.each(cases)("%s, %s: refused, and the payload never runs", (row, kind) => {
    const out = join(project, row.includes("dependency") ? "node_modules/plain/out" : "out");
    const undo = KINDS[kind]!(out);
    rmSync(marker, { force: true });
    try {
      const r = run(row);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/is a symbolic link inside the build output folder/);
      expect(r.stdout).toBe("");
      expect(markerRan(marker)).toBe(false);
    } finally {
      undo();
    }
  }, 60_000);
});
