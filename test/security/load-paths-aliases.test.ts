// A module of an output folder replaced by a symbolic link, reached through a name that is not a
// path: package.json "imports" (exact and pattern, conditional), a package's self-reference through
// "exports", and NODE_PATH. No request names out/, so only the rule on the target's side holds: a
// file that a link inside an output folder leads to is never loaded, by any name. Each alias × load
// path × kind of link is refused, naming the link, and the payload's marker is never written.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, makeProject, markerRan, node, payload, replaceFileWithLink, replaceFolderWithLink, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const MODULE = "directives/examples/greet.js";
const RENDER = `JSON.stringify(g.render({ name: "Ada" }))`;

/** The application's package.json fields beside `name` and `type`, and the environment it adds. */
const PACKAGE = {
  name: "victim-app",
  type: "module",
  imports: { "#greet": "./out/directives/examples/greet.js", "#ex/*": "./out/directives/examples/*.js", "#cond": { import: "./out/directives/examples/greet.js", require: "./out/directives/examples/greet.js" } },
  exports: { "./greet": "./out/directives/examples/greet.js", "./package.json": "./package.json" },
};

/** How the application reaches the module: file, its text, and extra environment. */
const ROWS: Record<string, { file: string; text: string; env?: (project: string) => Record<string, string> }> = {
  "imports, exact, static import": { file: "app.mjs", text: `import * as g from "#greet";\nconsole.log(${RENDER});\n` },
  "imports, pattern, dynamic import()": { file: "app.mjs", text: `const g = await import("#ex/greet");\nconsole.log(${RENDER});\n` },
  "imports, conditional, require()": { file: "app.cjs", text: `const g = require("#cond");\nconsole.log(${RENDER});\n` },
  "imports, exact, createRequire": { file: "app.mjs", text: `import { createRequire } from "node:module";\nconst g = createRequire(import.meta.url)("#greet");\nconsole.log(${RENDER});\n` },
  "self-reference through exports, import": { file: "app.mjs", text: `import * as g from "victim-app/greet";\nconsole.log(${RENDER});\n` },
  "self-reference through exports, require()": { file: "app.cjs", text: `const g = require("victim-app/greet");\nconsole.log(${RENDER});\n` },
  "NODE_PATH, require()": { file: "app.cjs", text: `const g = require("directives/examples/greet");\nconsole.log(${RENDER});\n`, env: (p) => ({ NODE_PATH: join(p, "out") }) },
};

describe("a link inside an output folder is refused when reached through an alias", () => {
  const base = tempDir("rye-load-aliases-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  // Payloads inside the project, and in a folder of their own outside it.
  const inside = join(project, "vendor");
  const outside = mkdtempSync(join(tmpdir(), "rye-alias-payload-"));
  let expected = "";

  const KINDS: Record<string, () => () => void> = {
    "a link to a payload in the project": () => fileLink(join(inside, "greet.js")),
    "a link to a payload outside the project": () => fileLink(join(outside, "greet.js")),
    "a linked folder on the path": () => folderLink(join(project, "out", "directives", "examples"), join(outside, "examples")),
  };

  const fileLink = (target: string) => replaceFileWithLink(join(project, "out", MODULE), target);
  const folderLink = replaceFolderWithLink;

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    writeFileSync(join(project, "package.json"), JSON.stringify(PACKAGE));
    const body = `${payload(marker)}export const render = () => ({ body: "pwned" });\n`;
    for (const dir of [inside, outside, join(outside, "examples")]) mkdirSync(dir, { recursive: true });
    for (const file of [join(inside, "greet.js"), join(outside, "greet.js"), join(outside, "examples", "greet.js")]) writeFileSync(file, body);
    writeFileSync(join(project, "plain.mjs"), `import * as g from "#greet";\nconsole.log(${RENDER});\n`);
    const ok = node(project, env, "--import", "rye-build/register", "plain.mjs");
    expect(ok.status, ok.stderr).toBe(0);
    expected = ok.stdout;
    expect(expected).toContain("Ada");
  }, 60_000);

  function run(name: string) {
    const row = ROWS[name]!;
    writeFileSync(join(project, row.file), row.text);
    return node(project, { ...env, ...(row.env?.(project) ?? {}) }, "--import", "rye-build/register", row.file);
  }

  test("control: without the loader, each kind of link runs the payload through an alias", () => {
    for (const kind of Object.keys(KINDS)) {
      const undo = KINDS[kind]!();
      rmSync(marker, { force: true });
      try {
        node(project, env, "plain.mjs");
        expect(markerRan(marker), kind).toBe(true);
      } finally {
        undo();
        rmSync(marker, { force: true });
      }
    }
  });

  test.each(Object.keys(ROWS))("%s: the untouched build loads", (name) => {
    const r = run(name);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
  }, 60_000);

  const cases = Object.keys(ROWS).flatMap((row) => Object.keys(KINDS).map((kind) => [row, kind] as const));
  test.each(cases)("%s, %s: refused, and the payload never runs", (row, kind) => {
    const undo = KINDS[kind]!();
    rmSync(marker, { force: true });
    try {
      const r = run(row);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/a link inside a build output folder|is a symbolic link inside the build output folder/);
      expect(r.stdout).toBe("");
      expect(markerRan(marker)).toBe(false);
    } finally {
      undo();
    }
  }, 60_000);
});
