import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import { plan, which } from "./interpreters-helpers.js";

// Class 1, values by content whatever their origin: rye's own paths come from the file system (the
// folder a checkout or a pull request names), so a path spliced into program text must be path-safe
// (ASCII letters, digits, `_ . / + -`, no leading `-`) or the run is refused before anything starts,
// naming the placeholder. A whole-argument path, or an argument that is one path
// (`{project_path}/README.md`), passes as it is, as the original's runtimes use them.

const root = mkdtempSync(join(tmpdir(), "rye-path-values-"));
const MARKER = join(root, "marker");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-";
/** The documented set, written out independently of the implementation. */
const pathSafe = (v: string) => v.length <= 4096 && !v.startsWith("-") && [...v].every((c) => SAFE.includes(c));

function project(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "README.md"), "x");
  return dir;
}

async function runIn(projectPath: string, command: string, args: unknown[]) {
  return (await executePlan(plan(projectPath, command, args), {}, {
    projectPath,
    userSpace: projectPath,
    systemSpace: "",
    dotenv: null,
    osEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", RYE_MARK: MARKER },
  })) as Record<string, any>;
}

const python = which("python3");
if (!python) console.log("skipped: python3 is not installed (the program a path is spliced into)");

describe.skipIf(!python)("a path spliced into program text is path-safe or refused", () => {
  // A folder name holds no `/`: the payload reads the marker's path from the environment.
  const breakout = "w'));open(__import__('os').environ['RYE_MARK'],'w');print(('";

  it("a project folder whose name is Python code is refused in python3 -c, naming {project_path}; no marker", async () => {
    const dir = project(breakout);
    const r = await runIn(dir, "python3", ["-c", "import os; print(os.path.exists('{project_path}/README.md'))"]);
    expect(r.status).toBe("error");
    expect(String(r.error)).toContain("{project_path}");
    expect(String(r.error)).toContain("whole argument");
    expect(existsSync(MARKER)).toBe(false);
  });

  it("the same path as a whole argument, or as an argument that is one path, arrives exactly", async () => {
    const dir = project(breakout);
    const whole = await runIn(dir, "python3", ["-c", "import sys; print(sys.argv[1])", "{project_path}"]);
    expect(whole.data?.stdout ?? whole.error).toBe(`${dir}\n`);
    const onePath = await runIn(dir, "cat", ["{project_path}/README.md"]);
    expect(onePath.data?.stdout ?? onePath.error).toBe("x");
    expect(existsSync(MARKER)).toBe(false);
  });

  it("a path-safe project still runs with its path spliced into code", async () => {
    const dir = project("plain-project_1.0");
    const r = await runIn(dir, "python3", ["-c", "import os; print(os.path.exists('{project_path}/README.md'))"]);
    expect(r.data?.stdout ?? r.error).toBe("True\n");
  });

  it("accepts exactly the path-safe folders, for every path placeholder (property)", async () => {
    const fragment = fc.constantFrom("'", '"', ";", " ", "$(touch M)", "`", "\\", ")", "(", "#", "a", "B", "_", ".", "+", "-", "é", "\n", ":", "%");
    const name = fc.array(fragment, { minLength: 1, maxLength: 5 }).map((p) => p.join("")).filter((n) => n !== "." && n !== "..");
    await fc.assert(
      fc.asyncProperty(name, fc.constantFrom("project_path", "tool_dir", "anchor_path", "user_space"), async (n, key) => {
        const dir = project(`p${n}`);
        const r = await runIn(dir, "python3", ["-c", `print('n=%d' % len('''{${key}}'''))`]);
        if (pathSafe(dir)) expect(r.data?.stdout ?? r.error, n).toBe(`n=${dir.length}\n`);
        else {
          expect(r.status, n).toBe("error");
          expect(String(r.error)).toContain(`{${key}}`);
        }
        expect(existsSync(MARKER)).toBe(false);
      }),
      { numRuns: 25 },
    );
  }, 180_000);

  it("the chain's constant text is the author's and is not checked", async () => {
    const dir = project("plain");
    const p = plan(dir, "python3", ["-c", "print('{greeting}')"]);
    p.config.greeting = "it is a nice day; (really)";
    const r = (await executePlan(p, {}, { projectPath: dir, userSpace: dir, systemSpace: "", dotenv: null, osEnv: { PATH: process.env.PATH ?? "" } })) as Record<string, any>;
    expect(r.data?.stdout ?? r.error).toBe("it is a nice day; (really)\n");
  });
});
