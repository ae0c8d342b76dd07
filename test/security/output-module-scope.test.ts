// out/package.json decides whether Node reads every `.js` of the output folder as an ES module, so
// the signed manifest binds it like a module. Each row changes it (removed, edited, replaced, a
// nested one planted, or a manifest that does not list it, signed by the trusted key itself) under
// a project whose own package.json says CommonJS: rye verify fails naming package.json, the loader
// refuses to import, and the payload some rows point package.json at never runs.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { loadSigningKey } from "../../src/sign/keys.js";
import { manifestFiles, shardPath, type Manifest, type Shard } from "../../src/sign/sign-manifest.js";
import { makeProject, markerRan, node, rye, tempDir, writeApp } from "./helpers.js";

/** Rewrites out/manifest.json and its shards, signed with `key`, listing every file but package.json. */
function manifestWithoutScope(out: string, keyDir: string): void {
  const old = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as Manifest;
  const files: [string, string][] = [];
  const items = new Map<string, { itemId: string; sourceSha256: string }>();
  for (const [name, sha] of Object.entries(old.files)) if (name !== "package.json") files.push([name, sha]);
  for (const folder of Object.keys(old.shards)) {
    const shard = JSON.parse(readFileSync(join(out, shardPath(folder)), "utf8")) as Shard;
    for (const [name, sha] of Object.entries(shard.files)) files.push([`${folder}/${name}`, sha]);
    for (const [name, [itemId, sourceSha256]] of Object.entries(shard.items)) items.set(`${folder}/${name}`, { itemId, sourceSha256 });
  }
  const sourceList = readFileSync(join(out, "manifest", "sources.txt"), "utf8");
  rmSync(join(out, "manifest"), { recursive: true, force: true });
  for (const [rel, text] of manifestFiles(files, (p) => items.get(p), { ...old, sourceList }, loadSigningKey(keyDir))) {
    mkdirSync(join(out, rel, ".."), { recursive: true });
    writeFileSync(join(out, rel), text);
  }
}

type Change = (project: string, ctx: { keyDir: string; marker: string }) => void;

const payloadAt = (project: string, marker: string) => writeFileSync(join(project, "payload.cjs"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`);

const ROWS: Record<string, Change> = {
  "removed": (p) => rmSync(join(p, "out", "package.json")),
  'edited to {"type": "commonjs"}': (p) => writeFileSync(join(p, "out", "package.json"), '{"type":"commonjs"}\n'),
  "the same fields, written another way": (p) => writeFileSync(join(p, "out", "package.json"), '{"private":true,"type":"module"}'),
  'given "main" and "exports" that point at a payload': (p, c) => {
    payloadAt(p, c.marker);
    writeFileSync(join(p, "out", "package.json"), JSON.stringify({ type: "module", private: true, main: "../payload.cjs", exports: { ".": "../payload.cjs", "./*": "./*" } }));
  },
  "replaced by a folder": (p) => {
    rmSync(join(p, "out", "package.json"));
    mkdirSync(join(p, "out", "package.json"));
  },
  'a nested directives/package.json {"type": "commonjs"}': (p) => writeFileSync(join(p, "out", "directives", "package.json"), '{"type":"commonjs"}\n'),
  "a manifest that does not list it, signed by the trusted key": (p, c) => manifestWithoutScope(join(p, "out"), c.keyDir),
  "a manifest that does not list it, and the file removed": (p, c) => {
    manifestWithoutScope(join(p, "out"), c.keyDir);
    rmSync(join(p, "out", "package.json"));
  },
};

let built: string;
let env: NodeJS.ProcessEnv;
let keyDir: string;

beforeAll(() => {
  const user = join(tempDir("rye-scope-user-"), "user");
  keyDir = join(user, ".ai", "config", "keys", "signing");
  env = { PATH: process.env.PATH ?? "", USER_SPACE: user, NO_COLOR: "1" };
  built = makeProject(join(tempDir("rye-scope-"), "proj"));
  const b = rye(built, env, "build");
  expect(b.status, b.stderr).toBe(0);
  writeApp(built);
  // The app imports the folder through package.json too, as a CommonJS require would.
  writeFileSync(join(built, "app-folder.mjs"), `import { createRequire } from "node:module";\nconst m = createRequire(import.meta.url)("./out");\nconsole.log(Object.keys(m).length);\n`);
  // The project around out/ is CommonJS: without out/package.json, its .js files are read as CommonJS.
  writeFileSync(join(built, "package.json"), '{ "type": "commonjs", "private": true }\n');
}, 120_000);

describe("out/package.json is bound by the signed manifest", () => {
  test("control: the output as built verifies and imports", () => {
    const ok = rye(built, env, "verify", "out");
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    const app = node(built, env, "--import", "rye-build/register", "app.mjs");
    expect(app.status, app.stderr).toBe(0);
    expect(app.stdout).toContain("Ada");
  }, 60_000);

  test.each(Object.entries(ROWS))("%s: verify and the loader refuse, no marker", (_name, change) => {
    const project = join(tempDir("rye-scope-row-"), "proj");
    cpSync(built, project, { recursive: true });
    const marker = join(project, "..", "PWNED");
    change(project, { keyDir, marker });
    const verified = rye(project, env, "verify", "out");
    expect(verified.status, verified.stdout).toBe(1);
    expect(verified.stdout + verified.stderr).toMatch(/package\.json/);
    for (const app of ["app.mjs", "app-folder.mjs"]) {
      const ran = node(project, env, "--import", "rye-build/register", app);
      expect(ran.status, ran.stdout).not.toBe(0);
      expect(ran.stderr).toMatch(/IntegrityError|package\.json/);
      expect(markerRan(marker)).toBe(false);
    }
  }, 60_000);
});
