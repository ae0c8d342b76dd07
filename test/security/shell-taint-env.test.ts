import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";
import { installedShells, plan, run, which } from "./interpreters-helpers.js";

// Class 1, the environment as a chooser of code: a caller's value never fills an environment
// variable, inert or not, so it can neither name a variable a shell evaluates ([ NAME -eq 0 ] in
// mksh, lksh, posh) nor choose the program (command: "${FORMATTER}") or a file that runs (PATH,
// BASH_ENV, ENV, PYTHONPATH). Every installed shell × variable × value: refused, marker absent.

const dir = mkdtempSync(join(tmpdir(), "rye-shell-taint-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`shell-taint-env: not installed, skipped: ${missing.join(", ")}`);

const withEnv = (p: ChainPlan, env: Record<string, string>): ChainPlan => ({ ...p, env_configs: [{ item_id: "t/interp", env_config: { env } }] });

describe("a caller's value never fills the environment", () => {
  for (const shell of shells) {
    it(`${shell.name}: a variable a numeric test names, and variables that choose code`, async () => {
      let n = 0;
      for (const variable of ["GREETING", "PATH", "BASH_ENV", "ENV", "PYTHONPATH", "LD_PRELOAD"]) {
        for (const make of [(m: string) => `a[$(touch ${m})]`, (m: string) => `a[\`touch ${m}\`]`, () => "GREETING", () => "evil"]) {
          const m = join(dir, `M-${shell.name.replace(" ", "_")}-${n++}`);
          const script = `[ {n} -eq 0 ] && echo zero; [ "$${variable}" = x ]; echo done`;
          const p = withEnv(plan(dir, shell.argv[0]!, [...shell.argv.slice(1), "-c", script], { cwd: dir }), { [variable]: "{g}" });
          const r = await run(dir, p, { n: "GREETING", g: make(m) });
          expect(r.status, `${shell.name} ${variable}`).toBe("error");
          expect(r.error).toContain(`placeholder '{g}' fills the environment variable ${variable}`);
          expect(existsSync(m)).toBe(false);
        }
      }
    });
  }

  it.skipIf(!which("perl"))("an undeclared parameter cannot pick the program through env_config and command: ${VAR}", async () => {
    const m = join(dir, "M-formatter");
    const p = withEnv(plan(dir, "${FORMATTER}", ["{file}"], { formatter: "cat" }), { FORMATTER: "{formatter}" });
    const r = await run(dir, p, { file: `-esystem(q(touch ${m}))`, formatter: "perl" });
    expect(r.status).toBe("error");
    expect(r.error).toContain("placeholder '{formatter}' fills the environment variable FORMATTER");
    expect(existsSync(m)).toBe(false);
  });
});
