import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";
import { plan, which } from "./interpreters-helpers.js";

// Class 1, what runs is the tool's: argv is a list written in the tool's files (a placeholder never
// supplies several elements, which no positional rule would then judge), and a caller's value never
// names the program nor the folder it starts in (programs load code from their working directory).
// Each row is a real payload; the run must refuse it before anything starts and leave no marker.

const dir = mkdtempSync(join(tmpdir(), "rye-argv-shape-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const marker = () => join(dir, `marker-${n++}`);

async function run(p: ChainPlan, params: Record<string, unknown>, declared: string[]) {
  const configSchema = { type: "object", properties: Object.fromEntries(declared.map((k) => [k, {}])) };
  return (await executePlan(p, params, {
    projectPath: dir,
    userSpace: dir,
    systemSpace: "",
    dotenv: null,
    configSchema,
    osEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" },
  })) as Record<string, any>;
}

const withArgs = (command: string, args: unknown, config: Record<string, unknown> = {}) => plan(dir, command, args as unknown[], config);

interface Row {
  name: string;
  /** Builds the plan and the caller's parameters for a marker path. */
  make: (m: string) => { p: ChainPlan; params: Record<string, unknown>; declared: string[] };
  needs: string;
  refusal: RegExp;
}

const git = which("git");
const python = which("python3");

// The fsmonitor payload: a committed folder laid out as a bare repository whose config runs a command.
function bareRepo(m: string): string {
  const repo = join(dir, `vendor-${n}`, "lib");
  mkdirSync(join(repo, "objects"), { recursive: true });
  mkdirSync(join(repo, "refs"), { recursive: true });
  writeFileSync(join(repo, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(repo, "config"), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = touch ${m}; echo\n`);
  return repo;
}

const ROWS: Row[] = [
  {
    name: "a caller's list as the whole args (git -c alias)",
    needs: "git",
    refusal: /args is "\{git_args\}", not a list/,
    make: (m) => ({ p: withArgs("git", "{git_args}"), params: { git_args: ["-c", `alias.zz=!touch ${m}`, "zz"] }, declared: ["git_args"] }),
  },
  {
    name: "a chain config list as the whole args, the caller's value spliced into its bash -c text",
    needs: "bash",
    refusal: /args is "\{bash_args\}", not a list/,
    make: (m) => ({ p: withArgs("bash", "{bash_args}", { bash_args: ["-c", "echo Hello {name}"] }), params: { name: `x; touch ${m}` }, declared: ["name"] }),
  },
  {
    name: "a chain config list as the whole args, the caller's value as the whole script",
    needs: "bash",
    refusal: /args is "\{bash_args\}", not a list/,
    make: (m) => ({ p: withArgs("bash", "{bash_args}", { bash_args: ["-c", "{script}"] }), params: { script: `touch ${m}` }, declared: ["script"] }),
  },
  {
    name: "args as plain text (spread into one-character elements)",
    needs: "sh",
    refusal: /not a list/,
    make: (m) => ({ p: withArgs("sh", `-c{x}`), params: { x: `touch ${m}` }, declared: ["x"] }),
  },
  {
    name: "a declared command chosen by the caller (bash with the chain's -c text)",
    needs: "bash",
    refusal: /\{prog\}' would let a caller's value choose the program/,
    make: (m) => ({ p: withArgs("{prog}", ["-c", `touch ${m}`], { prog: "echo" }), params: { prog: "bash" }, declared: ["prog"] }),
  },
  {
    name: "a declared command reached through a config key, chosen by the caller",
    needs: "sh",
    refusal: /\{bin\}' would let a caller's value choose the program/,
    make: (m) => ({ p: withArgs("{runner}", ["-c", `touch ${m}`], { runner: "{bin}", bin: "echo" }), params: { bin: "sh" }, declared: ["bin"] }),
  },
  {
    name: "a caller's cwd: git status runs a committed bare repo's core.fsmonitor",
    needs: "git",
    refusal: /placeholder '\{folder\}' would let a caller's value choose the working directory/,
    make: (m) => ({ p: withArgs("git", ["status", "--short"], { cwd: "{folder}" }), params: { folder: bareRepo(m) }, declared: ["folder"] }),
  },
  {
    name: "a caller's cwd parameter: python3 -c imports <cwd>/json.py",
    needs: "python3",
    refusal: /Parameter 'cwd' is refused: parameter 'cwd' would let a caller's value choose the working directory/,
    make: (m) => {
      const pkg = join(dir, `pkg-${n}`);
      mkdirSync(pkg, { recursive: true });
      writeFileSync(join(pkg, "json.py"), `open(${JSON.stringify(m)}, "w")\n`);
      return { p: withArgs("python3", ["-c", "import json; print(1)"]), params: { cwd: pkg }, declared: ["cwd"] };
    },
  },
];

describe("argv is the tool's list; the program and the cwd are the tool's", () => {
  for (const row of ROWS) {
    const missing = row.needs === "git" ? !git : row.needs === "python3" ? !python : !which(row.needs);
    if (missing) console.log(`skipped: ${row.name} needs ${row.needs}, not installed`);
    it.skipIf(missing)(`refuses ${row.name}; no marker`, async () => {
      const m = marker();
      const { p, params, declared } = row.make(m);
      const r = await run(p, params, declared);
      expect(r.status, JSON.stringify(r)).toBe("error");
      expect(String(r.error)).toMatch(row.refusal);
      expect(existsSync(m)).toBe(false);
    });
  }

  it("the tool's own list, command and cwd still run", async () => {
    const sub = join(dir, "own-cwd");
    mkdirSync(sub, { recursive: true });
    const r = await run(withArgs("{prog}", ["%s|%s", "{x}", "{anchor_path}"], { prog: "printf", cwd: "{where}", where: sub }), { x: "v" }, ["x"]);
    expect(r.data?.stdout ?? r.error).toBe(`v|${dir}`);
  });
});
