import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ChainElement } from "../../src/tools/build-chain.js";
import { checkSplicedValues } from "../../src/tools/check-shell-script.js";
import { installedShells, plan, run, which } from "./interpreters-helpers.js";

// Class 1, "a value-carrying shell script runs no program text the build did not see": a value bound
// as data can still become code when the script writes it into a file (or a pipe) and then runs that
// file. An enumerated matrix of value channels (a placeholder in the script, "$1" after it, stdin) ×
// writers × runners × every installed shell: each row is refused at run time before anything starts,
// and by the build (RYE4012), and the payload's marker file never exists. A liveness check runs each
// writer × runner pair directly in bash with the same payload and sees the marker appear, so each
// refused row is a working attack.

const dir = mkdtempSync(join(tmpdir(), "rye-file-code-"));
const work = join(dir, "work");
mkdirSync(work);
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const python = which("python3");
const node = which("node");
const perl = which("perl");
const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`interpreters-file-code: shells not installed, skipped: ${missing.join(", ")}`);

type Lang = "sh" | "py" | "js" | "pl";
/** What each language runs to create the marker. */
const PAYLOAD: Record<Lang, string> = {
  sh: `touch ${MARKER}`,
  py: `open(${JSON.stringify(MARKER)}, "w").close()`,
  js: `require("fs").writeFileSync(${JSON.stringify(MARKER)}, "")`,
  pl: `open(my $f, ">", ${JSON.stringify(MARKER)}); close($f);`,
};

/** A runner of the file F (or module m): the language it reads, and whether it is installed. */
const RUNNERS: [string, Lang, boolean][] = [
  ["sh F", "sh", true],
  ["bash F", "sh", which("bash") !== null],
  ["dash F", "sh", which("dash") !== null],
  [". ./F", "sh", true],
  ["source ./F", "sh", which("bash") !== null],
  ["sh < F", "sh", true],
  ["cat F | sh", "sh", true],
  ["env sh F", "sh", true],
  ["timeout 5 sh F", "sh", true],
  ["nohup sh F >/dev/null", "sh", true],
  ["echo F | xargs sh", "sh", true],
  ["find . -name F -exec sh {} \\;", "sh", true],
  ['sh -c "$(cat F)"', "sh", true],
  ['eval "$(cat F)"', "sh", true],
  ["sh -c 'sh F'", "sh", true],
  ["chmod +x F && ./F", "sh", true],
  ["chmod +x F && r=./F && $r", "sh", true],
  ["chmod +x F && $(pwd)/F", "sh", true],
  ["BASH_ENV=F bash -c true", "sh", which("bash") !== null],
  ["env BASH_ENV=F bash -c true", "sh", which("bash") !== null],
  ["cp F .zshenv && HOME=$(pwd) zsh -c true", "sh", which("zsh") !== null],
  ["builtin . ./F", "sh", which("bash") !== null],
  ["python3 F", "py", python !== null],
  ["cp F m.py && python3 -m m", "py", python !== null],
  ["python3 < F", "py", python !== null],
  ['python3 -c "$(cat F)"', "py", python !== null],
  ["node F", "js", node !== null],
  ["perl F", "pl", perl !== null],
  ["env perl F", "pl", perl !== null],
];

/** Writers of F: `SRC` is where the value comes from (a placeholder, or "$1"). */
const WRITERS = [
  "printf '%s\\n' SRC > F",
  "echo SRC >> F",
  "printf '%s\\n' SRC | tee F >/dev/null",
  "printf '%s\\n' SRC > T && cp T F",
  "printf '%s\\n' SRC > T && mv T F",
  "printf '%s\\n' SRC | dd of=F 2>/dev/null",
  "printf '%s\\n' SRC | cat > F",
];
/** Writers of F from the script's stdin. */
const STDIN_WRITERS = ["cat > F", "cp /dev/stdin F", "tee F >/dev/null", "dd of=F 2>/dev/null", "head -c 100000 > F"];

const installed = RUNNERS.filter(([, , ok]) => ok);
const skipped = RUNNERS.filter(([, , ok]) => !ok).map(([r]) => r);
if (skipped.length > 0) console.log(`interpreters-file-code: runners whose interpreter is not installed, skipped: ${skipped.join("; ")}`);

const reset = () => {
  rmSync(MARKER, { force: true });
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
};

const buildRefused = (config: Record<string, unknown>) => checkSplicedValues([{ metadata: { config } } as unknown as ChainElement], config).refused.map((r) => r.raw);

describe("a value-carrying shell script runs no program text the build did not see", () => {
  it("each writer × runner pair is a working attack when run directly (liveness)", () => {
    for (const [runner, lang] of installed) {
      for (const writer of [WRITERS[0]!, WRITERS[2]!]) {
        reset();
        const script = `${writer.replace("SRC", '"$1"')} && ${runner}`;
        spawnSync(which("bash") ?? "/bin/sh", ["-c", script, "sh", PAYLOAD[lang]], { cwd: work, timeout: 10_000 });
        expect(existsSync(MARKER), `live: ${script}`).toBe(true);
      }
    }
  }, 120_000);

  it("refused at run and at build, marker absent (matrix: channels × writers × runners × shells)", async () => {
    let rows = 0;
    for (const [k, shell] of shells.entries()) {
      // Every writer under the first shell; two of each kind under the others (the rule reads the
      // script, not the shell, so the outer shell varies the launch only).
      const writers = k === 0 ? WRITERS : [WRITERS[0]!, WRITERS[2]!];
      const stdinWriters = k === 0 ? STDIN_WRITERS : STDIN_WRITERS.slice(0, 2);
      for (const [runner, lang] of installed) {
        const value = PAYLOAD[lang];
        const cases: [string, unknown[], Record<string, unknown>][] = [
          ...writers.map((w): [string, unknown[], Record<string, unknown>] => [`${w.replace("SRC", "{v}")} && ${runner}`, [], {}]),
          ...writers.map((w): [string, unknown[], Record<string, unknown>] => [`${w.replace("SRC", '"$1"')} && ${runner}`, ["sh", "{v}"], {}]),
          ...stdinWriters.map((w): [string, unknown[], Record<string, unknown>] => [`${w} && ${runner}`, [], { input_data: "{v}" }]),
        ];
        for (const [script, after, extra] of cases) {
          reset();
          const argv = [...shell.argv.slice(1), "-c", script, ...after];
          const config = { cwd: work, ...extra };
          const r = await run(dir, plan(dir, shell.argv[0]!, argv, config), { v: value });
          const where = `${shell.name} -c ${JSON.stringify(script)} ${after.join(" ")} ${JSON.stringify(extra)}`;
          expect(r.status, where).toBe("error");
          // The nearer rule may refuse first: a value never reaches a file (the writer itself).
          expect(String(r.error), where).toMatch(/program text the build never sees|a program the build never sees|into a file/);
          expect(existsSync(MARKER), where).toBe(false);
          expect(buildRefused({ command: shell.argv[0]!, args: argv, ...config }), where).toContain("{v}");
          rows++;
        }
      }
    }
    expect(rows).toBeGreaterThan(500);
  }, 300_000);

  it("an inert value is refused too: written into a file, a word is a command", async () => {
    reset();
    const r = await run(dir, plan(dir, "/bin/sh", ["-c", "echo {v} > F && sh F"], { cwd: work }), { v: "reboot" });
    expect(String(r.error)).toMatch(/^placeholder '\{v\}' is a value the shell script writes into a file: `echo … > F` sends its output into a file/);
    const unseen = await run(dir, plan(dir, "/bin/sh", ["-c", "echo {v}; sh F"], { cwd: work }), { v: "reboot" });
    expect(String(unseen.error)).toMatch(/^placeholder '\{v\}' is a value of a shell script that runs program text the build never sees: `sh F` runs a shell that reads its program from a file or stdin/);
  });

  it("the tool's own file ({tool_path}) runs, unless the script could rewrite it first", async () => {
    const tool = join(dir, "tool.py");
    writeFileSync(tool, "import sys\nprint('tool', sys.argv[1])\n");
    const toolPlan = (script: string) => {
      const p = plan(dir, "/bin/sh", ["-c", script], { cwd: work });
      return { ...p, context: { ...p.context, tool_path: tool } };
    };
    if (python) {
      reset();
      const ok = await run(dir, toolPlan("python3 {tool_path} {v} | head -n 1"), { v: "abc" });
      expect(ok.status, JSON.stringify(ok)).toBe("success");
      expect(ok.data.stdout).toBe("tool abc\n");
    }
    // A value naming a written file, or any other command that writes, could put the value in the tool's file.
    for (const script of ["echo {x} > {out}; python3 {tool_path}", "printf '%s\\n' {x} | tee {out}; python3 {tool_path}", 'echo {x} > "$0"; python3 {tool_path}', "cp {x} {out}; python3 {tool_path}"]) {
      reset();
      writeFileSync(tool, "print('tool')\n");
      const r = await run(dir, toolPlan(script), { x: PAYLOAD.py, out: tool });
      expect(String(r.error), script).toMatch(/the tool's own file runs after .*, which could rewrite it|writes into a file/);
      expect(existsSync(MARKER), script).toBe(false);
    }
    // A caller's parameter named tool_path never stands for the tool's own file.
    reset();
    const evil = join(dir, "evil.py");
    writeFileSync(evil, `${PAYLOAD.py}\n`);
    await run(dir, toolPlan("python3 {tool_path} {v}"), { v: "abc", tool_path: evil });
    expect(existsSync(MARKER)).toBe(false);
  });

  it("the bash runtime's `bash -c {command}` (resolving to /bin/bash, which reads stdin as code) gets no caller value on stdin", async () => {
    reset();
    const r = await run(dir, plan(dir, "/bin/bash", ["-c", "{command}", "{tool_path}", "{project_path}"], { input_data: "{params_json}", cwd: work }), { a: `$(touch ${MARKER})` });
    expect(String(r.error)).toMatch(/^placeholder '\{params_json\}' in input_data reaches the stdin of bash, whose -c script runs program text the build never sees \(`\/bin\/bash` names its program by a path/);
    expect(existsSync(MARKER)).toBe(false);
    expect(buildRefused({ command: "/bin/bash", args: ["-c", "{command}", "{tool_path}", "{project_path}"], input_data: "{params_json}" })).toEqual(["{params_json}"]);
  });

  it("scripts that run only programs the build sees keep working with hostile values", async () => {
    const rows: [string, string][] = [
      ["printf '%s\\n' {v} | cat", `$(touch ${MARKER})\n`],
      ["printf '%s' {v} | python3 -c 'import sys; print(\"n=%d\" % len(sys.stdin.read()))'", `n=${`$(touch ${MARKER})`.length}\n`],
      ["sh -c 'printf %s \"$1\"' sh x && printf '%s' {v}", `x$(touch ${MARKER})`],
      ["exec 2>&1; printf '%s' {v}", `$(touch ${MARKER})`],
    ];
    for (const [script, out] of rows) {
      if (script.includes("python3") && !python) continue;
      reset();
      const r = await run(dir, plan(dir, "/bin/sh", ["-c", script], { cwd: work }), { v: `$(touch ${MARKER})` });
      expect(r.data?.stdout, `${script}: ${JSON.stringify(r)}`).toBe(out);
      expect(existsSync(MARKER), script).toBe(false);
    }
  });
});
