// A bundle whose top level carries a payload: rye run reads it once, verifies, and never evaluates it.
import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeProject, markerRan, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

describe("rye run <bundle> with a payload at the bundle's top level", () => {
  const base = tempDir();
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const bundle = join(project, "out", "bundle.mjs");
  let original: Buffer;
  let signature: Buffer;

  beforeAll(() => {
    const built = rye(project, env, "bundle");
    expect(built.status, built.stderr).toBe(0);
    original = readFileSync(bundle);
    signature = readFileSync(`${bundle}.sig`);
  }, 60_000);

  beforeEach(() => {
    writeFileSync(bundle, original);
    writeFileSync(`${bundle}.sig`, signature);
    rmSync(marker, { force: true });
  });

  const commands = [
    ["directive", "examples/greet", "--inputs", '{"name": "x"}'],
    ["directive", "no/such/id"],
    ["tool", "examples/word_count", "--dry-run"],
  ];

  test("the untouched bundle runs: directive, unknown id, tool --dry-run", () => {
    const ok = rye(project, env, "run", "out/bundle.mjs", ...commands[0]!);
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: "success", item_id: "examples/greet" });
    expect(JSON.parse(rye(project, env, "run", "out/bundle.mjs", ...commands[1]!).stdout)).toMatchObject({ status: "error", error: "Directive not found: no/such/id" });
    expect(rye(project, env, "run", "out/bundle.mjs", ...commands[2]!).status).toBe(0);
  });

  test.each(commands.map((c) => [c.slice(0, 2).join(" "), c] as const))("%s: refused before evaluation, the payload never runs", (_name, args) => {
    inject(bundle, marker);
    const r = rye(project, env, "run", "out/bundle.mjs", ...args);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^IntegrityError: Content modified since signing: out\/bundle\.mjs/);
    expect(r.stderr).toContain("The bundle was not run.");
    expect(r.stdout).toBe("");
    expect(markerRan(marker)).toBe(false);
  });

  test("without its detached signature, through a symlink, or with only the .sig changed: still checked, still refused when wrong", () => {
    inject(bundle, marker);
    rmSync(`${bundle}.sig`);
    symlinkSync(bundle, join(base, "link.mjs"));
    for (const path of ["out/bundle.mjs", join(base, "link.mjs")]) {
      const r = rye(project, env, "run", path, "directive", "examples/greet", "--inputs", '{"name": "x"}');
      expect(r.status).toBe(1);
      expect(markerRan(marker)).toBe(false);
    }
    // The inline line intact but the detached signature over other bytes: refused too.
    writeFileSync(bundle, original);
    const wrong = Buffer.from(signature);
    wrong[0] = wrong[0]! ^ 1;
    writeFileSync(`${bundle}.sig`, wrong);
    const r = rye(project, env, "run", "out/bundle.mjs", "directive", "examples/greet", "--inputs", '{"name": "x"}');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("bundle.mjs.sig does not verify");
  });
});
