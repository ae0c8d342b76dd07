import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";
import { STREAM_GRACE_MS } from "../../src/runtime/exec/run-process.js";

// A descendant that leaves the process group (`setsid`) while holding stdout must not hold rye:
// the run ends within its timeout plus one second, and soon after the command itself exits.

const hasSetsid = spawnSync("setsid", ["true"]).status === 0;
const dir = mkdtempSync(join(tmpdir(), "rye-timeout-"));
const escaped: number[] = [];
afterAll(() => {
  for (const pid of escaped) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

function plan(script: string, timeout: number): ChainPlan {
  return {
    item_id: "t/escape",
    chain: [],
    validation: { valid: true, issues: [], validated_pairs: 1 },
    root: { item_id: "rye/core/primitives/execute", executor_id: null },
    config: { command: "/bin/sh", args: ["-c", script], timeout },
    env_configs: [],
    anchor: null,
    verify_deps: null,
    config_resolve: [],
    context: { tool_path: join(dir, "t.yaml"), tool_dir: dir, tool_parent: tmpdir(), anchor_path: dir, runtime_lib: "" },
  };
}

async function timed(p: ChainPlan, pidFile: string) {
  const started = Date.now();
  const response = (await executePlan(p, {}, { projectPath: dir, userSpace: dir, systemSpace: "", dotenv: null, osEnv: { PATH: process.env.PATH ?? "" } })) as Record<string, any>;
  const elapsed = Date.now() - started;
  if (existsSync(pidFile)) escaped.push(Number(readFileSync(pidFile, "utf8").trim()));
  return { response, elapsed };
}

describe.skipIf(!hasSetsid)(`a descendant that escapes the process group${hasSetsid ? "" : " — skipped: no setsid on PATH"}`, () => {
  // The first run loads execa; that one-time cost is not part of the bound.
  beforeAll(() => timed(plan("true", 5), join(dir, "none.pid")));

  it("still holding stdout at the timeout: the run ends within timeout + 1 s with timed_out", async () => {
    const pidFile = join(dir, "a.pid");
    const { response, elapsed } = await timed(plan(`setsid sleep 30 & echo $! > ${pidFile}; echo started; sleep 30`, 3), pidFile);
    expect(response.status).toBe("error");
    expect(response.metadata.timed_out).toBe(true);
    expect(response.error).toMatch(/timed out after 3 seconds/);
    expect(response.data.stdout).toBe("started\n");
    expect(elapsed).toBeGreaterThanOrEqual(2900);
    expect(elapsed).toBeLessThan(4000);
  });

  it("holding stdout after the command exited: the result comes after the grace, long before the timeout", async () => {
    const pidFile = join(dir, "b.pid");
    const { response, elapsed } = await timed(plan(`setsid sleep 30 & echo $! > ${pidFile}; echo done`, 10), pidFile);
    expect(response.status).toBe("success");
    expect(response.metadata.timed_out).toBeUndefined();
    expect(response.data.stdout).toBe("done\n");
    expect(elapsed).toBeGreaterThanOrEqual(STREAM_GRACE_MS - 50);
    expect(elapsed).toBeLessThan(STREAM_GRACE_MS + 1000);
  });
});
