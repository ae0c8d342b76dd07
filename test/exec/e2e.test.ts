import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { executePlan, type ExecuteOptions } from "../../src/runtime/exec/execute-plan.js";
import { buildChain, planChain } from "../../src/tools/build-chain.js";
import { dirFinder } from "../tools/finders.js";
import { createFixtureProject } from "./fixture-project.js";

const hasPython = spawnSync("python3", ["--version"]).status === 0;
const project = createFixtureProject();
afterAll(() => rmSync(project.root, { recursive: true, force: true }));

const options: ExecuteOptions = {
  projectPath: project.root,
  userSpace: join(project.root, "user"),
  systemSpace: join(project.root, "system"),
  osEnv: { ...process.env, PATH: `${project.stubBin}:${process.env.PATH ?? ""}` },
};

function plan(itemId: string) {
  const { chain, issues } = buildChain(itemId, dirFinder({ project: project.tools }));
  expect(issues).toEqual([]);
  return planChain(chain);
}

// A value that would run commands if it ever reached a shell as code.
const HOSTILE = `'; rm -rf /; ' $(touch ${project.canaries}/subst) \`touch ${project.canaries}/backtick\` "quoted" \\ end`;

function noCanaries(): void {
  expect(readdirSync(project.canaries)).toEqual([]);
}

describe.skipIf(!hasPython)(`python tool via a runtime YAML${hasPython ? "" : " — skipped: python3 not on PATH"}`, () => {
  it("passes params as JSON on stdin, parses JSON stdout, applies env and anchor paths", async () => {
    // `timeout` is a config key: it sets the run's timeout and stays out of params_json.
    const params = { message: HOSTILE, count: 2, nested: { a: [1, "x"] }, timeout: 20 };
    const response = (await executePlan(plan("demo/py_echo"), params, options)) as Record<string, any>;
    expect(response.status).toBe("success");
    expect(response.type).toBe("tool");
    expect(response.item_id).toBe("demo/py_echo");
    expect(response.chain.map((c: { item_id: string }) => c.item_id)).toEqual(["demo/py_echo", "rt/python", "rye/core/primitives/execute"]);
    expect(typeof response.metadata.duration_ms).toBe("number");
    const data = response.data;
    expect(data.params).toEqual({ message: HOSTILE, count: 2, nested: { a: [1, "x"] } });
    expect(data.argv).toEqual(["--project-path", project.root]);
    const toolDir = join(project.tools, "demo");
    expect(data.env.PYTHONPATH.split(":").slice(0, 2)).toEqual([toolDir, join(project.tools, "rt/lib")]);
    expect(data.env).toMatchObject({ FROM_RUNTIME: "runtime", SHARED: "tool", PYTHONUNBUFFERED: "1" });
    expect(data.env.DERIVED).toMatch(/python3$/);
    noCanaries();
  });

  it("keeps the original's env order when asked", async () => {
    const response = (await executePlan(plan("demo/py_echo"), {}, { ...options, envPrecedence: "original" })) as Record<string, any>;
    expect(response.data.env.SHARED).toBe("runtime");
  });

  it("turns a {success: false} payload into an error response carrying the data", async () => {
    const response = await executePlan(plan("demo/py_echo"), { fail: true }, options);
    expect(response).toMatchObject({ status: "error", error: "asked to fail", item_id: "demo/py_echo", data: { success: false, error: "asked to fail" } });
  });

  it("resolves config_resolve steps and lets verifyDeps refuse a run", async () => {
    const base = plan("demo/py_echo");
    const withResolve = {
      ...base,
      config_resolve: [
        { index: 0, item_id: "demo/py_echo", spec: "tool-config", execution_params: [] },
        { index: 1, item_id: "rt/python", spec: "exec-config", execution_params: ["extra"] },
      ],
    };
    const resolveConfig = (spec: unknown) =>
      spec === "tool-config" ? { mode: "fast" } : { defaults: { extra: "default", ignored: 1 }, tools: { "demo/py_echo": { extra: "per-tool" } } };
    const seen: string[] = [];
    const response = (await executePlan(withResolve, { message: "m" }, { ...options, resolveConfig, verifyDeps: (_s, anchorPath) => void seen.push(anchorPath) })) as Record<string, any>;
    expect(response.data.params).toEqual({ message: "m", resolved_config: { mode: "fast" }, extra: "per-tool" });
    // The fixture runtime declares no verify_deps, so there is nothing to check.
    expect(seen).toEqual([]);
    const refusing = { ...base, verify_deps: { enabled: true, scope: "anchor" } };
    const refused = await executePlan(refusing, {}, { ...options, verifyDeps: (_s, anchorPath) => { throw new Error(`unsigned file under ${anchorPath}`); } });
    expect(refused).toMatchObject({ status: "error", error: `unsigned file under ${join(project.tools, "demo")}`, chain: [] });
  });

  it("kills a hanging tool and the child it spawned at the timeout", async () => {
    const pidFile = join(project.root, "hang.pids");
    const started = Date.now();
    const response = (await executePlan(plan("demo/hang"), { pid_file: pidFile }, options)) as Record<string, any>;
    const elapsed = Date.now() - started;
    expect(response.status).toBe("error");
    expect(response.metadata.timed_out).toBe(true);
    expect(response.error).toMatch(/timed out after 2 seconds/);
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(15_000);
    const pids = readFileSync(pidFile, "utf8").split(" ").map(Number);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(await diesSoon(pid), `pid ${pid}`).toBe(true);
  });
});

describe("node and shell tools via runtime YAMLs", () => {
  it("hands a hostile value to a Node tool as one argv element", async () => {
    const response = (await executePlan(plan("demo/node_echo"), { message: HOSTILE }, options)) as Record<string, any>;
    expect(response.status).toBe("success");
    expect(response.data).toEqual({ argv: [HOSTILE] });
    noCanaries();
  });

  it("hands a hostile value to a `sh -c` script as one positional argument", async () => {
    const response = (await executePlan(plan("demo/sh_echo"), { message: HOSTILE }, options)) as Record<string, any>;
    expect(response.status).toBe("success");
    // Not JSON, so the raw output comes back.
    expect(response.data).toEqual({ stdout: HOSTILE, stderr: "", return_code: 0 });
    noCanaries();
  });

  it("dry-runs a chain without executing it", async () => {
    const response = await executePlan(plan("demo/sh_echo"), {}, { ...options, dryRun: true });
    expect(response).toEqual({
      status: "validation_passed",
      message: "Tool chain validation passed (dry run)",
      item_id: "demo/sh_echo",
      chain: [
        { item_id: "demo/sh_echo", space: "project", tool_type: "shell", executor_id: "rt/shell", integrity: null },
        { item_id: "rt/shell", space: "project", tool_type: "runtime", executor_id: "rye/core/primitives/execute", integrity: null },
        { item_id: "rye/core/primitives/execute", space: "project", tool_type: "primitive", executor_id: null, integrity: null },
      ],
      validated_pairs: 2,
    });
  });

  it("reports an unknown primitive and a missing command", async () => {
    const p = plan("demo/sh_echo");
    const unknown = await executePlan({ ...p, root: { item_id: "rye/core/primitives/http_client", executor_id: null } }, {}, options);
    expect(unknown).toMatchObject({ status: "error", error: "Unknown primitive: rye/core/primitives/http_client" });
    const noCommand = await executePlan({ ...p, config: { ...p.config, command: "" } }, {}, options);
    expect(noCommand).toMatchObject({ status: "error", error: "No command specified" });
  });
});

/** True once the process is gone or a zombie (containers may not reap orphans). */
async function diesSoon(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    const stat = `/proc/${pid}/stat`;
    if (!existsSync(stat)) return true;
    try {
      if (/^\d+ \(.*\) Z/.test(readFileSync(stat, "utf8"))) return true;
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
