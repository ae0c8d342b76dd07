// Trust follows a value's origin, not its name: a chain key whose authored text forwards a caller's
// parameter (`n: "{count}"`, also through another key) or an environment value holds that value once
// the config is templated, so it is checked exactly as the caller's own placeholder would be: refused
// in the positions where the caller's is refused, inert-only where the caller's is. Each payload
// writes a marker; the marker must never exist. Controls: the same keys with the author's own text run.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { plan, run as runPlan } from "./interpreters-helpers.js";

function run(command: string, args: string[], config: Record<string, unknown>, params: Record<string, unknown>, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "rye-origin-"));
  return runPlan(dir, plan(dir, command, args, config), params, env);
}

const marker = () => join(mkdtempSync(join(tmpdir(), "rye-origin-m-")), "MARKER");
const subscript = (m: string) => `a[$(touch ${m})]`;

// Each case: the script or program text, the forwarding config, and the caller's parameters.
const CASES: [string, string, string[], (m: string) => { config: Record<string, unknown>; params: Record<string, unknown>; env?: Record<string, string> }][] = [
  ["arithmetic through a key forwarding a parameter", "/bin/bash", ["-c", "echo $(( {n} + 1 ))"], (m) => ({ config: { n: "{count}" }, params: { count: subscript(m) } })],
  ["arithmetic through two forwarding keys", "/bin/bash", ["-c", "echo $(( {n} + 1 ))"], (m) => ({ config: { n: "{k}", k: "{count}" }, params: { count: subscript(m) } })],
  ["eval of a key forwarding a parameter", "/bin/sh", ["-c", "{script}"], (m) => ({ config: { script: "eval {msg}", msg: "echo {name}" }, params: { name: `$(touch ${m})` } })],
  ["python -c through a forwarding key", "python3", ["-c", "print({n})"], (m) => ({ config: { n: "{count}" }, params: { count: `__import__("os").system("touch ${m}")` } })],
  ["an environment value through a key", "/bin/bash", ["-c", "echo $(( {n} + 1 ))"], (m) => ({ config: { n: "${COUNT}" }, params: {}, env: { COUNT: subscript(m) } })],
  ["a key forwarding a parameter inside a larger text", "/bin/bash", ["-c", "let x={n}"], (m) => ({ config: { n: "1+{count}" }, params: { count: subscript(m) } })],
];

describe("a chain key that forwards a caller's value is the caller's", () => {
  test.each(CASES)("%s: refused, no marker", async (_name, command, args, make) => {
    const m = marker();
    const { config, params, env } = make(m);
    const result = await run(command, args, config, params, env);
    expect(existsSync(m)).toBe(false);
    expect(result.status).toBe("error");
  });

  test("the author's own text in the same keys still runs", async () => {
    const r = await run("/bin/bash", ["-c", "echo $(( {n} + 1 ))"], { n: "41" }, {});
    expect(r.status).toBe("success");
    expect(JSON.stringify((r as { data?: unknown }).data)).toContain("42");
  });
});
