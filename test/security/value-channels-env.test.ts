import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { build, type SourceFile } from "../../src/index.js";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";
import { hostileValue, plan, run, which } from "./interpreters-helpers.js";

// Class 1, the env channel: an env_config value filled from a caller's parameter reaches a program
// rye cannot read (a shell's arithmetic reads a variable's value as an expression, `a[$(…)]` runs),
// and even an inert word chooses code in PATH, BASH_ENV or PYTHONPATH: a caller's placeholder in an
// env value is refused, whole or spliced, before anything starts; the chain's own values pass.

const dir = mkdtempSync(join(tmpdir(), "rye-env-channel-"));
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));


function withEnv(p: ChainPlan, env: Record<string, string>): ChainPlan {
  return { ...p, env_configs: [{ item_id: "t/interp", env_config: { env } }] };
}

const bash = which("bash");
if (!bash) console.log("skipped: bash is not installed (the arithmetic reader of the env channel)");

describe.skipIf(!bash)("a caller's value never fills the environment", () => {
  const arithmetic = (g: string, template = "{g}") =>
    run(dir, withEnv(plan(dir, "bash", ["-c", 'printf "%s" "$GREETING"; [[ $GREETING -gt 0 ]] || true']), { GREETING: template }), { g }, {});

  it("an inert value is refused too: it can name a variable or a file that chooses code", async () => {
    for (const g of ["hello_42", "GREETING", "evil_so"]) {
      const r = await arithmetic(g);
      expect(r.status, g).toBe("error");
      expect(String(r.error)).toContain("placeholder '{g}' fills the environment variable GREETING");
      expect(r.data?.stdout ?? "").toBe("");
    }
  });

  it("a value that would run code through the shell's arithmetic is refused, naming the placeholder and the variable; no marker", async () => {
    for (const g of [`a[$(touch ${MARKER})]`, `x[\`touch ${MARKER}\`]`, "cost is $5 {approx}"]) {
      for (const template of ["{g}", "pre_{g}"]) {
        const r = await arithmetic(g, template);
        expect(r.status, g).toBe("error");
        expect(String(r.error)).toContain("placeholder '{g}'");
        expect(String(r.error)).toContain("GREETING");
        expect(existsSync(MARKER)).toBe(false);
      }
    }
  });

  it("refuses every value, whole or spliced (property over hostile and inert values)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileValue(MARKER), fc.stringMatching(/^[A-Za-z0-9_]{0,12}$/)), fc.constantFrom("{g}", "v_{g}_w"), async (g, template) => {
        const r = await arithmetic(g, template);
        expect(r.status, g).toBe("error");
        expect(existsSync(MARKER)).toBe(false);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it("the chain's own env values and rye's paths are not the caller's: they pass unchecked", async () => {
    const r = await run(dir, withEnv(plan(dir, "sh", ["-c", 'printf "%s|%s" "$A" "$B"']), { A: "x y {tool_dir}", B: "${HOME}" }), {}, { HOME: "/h o" });
    expect(r.data?.stdout ?? r.error).toBe(`x y ${dir}|/h o`);
  });
});

describe("the build reports a caller's value in an environment variable (RYE4012 at the placeholder)", () => {
  /** A runtime whose env_config fills GREETING from `template`, and a tool on it declaring `g`. */
  const sources = (template: string): SourceFile[] => [
    { kind: "tool", id: "rye/core/primitives/execute", path: ".ai/tools/rye/core/primitives/execute.yaml", ext: ".yaml", space: "project", text: "tool_type: primitive\nexecutor_id: null\n" },
    { kind: "tool", id: "rt/env", path: ".ai/tools/rt/env.yaml", ext: ".yaml", space: "project", text: `tool_type: runtime\nexecutor_id: rye/core/primitives/execute\nenv_config:\n  env:\n    GREETING: ${JSON.stringify(template)}\nconfig:\n  command: bash\n  args: ["-c", 'printf "%s" "$GREETING"']\n` },
    { kind: "tool", id: "demo/env", path: ".ai/tools/demo/env.py", ext: ".py", space: "project", text: '__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rt/env"\nCONFIG_SCHEMA = {"type": "object", "properties": {"g": {"type": "string"}}}\n' },
  ];

  it("whole or spliced, at the line of the variable; the chain's own values and rye's paths pass", () => {
    for (const template of ["{g}", "hello {g}!", "${HOME}:{g}"]) {
      const { diagnostics } = build(sources(template), "test");
      const found = diagnostics.filter((d) => d.code === "RYE4012");
      expect(found.map((d) => d.message), template).toEqual([expect.stringMatching(/^Placeholder '{g}' fills the environment variable GREETING from a caller's value; refused/)]);
      expect(found[0]!.loc!.source).toBe(".ai/tools/rt/env.yaml");
      expect(found[0]!.loc!.start.line).toBe(5);
    }
    for (const template of ["${HOME}", "{tool_dir}/lib", "plain"]) {
      const { diagnostics } = build(sources(template), "test");
      expect(diagnostics.filter((d) => d.code === "RYE4012"), template).toEqual([]);
    }
  });
});
