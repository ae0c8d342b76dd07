// Every way Node loads build output, under `--import rye-build/register`: the untouched build
// renders through each path exactly as a plain import does, and a module tampered with a payload
// is refused on each, naming the item, with the payload's marker never written. One control row
// shows the payload does run where nothing verifies (plain node), so "no marker" means something.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { signingKeyFrom } from "../../src/sign/keys.js";
import { cleanEnv, inject, makeProject, markerRan, node, resignOutput, rye, tempDir } from "./helpers.js";
import { DEP_PACKAGES, LOAD_PATHS, type Target } from "./load-path-rows.js";
import { outsideOf } from "../helpers/outside.js";

describe("every load path verifies build output before it runs", () => {
  const base = tempDir("rye-load-paths-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const greet: Record<Target, string> = {
    out: join(project, "out", "directives", "examples", "greet.js"),
    dep: join(project, "node_modules", "greeter", "out", "directives", "examples", "greet.js"),
  };
  let expected = "";

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    for (const [name, files] of Object.entries(DEP_PACKAGES)) {
      const dir = join(project, "node_modules", name);
      mkdirSync(dir, { recursive: true });
      for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    }
    cpSync(join(project, "out"), join(project, "node_modules", "greeter", "out"), { recursive: true });
    writeFileSync(join(project, "plain.mjs"), `import * as m from "./out/index.js";\nconsole.log(JSON.stringify(m.directives["examples/greet"].render({ name: "Ada" })));\n`);
    const ok = node(project, env, "--import", "rye-build/register", "plain.mjs");
    expect(ok.status, ok.stderr).toBe(0);
    expected = ok.stdout;
    expect(JSON.parse(expected)).toMatchObject({ body: expect.stringContaining("Ada") });
  }, 60_000);

  function run(name: string) {
    const row = LOAD_PATHS[name]!;
    for (const [file, text] of Object.entries(row.files)) writeFileSync(join(project, file), text);
    return node(project, env, "--import", "rye-build/register", ...row.args);
  }

  function tampered<T>(target: Target, body: () => T): T {
    const saved = readFileSync(greet[target]);
    rmSync(marker, { force: true });
    inject(greet[target], marker);
    try {
      return body();
    } finally {
      writeFileSync(greet[target], saved);
    }
  }

  test("control: with nothing verifying (plain node), the tampered module's payload does run", () => {
    tampered("out", () => node(project, env, "plain.mjs"));
    expect(markerRan(marker)).toBe(true);
    rmSync(marker);
  });

  test.each(Object.keys(LOAD_PATHS))("%s: the untouched build loads and renders", (name) => {
    const r = run(name);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
  }, 60_000);

  test.each(Object.keys(LOAD_PATHS))("%s: a tampered module is refused and its payload never runs", (name) => {
    const r = tampered(LOAD_PATHS[name]!.target, () => run(name));
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/IntegrityError|Content modified since signing/);
    expect(r.stderr).toContain("Content modified since signing: examples/greet");
    expect(r.stdout).not.toContain("Ada");
    expect(markerRan(marker)).toBe(false);
  }, 60_000);
});

describe("require() of output in an import cycle", () => {
  // Node links a required ES module's imports with no hook, so each is compiled from verified bytes
  // first; in a cycle one of them would be linked before it is compiled, read again from disk. So
  // require() refuses a cycle through output (naming import as the way), while import loads it.
  const base = tempDir("rye-load-cycle-");
  const project = makeProject(join(base, "project"));
  const home = join(outsideOf(base), "home");
  const env = cleanEnv({ USER_SPACE: home });
  const marker = join(base, "PWNED");

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    const out = join(project, "out");
    writeFileSync(join(out, "cycle-a.js"), `import { b } from "./cycle-b.js";\nexport const a = () => "a" + b();\n`);
    writeFileSync(join(out, "cycle-b.js"), `import { a } from "./cycle-a.js";\nexport const b = () => "b";\nexport const loop = () => a();\n`);
    // Signed as the owner's own build: the owner's key re-signs the folder with the two files in it.
    resignOutput(out, signingKeyFrom(readFileSync(join(home, ".ai", "config", "keys", "signing", "private_key.pem"), "utf8")));
    writeFileSync(join(project, "cycle.cjs"), `console.log(require("./out/cycle-a.js").a());\n`);
    writeFileSync(join(project, "cycle.mjs"), `import { a } from "./out/cycle-a.js";\nconsole.log(a());\n`);
  }, 60_000);

  test("import loads the verified cycle", () => {
    const r = node(project, env, "--import", "rye-build/register", "cycle.mjs");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("ab\n");
  });

  test("require() refuses it, saying to use import, and nothing of it runs", () => {
    const b = join(project, "out", "cycle-b.js");
    const saved = readFileSync(b);
    try {
      for (const [tampered, expectMessage] of [[false, /import each other: require\(\) cannot load build output in an import cycle[\s\S]*Fix: load it with import/], [true, /Content modified since signing: cycle-b\.js|import each other/]] as const) {
        if (tampered) inject(b, marker);
        const r = node(project, env, "--import", "rye-build/register", "cycle.cjs");
        expect(r.status).not.toBe(0);
        expect(r.stderr).toMatch(expectMessage);
        expect(r.stdout).toBe("");
        expect(markerRan(marker)).toBe(false);
      }
    } finally {
      writeFileSync(b, saved);
    }
  });
});
