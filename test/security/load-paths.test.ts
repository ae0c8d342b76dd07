// Every way Node loads build output, under `--import rye-build/register`: the untouched build
// renders through each path exactly as a plain import does, and a module tampered with a payload
// is refused on each, naming the item, with the payload's marker never written. One control row
// shows the payload does run where nothing verifies (plain node), so "no marker" means something.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeProject, markerRan, node, rye, tempDir } from "./helpers.js";
import { DEP_PACKAGES, LOAD_PATHS, type Target } from "./load-path-rows.js";

describe("every load path verifies build output before it runs", () => {
  const base = tempDir("rye-load-paths-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(base, "home") });
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
