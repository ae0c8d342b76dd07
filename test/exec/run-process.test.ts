import { tmpdir } from "node:os";
import { realpathSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runProcess } from "../../src/runtime/exec/run-process.js";

const node = process.execPath;
const script = (code: string) => ["-e", code];

describe("runProcess", () => {
  it("passes stdin, cwd and exactly the given environment", async () => {
    const cwd = realpathSync(tmpdir());
    const r = await runProcess({
      command: node,
      args: script("let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.stringify([s,process.cwd(),process.env.ONLY,process.env.HOME??null])))"),
      cwd,
      env: { ONLY: "yes" },
      input: "in put",
    });
    expect(r).toMatchObject({ success: true, return_code: 0, timed_out: false, truncated: false, stderr: "" });
    expect(JSON.parse(r.stdout)).toEqual(["in put", cwd, "yes", null]);
  });

  it("reports a non-zero exit with its stderr", async () => {
    const r = await runProcess({ command: node, args: script("console.error('bad');process.exit(3)"), env: {} });
    expect(r).toMatchObject({ success: false, return_code: 3, stderr: "bad\n" });
  });

  it("keeps at most maxOutputBytes of each stream and says so", async () => {
    const r = await runProcess({ command: node, args: script("process.stdout.write('x'.repeat(100000))"), env: {}, maxOutputBytes: 10 });
    expect(r.stdout).toBe("x".repeat(10));
    expect(r.truncated).toBe(true);
    expect(r.success).toBe(true);
  });

  it("treats arguments as data, never as shell syntax", async () => {
    const arg = "$(echo no) `echo no` ; | & > /dev/null";
    const r = await runProcess({ command: node, args: [...script("console.log(process.argv[1])"), arg], env: {} });
    expect(r.stdout).toBe(`${arg}\n`);
  });

  it("fails cleanly when the command does not exist", async () => {
    const r = await runProcess({ command: "/no/such/command", args: [], env: {} });
    expect(r.success).toBe(false);
    expect(r.return_code).toBe(-1);
    expect(r.stderr).toMatch(/Failed to start '\/no\/such\/command'/);
  });

  it("kills at the timeout", async () => {
    const r = await runProcess({ command: node, args: script("setTimeout(()=>{},60000)"), env: {}, timeoutSeconds: 0.5 });
    expect(r).toMatchObject({ success: false, timed_out: true });
    expect(r.stderr).toMatch(/timed out after 0.5 seconds/);
    expect(r.duration_ms).toBeLessThan(10_000);
  });

  it("refuses what no process can receive, naming it, before anything runs", async () => {
    const env = { PATH: process.env.PATH ?? "" };
    const nul = await runProcess({ command: node, args: ["-e", "1", "a\u0000b"], env });
    expect(nul).toMatchObject({ success: false, return_code: -1, stderr: "argument 3 holds a NUL byte at offset 1, which no process argument can carry; remove it" });
    const envNul = await runProcess({ command: node, args: ["-e", "1"], env: { ...env, BAD: "x\u0000" } });
    expect(envNul.stderr).toBe('environment variable "BAD" holds a NUL byte, which no environment entry can carry; remove it');
    if (process.platform === "linux") {
      const big = await runProcess({ command: node, args: ["-e", "1", "x".repeat(3 * 1024 * 1024)], env });
      expect(big.stderr).toBe(`argument 3 is ${3 * 1024 * 1024} bytes, over the OS limit of 131072 bytes for one argument (E2BIG); pass large values on stdin or in a file`);
    }
    const missing = await runProcess({ command: "rye-no-such-command", args: [], env });
    expect(missing.stderr).toBe("Failed to start 'rye-no-such-command': not found on PATH");
  });
});
