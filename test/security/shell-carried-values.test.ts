import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSplicedValues } from "../../src/tools/check-shell-script.js";
import { installedShells, plan, run, which } from "./interpreters-helpers.js";

// Class 1, values a -c script reads as "$1" (an argument after it) or from stdin (`read`): rye never
// checks them, so each use must stand where any text is data. Every installed shell × every use that
// hands the value to code (sed, awk, git -c, an interpreter's environment, PS4, compgen -W, zsh's
// $~1, ${1@P}, an assignment, a redirection) × both channels is refused at run and at build, and the
// marker its value would create never exists (eval and nested shells are the unseen-program rule's); the data uses keep running with hostile values.

const dir = mkdtempSync(join(tmpdir(), "rye-shell-carried-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`shell-carried-values: not installed, skipped: ${missing.join(", ")}`);
const python = which("python3");
if (python === null) console.log("shell-carried-values: python3 not installed, its environment rows skipped");

// A module directory whose json.py creates the marker named by the environment variable MARK when imported.
const lib = join(dir, "lib");
mkdirSync(lib);
writeFileSync(join(lib, "json.py"), "import os\nopen(os.environ['MARK'], 'w')\n");
// The tool's own file (plan's tool_path): a script that prints its first argument.
writeFileSync(join(dir, "t.yaml"), "import sys\nprint(sys.argv[1])\n");

/** A use of the carried value: the script around R (the variable's name) and the value that would create M. */
interface Use {
  script: (r: string) => string;
  value: (m: string) => string;
  needs?: string;
}

const REFUSED: Use[] = [
  { script: (r) => `printf 'x\\n' | sed -e "$${r}"`, value: (m) => `1e touch ${m}` },
  { script: (r) => `sed -n "$${r}" /etc/hostname </dev/null`, value: (m) => `1e touch ${m}` },
  { script: (r) => `awk "$${r}" /dev/null </dev/null`, value: (m) => `BEGIN{system("touch ${m}")}`, needs: "awk" },
  { script: (r) => `git -c "$${r}" zz </dev/null`, value: (m) => `alias.zz=!touch ${m}`, needs: "git" },
  { script: (r) => `PYTHONPATH="$${r}" MARK=M python3 -c 'import json' </dev/null`, value: () => lib, needs: "python3" },
  { script: (r) => `export PYTHONPATH="$${r}"; MARK=M python3 -c 'import json' </dev/null`, value: () => lib, needs: "python3" },
  { script: (r) => `X="$${r}"; printf '%s' "$X"`, value: (m) => `$(touch ${m})` },
  { script: (r) => `PS4="$${r}"; set -x; true`, value: (m) => `+ $(touch ${m}) ` },
  { script: (r) => `compgen -W "$${r}" -- a </dev/null`, value: (m) => `a $(touch ${m})` },
  { script: (r) => `print -rl -- $~${r}`, value: (m) => `/(e+touch ${m}+)` },
  { script: (r) => `echo "\${${r}@P}"`, value: (m) => `$(touch ${m})` },
  { script: (r) => `echo "\${${r}:-x}"`, value: (m) => `$(touch ${m})` },
  { script: (r) => `printf '%s' $${r}`, value: (m) => `$(touch ${m})` },
  { script: (r) => `printf x > "$${r}"`, value: (m) => m },
  { script: (r) => `cat "$${r}" 2>/dev/null </dev/null; true`, value: (m) => `--x=${m}` },
  { script: (r) => `printf 'x\n' | sed -e "$(printf %s "$${r}")"`, value: (m) => `1e touch ${m}` },
];

const ACCEPTED: Use[] = [
  { script: (r) => `printf '<%s>' "$${r}"`, value: (m) => `a[$(touch ${m})] \`touch ${m}\`` },
  { script: (r) => `cat -- "$${r}" 2>/dev/null </dev/null; true`, value: (m) => `-$(touch ${m})` },
  { script: (r) => `echo "x$${r}"`, value: (m) => `$(touch ${m})` },
  { script: (r) => `[ "$${r}" = x ] || printf '<%s>' "$${r}"`, value: (m) => `a[$(touch ${m})]` },
  { script: (r) => `test -n "$${r}" && printf '<%s>' "$${r}"`, value: (m) => `-v a[$(touch ${m})]` },
  { script: (r) => `python3 {tool_path} "$${r}" </dev/null`, value: (m) => `$(touch ${m})`, needs: "python3" },
];

/** The two channels: the value as "$1" after the script, or a line of stdin read into `w`. */
const CHANNELS: [string, (script: (r: string) => string) => { args: (sh: string[]) => string[]; config: Record<string, unknown> }][] = [
  ["argument", (s) => ({ args: (sh) => [...sh.slice(1), "-c", s("1"), "sh", "{v}"], config: {} })],
  ["stdin", (s) => ({ args: (sh) => [...sh.slice(1), "-c", `IFS= read -r w; ${s("w")}`], config: { input_data: "{v}" } })],
];

let n = 0;
const marker = () => join(dir, `M${n++}`);
const available = (u: Use) => u.needs === undefined || which(u.needs) !== null;

describe("a value carried as \"$1\" or from stdin is used only where any text is data", () => {
  for (const shell of shells) {
    it(`${shell.name}: every code-taking use × channel is refused and runs nothing`, async () => {
      for (const use of REFUSED.filter(available)) {
        for (const [channel, make] of CHANNELS) {
          const m = marker();
          const { args, config } = make((r) => use.script(r).replace("MARK=M", `MARK=${m}`));
          const r = await run(dir, plan(dir, shell.argv[0]!, args(shell.argv), config), { v: use.value(m) });
          expect(r.status, `${shell.name} ${channel} ${use.script("1")}: ${JSON.stringify(r.stdout)}`).toBe("error");
          expect(r.error, `${shell.name} ${channel} ${use.script("1")}`).toMatch(/reaches a \S+ -c script (as an argument after it|on its stdin)/);
          expect(existsSync(m), `${shell.name} ${channel} ${use.script("1")}`).toBe(false);
        }
      }
    });

    it(`${shell.name}: data uses run with hostile values and run nothing`, async () => {
      for (const use of ACCEPTED.filter(available)) {
        for (const [channel, make] of CHANNELS) {
          const m = marker();
          const { args, config } = make(use.script);
          const r = await run(dir, plan(dir, shell.argv[0]!, args(shell.argv), config), { v: use.value(m) });
          expect(r.status, `${shell.name} ${channel} ${use.script("1")}: ${r.error}`).toBe("success");
          expect(existsSync(m)).toBe(false);
        }
      }
    });
  }

  it("the build refuses the same scripts (RYE4012 site) and passes the data ones", () => {
    for (const [channel, make] of CHANNELS) {
      for (const use of REFUSED) {
        const { args, config } = make(use.script);
        const report = checkSplicedValues([], { command: "bash", args: args(["bash"]), ...config });
        expect(report.refused.map((r) => r.message).join("\n"), `${channel} ${use.script("1")}`).toMatch(/reaches a bash -c script/);
      }
      for (const use of ACCEPTED) {
        const { args, config } = make(use.script);
        expect(checkSplicedValues([], { command: "bash", args: args(["bash"]), ...config }).refused, `${channel} ${use.script("1")}`).toEqual([]);
      }
    }
  });

  it("names that hold a carried value under another name, and stdin read by a command substitution, are refused", async () => {
    const cases: [string, string[], Record<string, unknown>][] = [
      [`for f; do printf 'x\n' | sed -e "$f"; done`, ["sh", "{v}"], {}],
      [`printf '%s' "$1" >/dev/null; printf 'x\n' | sed -e "$_"`, ["sh", "{v}"], {}],
      [`printf 'x\n' | sed -e "$argv"`, ["sh", "{v}"], {}],
      [`printf 'x\n' | sed -e "$(cat)"`, [], { input_data: "{v}" }],
      [`IFS= read -r; printf 'x\n' | sed -e "$REPLY"`, [], { input_data: "{v}" }],
    ];
    for (const shell of shells) {
      for (const [script, after, config] of cases) {
        const m = marker();
        const r = await run(dir, plan(dir, shell.argv[0]!, [...shell.argv.slice(1), "-c", script, ...after], config), { v: `1e touch ${m}` });
        expect(r.status, `${shell.name} ${script}`).toBe("error");
        expect(r.error, `${shell.name} ${script}`).toMatch(/reaches (a \S+ -c script|the stdin of cat inside a command substitution)/);
        expect(existsSync(m)).toBe(false);
      }
    }
  });

  it("a value spliced into an assignment is refused whatever the variable's name (PYTHONPATH={v})", async () => {
    for (const script of [`PYTHONPATH={v} MARK=M python3 -c 'import json'`, `LIBDIR={v}; PYTHONPATH="$LIBDIR" MARK=M python3 -c 'import json'`]) {
      const m = marker();
      const r = await run(dir, plan(dir, "/bin/sh", ["-c", script.replace("MARK=M", `MARK=${m}`)]), { v: "lib" }, {});
      expect(r.status, script).toBe("error");
      expect(r.error, script).toMatch(/assignment's value/);
      expect(existsSync(m)).toBe(false);
    }
  });

  it("a script that passes no caller value after itself or on stdin is not judged by this rule", () => {
    const report = checkSplicedValues([], { command: "bash", args: ["-c", `sed -e "$1" /dev/null`, "sh", "1p"] });
    expect(report.refused).toEqual([]);
  });

  it("only the positional parameters a caller's value fills carry it, until the script moves them", () => {
    const config = (script: string) => ({ command: "bash", args: ["-c", script, "sh", "1p", "{v}", "{w}"] });
    expect(checkSplicedValues([], config(`sed -n "$1" /dev/null </dev/null; printf '<%s>' "$2"`)).refused).toEqual([]);
    const named = checkSplicedValues([], config(`sed -n "$3" /dev/null </dev/null`)).refused.map((r) => r.message);
    expect(named.join("\n")).toMatch(/^placeholder '\{w\}' reaches a bash -c script as an argument after it, and the script uses it as `\$3`/);
    for (const mover of ["shift", "set -- a", "getopts a o"]) {
      expect(checkSplicedValues([], config(`${mover}; sed -n "$1" /dev/null </dev/null`)).refused.length, mover).toBeGreaterThan(0);
    }
  });
});
