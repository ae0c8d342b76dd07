import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSplicedValues } from "../../src/tools/check-shell-script.js";
import { installedShells, plan, run, which } from "./interpreters-helpers.js";

// Class 1, stdin: a -c script hands its stdin to every command in it that no pipe or input
// redirection feeds. Every installed shell × every place a command can stand in a script × every
// reader that takes stdin as code: input_data carrying a caller's value is refused, at run and at
// build, and the payload's marker never exists. A `-m` module reads stdin as it likes (pdb runs it).

const dir = mkdtempSync(join(tmpdir(), "rye-shell-taint-stdin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`shell-taint-stdin: not installed, skipped: ${missing.join(", ")}`);

/** Readers of stdin as code, each with a payload for it that creates the marker `m`. */
const READERS: [string, (m: string) => string][] = (
  [
    ["python3", (m: string) => `import os; os.system('touch ${m}')\n`],
    ["python3 -m pdb /dev/null", (m: string) => `!import os; os.system('touch ${m}')\nc\n`],
    ["sh", (m: string) => `touch ${m}\n`],
    ["bash -s", (m: string) => `touch ${m}\n`],
    ["perl", (m: string) => `system("touch ${m}");\n`],
    ["node", (m: string) => `require("fs").writeFileSync("${m}", "")\n`],
  ] as [string, (m: string) => string][]
).filter(([r]) => which(r.split(" ")[0]!) !== null);

/** Places a command can stand in a script and still read the script's stdin. */
const PLACES = [`cd /; R`, `{ R; }`, `if true; then R; fi`, `x=$(R); echo "$x"`, `exec R`, `true && R`, `while true; do R; break; done`, `sh -c 'cd /; R'`, `echo start\nR`];

describe("stdin of a -c script reaches every command it hands it to", () => {
  for (const shell of shells) {
    it(`${shell.name}: every place × reader is refused and runs nothing`, async () => {
      let n = 0;
      for (const place of PLACES) {
        for (const [reader, payload] of READERS) {
          const m = join(dir, `M-${shell.name.replace(" ", "_")}-${n++}`);
          const script = place.replace("R", reader);
          const r = await run(dir, plan(dir, shell.argv[0]!, [...shell.argv.slice(1), "-c", script], { input_data: "{snippet}", cwd: dir }), { snippet: payload(m) });
          expect(r.status, `${shell.name} ${script}`).toBe("error");
          expect(r.error, `${shell.name} ${script}`).toMatch(/input_data reaches the stdin of/);
          expect(existsSync(m)).toBe(false);
        }
      }
    });
  }

  it("python3 -m MODULE at the top level: refused", async () => {
    const m = join(dir, "M-top-pdb");
    const r = await run(dir, plan(dir, "python3", ["-m", "pdb", "/dev/null"], { input_data: "{snippet}" }), { snippet: `!import os; os.system('touch ${m}')\nc\n` });
    expect(r.status).toBe("error");
    expect(r.error).toMatch(/-m, a module looked up at run time/);
    expect(existsSync(m)).toBe(false);
  });

  it("the build refuses the same (RYE4012 site)", () => {
    for (const place of PLACES) {
      for (const [reader] of READERS) {
        const report = checkSplicedValues([], { command: "sh", args: ["-c", place.replace("R", reader)], input_data: "{snippet}" });
        expect(report.refused.some((r) => /input_data reaches the stdin of/.test(r.message)), place.replace("R", reader)).toBe(true);
      }
    }
  });

  it("a command fed by a pipe or an input redirection does not take the script's stdin; data readers keep any value", async () => {
    for (const shell of shells) {
      for (const script of [`read -r line; printf '<%s>' "$line"`, `cd /; cat`, `echo x | cat >/dev/null; cat`]) {
        const m = join(dir, `M-ok-${shell.name.replace(" ", "_")}`);
        const value = `a[$(touch ${m})];touch ${m}`;
        const r = await run(dir, plan(dir, shell.argv[0]!, [...shell.argv.slice(1), "-c", script], { input_data: "{snippet}", cwd: dir }), { snippet: value });
        expect(r.status, `${shell.name} ${script}: ${r.error}`).toBe("success");
        expect(r.data.stdout).toContain(value);
        expect(existsSync(m)).toBe(false);
      }
    }
  });
});
