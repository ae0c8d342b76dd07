// The spawn guard of a bundle run (src/bundle/guard-spawn.ts): the last check before a bundled
// tool's process starts, which also holds for bundles whose runtime predates the interpreter rule
// (they spawn through the same `execa` option). Generated cases: every way of naming a program
// (bare name on PATH, absolute, relative to the child's cwd) crossed with where it lies.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutOf } from "../../src/bundle/checkout.js";
import { guardedExeca } from "../../src/bundle/guard-spawn.js";
import type { Execa } from "../../src/runtime/exec/run-process.js";
import { outsideOf } from "../helpers/outside.js";

const base = mkdtempSync(join(tmpdir(), "rye-spawn-guard-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const proj = join(base, "proj");
// Not beside the project: without a repository, the folders above a project count as its checkout.
const outside = join(mkdtempSync(join(tmpdir(), "rye-spawn-outside-")), "outside-bin");
for (const dir of [join(proj, ".ai"), join(proj, "out"), join(proj, "bin"), join(proj, ".ai/tools"), outside]) mkdirSync(dir, { recursive: true });
writeFileSync(join(proj, "out", "manifest.json"), "{}");
for (const file of [join(proj, "bin/prog"), join(outside, "prog"), join(proj, ".ai/tools/run.sh")]) {
  writeFileSync(file, "#!/bin/sh\n");
  chmodSync(file, 0o755);
}
// A link inside the checkout to a program outside it is still the checkout's choice, and the reverse too.
symlinkSync(join(outside, "prog"), join(proj, "bin/linked"));
symlinkSync(join(proj, "bin/prog"), join(outside, "into-checkout"));

const checkout = checkoutOf({ bundle: join(proj, "out", "bundle.mjs"), cwd: proj, env: { USER_SPACE: join(outsideOf(base), "home") } });
const optIn = "pass --trust-checkout to allow it";

function spawnWith(file: string, env: Record<string, string>, cwd = proj) {
  const calls: { file: string; env: Record<string, string> }[] = [];
  const inner: Execa = (f, _args, options) => {
    calls.push({ file: f, env: options.env as Record<string, string> });
    return {} as ReturnType<Execa>;
  };
  const guarded = guardedExeca(inner, { checkout, planFiles: [join(proj, ".ai/tools/run.sh")], optIn });
  try {
    guarded(file, [], { cwd, env });
    return { started: true, calls, error: "" };
  } catch (e) {
    return { started: false, calls, error: (e as Error).message };
  }
}

describe("the spawn guard of a bundle run", () => {
  const cases: [name: string, file: string, path: string, started: boolean][] = [
    ["bare name, checkout first on PATH", "prog", `${join(proj, "bin")}:${outside}`, true],
    ["bare name, only in the checkout", "prog", join(proj, "bin"), true],
    ["bare name, relative PATH entry", "prog", `bin:${outside}`, true],
    ["absolute path in the checkout", join(proj, "bin/prog"), outside, false],
    ["relative path resolved against the child's cwd", "./bin/prog", outside, false],
    ["link in the checkout to an outside program", join(proj, "bin/linked"), outside, false],
    ["link outside pointing into the checkout", join(outside, "into-checkout"), outside, false],
    ["the plan's own hashed file", join(proj, ".ai/tools/run.sh"), outside, true],
    ["an outside program by path", join(outside, "prog"), outside, true],
  ];
  for (const [name, file, path, started] of cases) {
    it(`${name}: ${started ? "passed to the spawner, with checkout PATH entries dropped" : "refused naming the opt-in"}`, () => {
      const r = spawnWith(file, { PATH: path, PYTHONPATH: `${proj}/lib:/usr/lib/py` });
      expect(r.started, r.error).toBe(started);
      if (!started) {
        expect(r.error).toContain(optIn);
        expect(r.calls).toHaveLength(0);
        return;
      }
      expect(r.calls).toHaveLength(1);
      const env = r.calls[0]!.env;
      for (const entry of env.PATH!.split(":").filter(Boolean)) expect(checkout.contains(entry), entry).toBe(false);
      expect(env.PYTHONPATH).toBe("/usr/lib/py");
    });
  }

  it("refuses a child environment that preloads a checkout file, whoever set it", () => {
    const preloads: Record<string, string>[] = [{ LD_PRELOAD: join(proj, "x.so") }, { BASH_ENV: "./x.sh" }, { NODE_OPTIONS: `--require ${proj}/x.cjs` }];
    for (const env of preloads) {
      const r = spawnWith(join(outside, "prog"), { PATH: outside, ...env });
      expect(r.started, JSON.stringify(env)).toBe(false);
      expect(r.error).toContain(optIn);
    }
  });
});
