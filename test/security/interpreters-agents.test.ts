import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommandTemplate } from "../../src/agents/command-template.js";
import { AgentLaunchError, launchAgent } from "../../src/runtime/agents/launch-agent.js";
import { hostileValue, INERT, which } from "./interpreters-helpers.js";

// Class 1 in DR-007 agent commands: a value inside a larger word of the agent binary ({bin}, reached
// directly or through launchers) is its data; inside a word of any other program (a shell, python,
// a wrapper rye does not know) it must be inert, and a placeholder that is a shell's -c script is
// refused. A stub agent records its argv; a refused launch never starts anything.

const dir = mkdtempSync(join(tmpdir(), "rye-agent-interp-"));
const record = join(dir, "argv.json");
const MARKER = join(dir, "marker");
const stub = join(dir, "stub-agent");
writeFileSync(stub, `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`);
chmodSync(stub, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function launch(command: string, prompt: string) {
  rmSync(record, { force: true });
  const { template } = parseCommandTemplate(command);
  try {
    const run = await launchAgent(template!, { bin: stub, model: "m", prompt, role: "r" }, { capture: true, cwd: dir });
    return { ran: run, argv: existsSync(record) ? (JSON.parse(readFileSync(record, "utf8")) as string[]) : null };
  } catch (e) {
    expect(e).toBeInstanceOf(AgentLaunchError);
    expect(existsSync(record)).toBe(false);
    return { refused: (e as Error).message };
  }
}

describe("values spliced into agent commands", () => {
  it("the agent binary, directly or through launchers, takes any value inside a word", async () => {
    await fc.assert(
      fc.asyncProperty(hostileValue(MARKER), fc.constantFrom("{bin} --prompt={prompt}", "env A=1 {bin} -p x{prompt}", "timeout 60 nice -n 1 {bin} --p={prompt}"), async (v, command) => {
        const r = await launch(command, v);
        expect(existsSync(MARKER)).toBe(false);
        expect(r.refused).toBeUndefined();
        expect(r.argv!.at(-1)!.endsWith(v)).toBe(true);
      }),
      { numRuns: 30 },
    );
  }, 60_000);

  it("a shell's -c script made of a placeholder is refused, whole or spliced, through launchers too", async () => {
    for (const command of ["sh -c {prompt}", "sh -c 'echo {prompt}'", "env bash -ec \"printf %s {prompt}\"", "timeout 5 busybox sh -c x{prompt}"]) {
      const r = await launch(command, "hello");
      expect(r.refused, command).toMatch(/is the script of (sh|bash) -c in the agent command/);
      expect(existsSync(MARKER)).toBe(false);
    }
  });

  it("another program gets inert values only inside a word; its whole-word arguments stay free", async () => {
    const python = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : which("python3");
    if (!python) return console.log("interpreters-agents: python3 not installed; skipped");
    await fc.assert(
      fc.asyncProperty(hostileValue(MARKER), async (v) => {
        const spliced = await launch(`${python} -c "print('<{prompt}>')"`, v);
        expect(existsSync(MARKER)).toBe(false);
        if (INERT.test(v)) expect(spliced.ran?.stdout).toBe(`<${v}>`);
        else expect(spliced.refused).toMatch(/^the value of \{prompt\} .*spliced into argument 2 of the agent command \(python3\)/);
        const whole = await launch(`${python} -c "import sys; print('<' + sys.argv[1] + '>')" -- {prompt}`, v);
        expect(existsSync(MARKER)).toBe(false);
        expect(whole.refused).toBeUndefined();
      }),
      { numRuns: 30 },
    );
  }, 60_000);

  it("a launcher option rye does not know stops the proof: every caller value is refused, inert or not", async () => {
    for (const value of ["a b", "a_b1"]) {
      expect((await launch("env --bogus {bin} --p={prompt}", value)).refused, value).toMatch(/^placeholder '\{prompt\}' stands where the program could read it as code/);
    }
  });

  it("an unknown wrapper is not proven: inert values only", async () => {
    for (const command of ["wrapper --x={prompt}"]) {
      const r = await launch(command, "a b");
      expect(r.refused, command).toMatch(/^the value of \{prompt\} holds " "/);
      // An inert value passes the check (the wrapper itself is not installed, which is reported next).
      const ok = await launch(command, "a_b1");
      expect((await launch(command, "a.b")).refused, command).toMatch(/^the value of \{prompt\} holds "\."/);
      expect(ok.refused ?? "", command).not.toMatch(/the value of/);
    }
  });
});
