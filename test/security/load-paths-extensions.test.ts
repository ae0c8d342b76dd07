// require() under the loader checks every file of an output folder whatever its extension: Node
// picks a handler by extension, and the JavaScript ones are not the only ones that run code. A native
// addon's constructors run inside process.dlopen, before anything could check it, so an addon in an
// output folder is refused outright (rye build never writes one); `.json` is parsed from the verified
// bytes; a handler registered later by the application still sees only checked files.
import { spawnSync } from "node:child_process";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { signingKeyFrom } from "../../src/sign/keys.js";
import { cleanEnv, makeProject, markerRan, node, resignOutput, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const gcc = spawnSync("gcc", ["--version"]).status === 0;

describe("require() checks every extension in an output folder", () => {
  const base = tempDir("rye-load-ext-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const addon = join(base, "evil.node");
  const out = join(project, "out");

  /** Files planted in out/ (none of them listed in its manifest), each required by a row. */
  const PLANTED = ["runtime/fast.node", "runtime/data.json", "runtime/notes.txt"];
  const TXT_HOOK = `require.extensions[".txt"] = (m, f) => { m.exports = require("node:fs").readFileSync(f, "utf8"); };\n`;
  const rows: Record<string, { file: string; text: string; refusal: RegExp; needsGcc?: true }> = {
    "require() of a native addon planted in out/": { file: "app.cjs", text: `require("./out/runtime/fast.node");\n`, refusal: /is a native addon inside a build output folder/, needsGcc: true },
    "createRequire() of a native addon planted in out/": { file: "app.mjs", text: `import { createRequire } from "node:module";\ncreateRequire(import.meta.url)("./out/runtime/fast.node");\n`, refusal: /is a native addon inside a build output folder/, needsGcc: true },
    "require() of a JSON file planted in out/": { file: "app.cjs", text: `console.log(require("./out/runtime/data.json"));\n`, refusal: /Not listed in the signed manifest/ },
    "require() of a planted file through an extension the application registers later": { file: "app.cjs", text: `${TXT_HOOK}console.log(require("./out/runtime/notes.txt"));\n`, refusal: /Not listed in the signed manifest/ },
  };

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    // A JSON file the owner's own build lists (re-signed with the owner's key), before anything is planted.
    writeFileSync(join(out, "runtime", "table.json"), `{ "listed": true }\n`);
    resignOutput(out, signingKeyFrom(readFileSync(join(outsideOf(base), "home", ".ai", "config", "keys", "signing", "private_key.pem"), "utf8")));
    if (gcc) {
      const c = join(base, "addon.c");
      writeFileSync(c, `#include <stdio.h>\n__attribute__((constructor)) static void pwn(void){ FILE*f=fopen(${JSON.stringify(marker)},"w"); if(f){fputs("x",f);fclose(f);} }\n`);
      expect(spawnSync("gcc", ["-shared", "-fPIC", "-o", addon, c]).status).toBe(0);
      writeFileSync(join(out, "runtime", "fast.node"), readFileSync(addon));
    }
    writeFileSync(join(out, "runtime", "data.json"), `{ "a": 1 }\n`);
    writeFileSync(join(out, "runtime", "notes.txt"), "planted\n");
    writeFileSync(join(project, "data.json"), `{ "own": true }\n`);
    writeFileSync(join(project, "notes.txt"), "own\n");
  }, 60_000);

  test.skipIf(!gcc)("control: with nothing verifying (plain node), the planted addon's constructor does run", () => {
    rmSync(marker, { force: true });
    writeFileSync(join(project, "app.cjs"), rows["require() of a native addon planted in out/"]!.text);
    node(project, env, "app.cjs");
    expect(markerRan(marker)).toBe(true);
    rmSync(marker);
  });

  test("control: the application's own JSON and .txt outside out/, and the build's own listed JSON, load under the loader", () => {
    writeFileSync(join(project, "own.cjs"), `${TXT_HOOK}console.log(JSON.stringify([require("./data.json"), require("./notes.txt"), require("./out/runtime/table.json")]));\n`);
    const r = node(project, env, "--import", "rye-build/register", "own.cjs");
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ own: true }, "own\n", { listed: true }]);
  });

  test("the build's own JSON changed after signing: refused", () => {
    const file = join(out, "runtime", "table.json");
    const saved = readFileSync(file);
    appendFileSync(file, " ");
    try {
      writeFileSync(join(project, "app.cjs"), `console.log(require("./out/runtime/table.json"));\n`);
      const r = node(project, env, "--import", "rye-build/register", "app.cjs");
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/Content modified since signing: runtime\/table\.json/);
      expect(r.stdout).toBe("");
    } finally {
      writeFileSync(file, saved);
    }
  });

  test.each(Object.keys(rows))("%s: refused before it loads", (name) => {
    const row = rows[name]!;
    if (row.needsGcc && !gcc) return;
    rmSync(marker, { force: true });
    writeFileSync(join(project, row.file), row.text);
    const r = node(project, env, "--import", "rye-build/register", row.file);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(row.refusal);
    expect(r.stdout).toBe("");
    expect(markerRan(marker)).toBe(false);
  });

  test("every planted file is reported by rye verify too", () => {
    const r = rye(project, env, "verify", "out");
    expect(r.status).toBe(1);
    for (const f of PLANTED.slice(gcc ? 0 : 1)) expect(r.stdout + r.stderr).toContain(f);
  });
});
