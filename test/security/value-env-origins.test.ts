import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";
import type { Execa, SpawnedChild } from "../../src/runtime/exec/run-process.js";
import { pyStr } from "../../src/runtime/pystr.js";
import { plan, which } from "./interpreters-helpers.js";

// Class 1, single pass for the environment itself: only the text the chain wrote (a static value of an
// env_config) is a template. A variable that comes from the OS, from `.env`, or that the resolver's
// own `${VAR}` filled from another variable is data from the moment it is read: whatever it holds
// (`{x}`, `${Y}`, `{env}`, `{params_json}`, a seal look-alike), the child gets it byte for byte, argv
// gets what one substitution of the chain's template gives, and no rule refuses it for a caller's
// placeholder the chain never wrote.

const dir = mkdtempSync(join(tmpdir(), "rye-env-origins-"));
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Python code that creates the marker: the chain key k holds it, and so may the variable Y.
const CODE = `open(${JSON.stringify(MARKER)}, "w")`;
// The chain's own program runs whatever V holds: V's text must be exactly what the OS (or .env) gave.
const RUNS_V = ["-c", "import os; exec(os.environ.get('V', ''))"];
const PIECES = [
  "{x}", "{k}", "{tool_dir}", "{env}", "{params_json}", "${Y}", "${Y:-d}", "${W}",
  "@rye-value-0123456789abcdef-0@", "@rye-text-0123456789abcdef-0@", "{", "}", "$", "a", "-", "/",
];
// No whitespace (`.env` strips it) and no quote or backslash (see the `{env}` case below).
const content = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 }).map((p) => p.join(""));

/** Where V's text comes from, and what the child's V must then hold. */
const ORIGINS = {
  os: { os: true, dotenv: false, configs: [] as Record<string, unknown>[], want: (c: string) => c },
  dotenv: { os: false, dotenv: true, configs: [], want: (c: string) => c },
  // The chain writes `${W}` (W is the OS's): the resolver's own expansion puts W's text in.
  expanded: { os: false, dotenv: false, configs: [{ env: { V: "${W}" } }], want: (c: string) => c },
  around: { os: false, dotenv: false, configs: [{ env: { V: "<${W}>" } }], want: (c: string) => `<${c}>` },
  braced: { os: false, dotenv: false, configs: [{ env: { V: "{${W}}" } }], want: (c: string) => `{${c}}` },
  // One element writes U from W, a later one V from U: text inherited across the chain (the
  // original's merge resolves each element from the OS's env alone, so there V is empty).
  chained: { os: false, dotenv: false, configs: [{ env: { U: "${W}" } }, { env: { V: "${U}" } }], want: (c: string) => c },
} as const;
type Origin = keyof typeof ORIGINS;

function recorder(seen: { argv?: string[]; env?: Record<string, string> }): Execa {
  return (file, args, options) => {
    seen.argv = [file, ...args];
    seen.env = { ...(options.env as Record<string, string>) };
    const exit = Promise.resolve({ exitCode: 0 });
    return { then: exit.then.bind(exit), stdout: null, stderr: null, kill: () => true } as unknown as SpawnedChild;
  };
}

function chainPlan(origin: Origin, args: unknown[], command = "prog"): ChainPlan {
  const p = plan(dir, command, args, { k: CODE });
  p.env_configs = ORIGINS[origin].configs.map((env_config, i) => ({ item_id: `t/e${i}`, env_config }));
  return p;
}

async function runWith(origin: Origin, c: string, x: string, Y: string, args: unknown[], precedence: "ours" | "original", execa?: Execa, command?: string) {
  const o = ORIGINS[origin];
  const osEnv: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", Y, W: o.os || o.dotenv ? "w" : c };
  if (o.os) osEnv.V = c;
  return (await executePlan(chainPlan(origin, args, command), { x }, {
    projectPath: dir,
    userSpace: dir,
    systemSpace: "",
    dotenv: o.dotenv ? `V=${c}\n` : null,
    osEnv,
    envPrecedence: precedence,
    execa,
  })) as Record<string, any>;
}

const python = which("python3");
if (!python) console.log("skipped: python3 is not installed (the marker runs of the property below)");

describe("a variable the chain did not write is data", () => {
  it("argv and the child's env equal one substitution, for every origin of the text (property)", async () => {
    let spawned = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(ORIGINS) as Origin[])),
        content,
        fc.constantFrom("plain", "CALLER_2"),
        fc.constantFrom(CODE, "{k}", "${W}", "plain"),
        fc.constantFrom("ours", "original") as fc.Arbitrary<"ours" | "original">,
        fc.boolean(),
        async (origin, c, x, Y, precedence, withEnv) => {
          const seen: { argv?: string[]; env?: Record<string, string> } = {};
          const args = ["${V}", "{x}", "{k}", ...(withEnv ? ["e{env}"] : [])];
          const r = await runWith(origin, c, x, Y, args, precedence, recorder(seen));
          const o = ORIGINS[origin];
          // The original's chain merge resolves nothing when no element has an env_config: pass 1
          // then sees an empty environment and the child the OS's (rye-reference §2.2).
          const none = precedence === "original" && o.configs.length === 0;
          const v = precedence === "original" && origin === "chained" ? "" : o.want(c);
          expect(r.status, String(r.error)).toBe("success");
          expect(seen.env!.V).toBe(none && !o.os ? undefined : v);
          // `{env}` in the chain's text is the environment's str(), each variable's text as it is.
          expect(seen.argv).toEqual(["prog", none ? "" : v, x, CODE, ...(withEnv ? [`e${pyStr(none ? {} : seen.env)}`] : [])]);
          // A real python3 for texts that name a chain key or a variable (each spawn is slow).
          if (python && /\{k\}|\$\{/.test(c) && spawned++ < 25) {
            await runWith(origin, c, x, Y, RUNS_V, precedence, undefined, "python3");
            expect(existsSync(MARKER), `${origin} ${c}`).toBe(false);
          }
        },
      ),
      { numRuns: 120 },
    );
  }, 240_000);

  it("an OS or .env variable holding {x}, {env}, ${Y} or {k} reaches the child as written, with no refusal", async () => {
    for (const origin of ["os", "dotenv", "expanded", "chained"] as const) {
      for (const c of ["{x}", "{env}", "${Y}", "{k}", "{params_json}"]) {
        const seen: { argv?: string[]; env?: Record<string, string> } = {};
        const r = await runWith(origin, c, "CALLER", CODE, ["${V}"], "ours", recorder(seen));
        expect(r.status, `${origin} ${c}: ${r.error}`).toBe("success");
        expect(seen.env!.V, `${origin} ${c}`).toBe(c);
        expect(seen.argv, `${origin} ${c}`).toEqual(["prog", c]);
      }
    }
  });

  it("a variable the chain wrote stays a template: {x} in its own env_config is still refused", async () => {
    const p = plan(dir, "prog", ["a"]);
    p.env_configs = [{ item_id: "t/e", env_config: { env: { V: "{x}" } } }];
    const r = (await executePlan(p, { x: "CALLER" }, { projectPath: dir, userSpace: dir, systemSpace: "", dotenv: null, osEnv: {}, execa: recorder({}) })) as Record<string, any>;
    expect(r.status).toBe("error");
    expect(String(r.error)).toMatch(/fills the environment variable V/);
  });

  it.skipIf(!python)("a program that runs V's text, with V from the OS, .env or the resolver naming a chain key or a variable that holds code, runs no code; no marker", async () => {
    for (const origin of ["os", "dotenv", "expanded", "chained"] as const) {
      for (const c of ["{k}", "${Y}"]) {
        const r = await runWith(origin, c, "plain", CODE, RUNS_V, "ours", undefined, "python3");
        // exec() gets `{k}` or `${Y}` as written: Python's NameError or SyntaxError, not the code.
        expect(r.status, `${origin} ${c}`).toBe("error");
        expect(String(r.data?.stderr), `${origin} ${c}`).toMatch(/NameError|SyntaxError/);
        expect(existsSync(MARKER), `${origin} ${c}`).toBe(false);
      }
    }
  });
});
