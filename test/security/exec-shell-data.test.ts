import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";

// Decisions #10: a value substituted into a `sh -c` / `bash -c` script by System 1 (`${VAR}`) or
// System 2 (`{param}`) reaches the shell as data. Real shells run here; every hostile value would
// create MARKER if any of its bytes were read as code.

const dir = mkdtempSync(join(tmpdir(), "rye-shell-data-"));
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOSTILE = [
  `; touch ${MARKER} #`,
  `$(touch ${MARKER})`,
  `\`touch ${MARKER}\``,
  `| touch ${MARKER}`,
  `\ntouch ${MARKER}\n`,
  `'; touch ${MARKER}; '`,
  `"; touch ${MARKER}; "`,
  `\\'$(touch ${MARKER})`,
  `*`,
  `-n`,
  `--help`,
  ``,
  ` `,
  `a  b\tc`,
  `\${HOME}`,
  `{text}`,
  `$'\\x41'`,
];

function shellPlan(command: string, args: unknown[], config: Record<string, unknown> = {}): ChainPlan {
  return {
    item_id: "t/shell",
    chain: [],
    validation: { valid: true, issues: [], validated_pairs: 1 },
    root: { item_id: "rye/core/primitives/execute", executor_id: null },
    config: { command, args, timeout: 15, ...config },
    env_configs: [],
    anchor: null,
    verify_deps: null,
    config_resolve: [],
    context: { tool_path: join(dir, "t.yaml"), tool_dir: dir, tool_parent: tmpdir(), anchor_path: dir, runtime_lib: "" },
  };
}

async function run(plan: ChainPlan, params: Record<string, unknown>, env: Record<string, string> = {}) {
  const response = (await executePlan(plan, params, {
    projectPath: dir,
    userSpace: dir,
    systemSpace: "",
    dotenv: null,
    osEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
  })) as Record<string, any>;
  return response;
}

// Each script prints what it received between < and >, so the output is never JSON. The third
// field says the value is stored in a variable first: that position takes inert values only.
/** Each script, its expected output, and whether values are refused: never, when not inert, or always. */
const SCRIPTS: [string, (v: string) => string, "data" | "inert" | "refused"][] = [
  [`printf '<%s>' {text}`, (v) => `<${v}>`, "data"],
  [`printf '<%s>' "start {text} end"`, (v) => `<start ${v} end>`, "data"],
  [`printf '<%s>' 'start {text} end'`, (v) => `<start ${v} end>`, "data"],
  [`printf '<%s>' start{text}end`, (v) => `<start${v}end>`, "data"],
  [`x=$(printf '%s' {text}); printf '<%s>' "$x"`, (v) => `<${v.replace(/\n+$/, "")}>`, "refused"],
  [`x={text}; printf '<%s>' "$x"`, (v) => `<${v}>`, "refused"],
  [`printf '<%s>' "$(printf '%s' "in {text} sub")"`, (v) => `<in ${v} sub>`, "data"],
];
// The inert set as docs/security-model.md states it: ASCII letters, digits and "_", at most 4096.
const INERT = /^[A-Za-z0-9_]{0,4096}$/;

const SHELLS = ["/bin/sh", "/bin/bash"].filter((s) => existsSync(s));

// Any byte 1–255, any Unicode code point (no NUL: no argv can carry one), and hostile fragments.
const value = fc.oneof(
  fc.array(fc.integer({ min: 1, max: 255 }), { maxLength: 24 }).map((codes) => String.fromCharCode(...codes)),
  fc.string({ unit: "binary", maxLength: 12 }).map((s) => s.replace(/\0/g, "")),
  fc.array(fc.constantFrom(...HOSTILE), { minLength: 1, maxLength: 3 }).map((parts) => parts.join("")),
);

describe("a shell's -c script gets every substituted value as data", () => {
  for (const shell of SHELLS) {
    it(`${shell} -c: {param} in every quoting context (property, real shell)`, async () => {
      await fc.assert(
        fc.asyncProperty(value, fc.integer({ min: 0, max: SCRIPTS.length - 1 }), async (v, k) => {
          const [script, expected, refused] = SCRIPTS[k]!;
          const response = await run(shellPlan(shell, ["-c", script]), { text: v });
          expect(existsSync(MARKER)).toBe(false);
          if (refused === "refused") {
            // A substitution's output has a shape no check of the value bounds, and an assignment's value may reach a program's environment (docs/security-model.md).
            expect(response.status).toBe("error");
            expect(response.error).toMatch(/inside a command substitution|as an assignment's value/);
            return;
          }
          if (refused === "inert" && !INERT.test(v)) {
            expect(response.status).toBe("error");
            expect(response.error).toContain("the value of {text}");
            return;
          }
          expect(response.status).toBe("success");
          // Script 4's command substitution drops trailing newlines: the script's doing, not the value's.
          expect(response.data.stdout).toBe(expected(v));
        }),
        { numRuns: 120 },
      );
    }, 20_000);

    it(`${shell} -c: \${VAR} values from the environment (newline, quote, glob, $(…))`, async () => {
      for (const v of ["a\nb", "it's", "*", `$(touch ${MARKER})`, "", "-x", "x\ntouch " + MARKER]) {
        const response = await run(shellPlan(shell, ["-c", `printf '<%s>' \${HOSTILE_VAR} "\${HOSTILE_VAR}"`]), {}, { HOSTILE_VAR: v });
        expect(existsSync(MARKER)).toBe(false);
        expect(response.data.stdout).toBe(`<${v}><${v}>`);
      }
    });
  }

  it("bash -lc and a script taken from a config key keep the value as data, after the script's own arguments", async () => {
    const plan = shellPlan("/bin/bash", ["-lc", "{script}", "name0", "{first}"], { script: `printf '<%s|%s|%s>' "$1" {text} "$#"` });
    for (const v of HOSTILE) {
      const response = await run(plan, { text: v, first: "one" });
      expect(existsSync(MARKER)).toBe(false);
      // The script's own $1 and $# are unchanged by the values rye passes.
      expect(response.data.stdout).toBe(`<one|${v}|1>`);
    }
  });

  it("a parameter that overrides the script key is data too: it is run as one command name, never parsed", async () => {
    const plan = shellPlan("/bin/sh", ["-c", "{script}"], { script: "printf ok" });
    const response = await run(plan, { script: `touch ${MARKER}; echo owned` });
    expect(existsSync(MARKER)).toBe(false);
    expect(response.status).toBe("error");
    // Refused before anything starts: 'script' is a config key that decides what runs (caller-params.ts).
    expect(response.data?.stdout ?? "").toBe("");
  });

  it("refuses a value in a context where the shell would evaluate it (arithmetic, ${…}, here-document)", async () => {
    const payload = `a[$(touch ${MARKER})]`;
    for (const [script, name] of [["echo $(( {n} + 1 ))", "{n}"], ["(( {n} > 1 ))", "{n}"], ["cat <<EOF\n{n}\nEOF", "{n}"], ["echo ${x:-${N}}", "${N}"]]) {
      const response = await run(shellPlan("/bin/bash", ["-c", script!]), { n: payload }, { N: payload });
      expect(response.status).toBe("error");
      expect(response.error).toContain(`placeholder '${name}' sits`);
      expect(response.error).toContain("where rye cannot prove the shell reads its value as data");
      expect(existsSync(MARKER)).toBe(false);
    }
  });

  it("leaves a tool without a shell as before: each value one argv element", async () => {
    const response = await run(shellPlan(process.execPath, ["-e", "process.stdout.write('<'+process.argv.slice(1).join('|')+'>')", "{text}"]), { text: HOSTILE[0]! });
    expect(response.data.stdout).toBe(`<${HOSTILE[0]}>`);
    expect(existsSync(MARKER)).toBe(false);
  });
});
