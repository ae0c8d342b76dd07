// Under require() on Node 20, a required ES module's static imports are linked by a loader no hook
// reaches; rye walks the import graph first and compiles the output it meets from verified bytes.
// Node decides what is an ES module with readers rye cannot see (package scopes across a linked
// folder or a node_modules boundary, syntax detection), and a require hook installed later can
// compile an application module itself. So the walk follows every file with module syntax, and
// every text a later hook compiles. Each way of reaching a tampered output module is refused, and
// the payload's marker never exists.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeProject, markerRan, node, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const KEYS = "console.log(Object.keys(m.directives).length > 0 ? 'loaded' : 'empty');";

/** Each row: files to write (relative to the project), and the CommonJS app to run. */
const ROWS: Record<string, { files: Record<string, string>; links?: [string, string][]; app: string }> = {
  "a require hook installed later compiles an application ES module": {
    files: { "lib/package.json": '{"type":"module"}', "lib/lib.js": 'import { directives } from "../out/index.js";\nexport { directives };\n' },
    app: `const fs = require("node:fs");\nrequire.extensions[".js"] = function (module, filename) { module._compile(fs.readFileSync(filename, "utf8"), filename); };\nconst m = require("./lib/lib.js");\n${KEYS}\n`,
  },
  "a package scope reached through a linked folder": {
    files: { "package.json": '{"type":"commonjs"}', "shared-real/package.json": '{"type":"module"}', "shared-real/src/lib.js": 'import { directives } from "../../out/index.js";\nexport { directives };\n', "entry.mjs": 'export * from "./app-lib/lib.js";\n' },
    links: [["shared-real/src", "app-lib"]],
    app: `const m = require("./entry.mjs");\n${KEYS}\n`,
  },
  "a module beyond a node_modules boundary, detected as ESM by its syntax": {
    files: { "package.json": '{"type":"commonjs"}', "node_modules/lib.js": 'import { directives } from "../out/index.js";\nexport { directives };\n' },
    app: `const m = require("./node_modules/lib.js");\n${KEYS}\n`,
  },
};

describe.skipIf(!process.features.require_module)("require() of an ES module links only verified output", () => {
  const base = tempDir("rye-require-esm-");
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const projects: Record<string, string> = {};

  beforeAll(() => {
    for (const [i, name] of Object.keys(ROWS).entries()) {
      const project = makeProject(join(base, `p${i}`));
      const built = rye(project, env, "build");
      expect(built.status, built.stderr).toBe(0);
      const row = ROWS[name]!;
      for (const [file, text] of Object.entries(row.files)) {
        mkdirSync(join(project, file, ".."), { recursive: true });
        writeFileSync(join(project, file), text);
      }
      for (const [target, at] of row.links ?? []) symlinkSync(target, join(project, at), "dir");
      writeFileSync(join(project, "app.cjs"), row.app);
      projects[name] = project;
    }
  }, 120_000);

  test.each(Object.keys(ROWS))("%s: the untouched build loads", (name) => {
    const r = node(projects[name]!, env, "--import", "rye-build/register", "app.cjs");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("loaded\n");
  }, 60_000);

  test.each(Object.keys(ROWS))("%s: a tampered module is refused, and the payload never runs", (name) => {
    const project = projects[name]!;
    const target = join(project, "out", "index.js");
    const saved = readFileSync(target);
    inject(target, marker);
    rmSync(marker, { force: true });
    try {
      const r = node(project, env, "--import", "rye-build/register", "app.cjs");
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/Content modified since signing/);
      expect(markerRan(marker)).toBe(false);
    } finally {
      writeFileSync(target, saved);
    }
  }, 60_000);
});
