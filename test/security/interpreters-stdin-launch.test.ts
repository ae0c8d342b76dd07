import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { splicedValueProblem as agentProblem, type ArgTemplate } from "../../src/runtime/agents/argument-positions.js";
import { OPTIONS_WITH_ARGUMENT } from "../../src/runtime/exec/data-commands.js";
import type { ChainElement } from "../../src/tools/build-chain.js";
import { checkSplicedValues } from "../../src/tools/check-shell-script.js";
import { hostileFragments, plan, run, which } from "./interpreters-helpers.js";

// Class 1, four rules that close what a placeholder's own argv element does not show:
//   stdin: input_data and a pipeline's upstream output carry a caller's value only into a program
//     proven to read stdin as data (a data command; a shell or interpreter given its program as a
//     file or a -c/-e argument); inert values where rye cannot tell; refused where stdin is program text;
//   launch positions: where the launcher walk cannot prove what reads an element (an unknown launcher
//     option, an unlisted wrapper in front of a shell, a shell option rye does not read), a caller's
//     value there is refused, whole or not;
//   end of options: a `--` that is an option's argument (`sort -T --`) ends nothing;
//   redirection targets: a value there names a file outside /dev.
// Each row asserts the refusal and that the marker its value would create does not exist.

const dir = mkdtempSync(join(tmpdir(), "rye-interp-stdin-"));
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "echo.py"), "import sys\nsys.stdout.write(sys.stdin.read())\n");

const python = which("python3");
const perl = which("perl");
const bash = which("bash");

/** A command whose stdin is its program text, each taking a hostile value as code. */
const CODE_READERS: [string, string[]][] = [
  ["/bin/sh", []],
  ["/bin/sh", ["-s"]],
  ["/bin/sh", ["-"]],
  ["/bin/sh", ["-e", "-s", "--", "arg"]],
  ...(bash ? ([[bash, []], [bash, ["-s"]], [bash, ["-O", "extglob"]], ["env", ["bash"]], ["timeout", ["5", "bash", "-s"]]] as [string, string[]][]) : []),
  ...(python ? ([[python, []], [python, ["-"]], [python, ["-u", "-"]], ["env", ["python3"]]] as [string, string[]][]) : []),
  ...(perl ? ([[perl, []], [perl, ["-w"]]] as [string, string[]][]) : []),
];
const STDIN_TEMPLATES = ["{v}", "echo {v}", 'print("{v}")\n', "x = '{v}'\n"];
const marker = () => `touch ${MARKER}`;
const STDIN_VALUES = [marker(), `$(${marker()})`, `"); import os; os.system("${marker()}") #`, `'; system("${marker()}"); '`, "plain_word"];

describe("stdin carries a caller's value only into a proven data reader", () => {
  it("a program reading its program text from stdin refuses every caller value (matrix: readers × templates × values)", async () => {
    for (const [command, args] of CODE_READERS) {
      for (const template of STDIN_TEMPLATES) {
        for (const v of STDIN_VALUES) {
          rmSync(MARKER, { force: true });
          const r = await run(dir, plan(dir, command, args, { input_data: template }), { v });
          const where = `${command} ${args.join(" ")} <<< ${JSON.stringify(template)} v=${JSON.stringify(v)}`;
          expect(r.status, where).toBe("error");
          expect(String(r.error), where).toMatch(/in input_data reaches the stdin of .*(reads its (script|program) from stdin|rye cannot follow)/);
          expect(existsSync(MARKER), where).toBe(false);
        }
      }
    }
  }, 120_000);

  it("a proven data reader takes any value as data (cat, a -c script, a script file)", async () => {
    const readers: [string, string[]][] = [["cat", []], ["/bin/sh", ["-c", "cat"]], ...(python ? ([[python, [join(dir, "echo.py")]], [python, ["-c", "import sys; sys.stdout.write(sys.stdin.read())"]]] as [string, string[]][]) : [])];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...readers), fc.constantFrom(...hostileFragments(MARKER), ...STDIN_VALUES), async ([command, args], v) => {
        rmSync(MARKER, { force: true });
        const r = await run(dir, plan(dir, command, args, { input_data: "<{v}>" }), { v });
        expect(r.status, `${command} ${args.join(" ")} v=${JSON.stringify(v)}`).toBe("success");
        expect(r.data.stdout).toBe(`<${v}>`);
        expect(existsSync(MARKER)).toBe(false);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it("any other program takes inert values only on stdin", async () => {
    const r = await run(dir, plan(dir, "tr", ["a-z", "A-Z"], { input_data: "{v}" }), { v: `.shell ${marker()}` });
    expect(r.status).toBe("error");
    expect(String(r.error)).toMatch(/^the value of \{v\} holds "\."; it is spliced into input_data, the stdin of tr/);
    const ok = await run(dir, plan(dir, "tr", ["a-z", "A-Z"], { input_data: "{v}" }), { v: "abc_1" });
    expect(ok.data.stdout).toBe("ABC_1");
    expect(existsSync(MARKER)).toBe(false);
  });

  it("the original's runtimes keep passing {params_json} on stdin to a script file or a -c program", async () => {
    if (!python) return console.log("skipped: python3 is not installed");
    const r = await run(dir, plan(dir, python, [join(dir, "echo.py")], { input_data: "{params_json}" }), { v: `$(${marker()})` });
    expect(r.status, JSON.stringify(r)).toBe("success");
    // The tool's stdout is JSON, which the run hands back parsed.
    expect(r.data).toEqual({ v: `$(${marker()})` });
    expect(existsSync(MARKER)).toBe(false);
  });

  it("the output of a data command piped into a code reader is refused (matrix: upstream × downstream × values)", async () => {
    const upstream = ["printf %s {v}", "echo {v}", "cat -- {v}", "( printf %s {v} )", "if true; then echo {v}; fi", "echo a; echo {v}"];
    const downstream = ["sh", "bash", "sh -s", "env sh", "tee /dev/null | sh", "(cat; sh)", ...(python ? ["python3", "python3 -"] : []), ...(perl ? ["perl"] : [])];
    for (const up of upstream) {
      for (const down of downstream) {
        for (const v of [marker(), `import os; os.system("${marker()}")`, `system("${marker()}")`]) {
          rmSync(MARKER, { force: true });
          const script = `${up} | ${down}`;
          const r = await run(dir, plan(dir, "/bin/sh", ["-c", script]), { v });
          expect(r.status, script).toBe("error");
          expect(String(r.error), script).toMatch(/sits in output piped into the stdin of/);
          expect(existsSync(MARKER), script).toBe(false);
        }
      }
    }
  }, 120_000);

  it("piped into a program rye does not know, a value must be inert; into xargs, refused; into a data reader, anything goes", async () => {
    const r0 = await run(dir, plan(dir, "/bin/sh", ["-c", "echo {v} | tr a-z A-Z"]), { v: "la /" });
    expect(String(r0.error)).toMatch(/^the value of \{v\} holds " "/);
    // xargs makes its stdin the arguments, options or program of the command it runs: even an inert word.
    for (const v of ["la /", "sh"]) {
      const r1 = await run(dir, plan(dir, "/bin/sh", ["-c", "printf %s {v} | xargs ls"]), { v });
      expect(String(r1.error), v).toMatch(/^placeholder '\{v\}' sits in output piped into the stdin of xargs, which makes it the arguments, options or program/);
    }
    const r = await run(dir, plan(dir, "/bin/sh", ["-c", "printf %s {v} | cat"]), { v: `$(${marker()})` });
    expect(r.data.stdout).toBe(`$(${marker()})`);
    expect(existsSync(MARKER)).toBe(false);
  });

  it("the build reports a caller's value on a code reader's stdin (RYE4012) and on an unknown program's (RYE4013)", () => {
    const check = (config: Record<string, unknown>) => checkSplicedValues([{ metadata: { config } } as unknown as ChainElement], config);
    expect(check({ command: "/bin/sh", args: [], input_data: "echo {msg}" }).refused.map((r) => r.raw)).toEqual(["{msg}"]);
    expect(check({ command: "python3", args: ["-"], input_data: "{msg}" }).refused.map((r) => r.raw)).toEqual(["{msg}"]);
    expect(check({ command: "sqlite3", args: ["db"], input_data: "{sql}" }).inert.map((r) => r.where)).toEqual(["input_data, the stdin of sqlite3, which is not one of rye's data commands"]);
    const ok = check({ command: "python3", args: ["{tool_path}"], input_data: "{params_json}" });
    expect([ok.refused, ok.inert]).toEqual([[], []]);
  });
});

const EVILRC = join(dir, "evilrc");
writeFileSync(EVILRC, `touch ${MARKER}\n`);

describe("launch positions: not proven means refused, whole values too", () => {
  const shellOptions = [["-O", "extglob"], ["-O", "expand_aliases"], ["-o", "emacs"], ["-i"], ["-k"], ["--rcfile", "/dev/null"], ["--debugger"]];
  const wrappers = [["flock", join(dir, "lock")], ["setpriv"], ["script", "-q", "/dev/null", "-c"], ["unknown-wrapper", "--x"], ["python3", join(dir, "echo.py")]];

  it("a whole value after an unread shell option or an unlisted wrapper in front of a shell is refused (matrix)", async () => {
    const argvs: string[][] = [];
    for (const opts of shellOptions) argvs.push(["bash", "-c", ...opts, "{v}"], ["bash", ...opts, "-c", "{v}"]);
    for (const w of wrappers) for (const sh of ["sh", "bash", "/bin/dash"]) argvs.push([...w, sh, "-c", "{v}"]);
    for (const argv of argvs) {
      rmSync(MARKER, { force: true });
      const r = await run(dir, plan(dir, argv[0]!, argv.slice(1)), { v: marker() });
      expect(r.status, argv.join(" ")).toBe("error");
      expect(String(r.error), argv.join(" ")).toMatch(/^placeholder '\{v\}' (is the -c script of a shell whose options rye does not read|stands where the program could read it as code)/);
      expect(existsSync(MARKER), argv.join(" ")).toBe(false);
    }
  }, 60_000);

  it("a caller's value in a launcher's own position is refused even when inert (env NAME=value, options, operands)", async () => {
    const rows: [string[], Record<string, string>][] = [
      [["env", "BASH_ENV={v}", "bash", "-c", "echo hi"], { v: "evilrc" }],
      [["env", "{k}={v}", "bash", "-c", "echo hi"], { k: "BASH_ENV", v: "evilrc" }],
      [["env", "-u", "{v}", "sh", "-c", "echo hi"], { v: "PATH" }],
      [["timeout", "{v}", "sh", "-c", "echo hi"], { v: "5" }],
      [["env", "--bogus", "sh", "-c", "{v}"], { v: "touch" }],
    ];
    for (const [argv, params] of rows) {
      rmSync(MARKER, { force: true });
      const r = await run(dir, plan(dir, argv[0]!, argv.slice(1), { cwd: dir }), params);
      expect(r.status, argv.join(" ")).toBe("error");
      expect(String(r.error), argv.join(" ")).toMatch(/stands where the program could read it as code or as an option \(rye cannot follow this launch/);
      expect(existsSync(MARKER), argv.join(" ")).toBe(false);
    }
  });

  it("a proven program's whole argument stays data (no wrapper, or a listed launcher)", async () => {
    for (const argv of [["printf", "%s", "{v}"], ["env", "printf", "%s", "{v}"], ["timeout", "5", "printf", "%s", "{v}"]]) {
      const r = await run(dir, plan(dir, argv[0]!, argv.slice(1)), { v: `-x $(${marker()})` });
      expect(r.data?.stdout, argv.join(" ")).toBe(`-x $(${marker()})`);
    }
    expect(existsSync(MARKER)).toBe(false);
  });

  it("the build refuses the same positions (RYE4012), and an agent command does too", () => {
    const check = (command: string, args: string[]) => checkSplicedValues([{ metadata: { config: { command, args } } } as unknown as ChainElement], { command, args }).refused.map((r) => r.raw);
    expect(check("/bin/bash", ["-c", "-O", "extglob", "{snippet}"])).toEqual(["{snippet}"]);
    expect(check("/usr/bin/flock", ["/tmp/l", "sh", "-c", "{snippet}"])).toEqual(["{snippet}"]);
    expect(check("/usr/bin/env", ["BASH_ENV={v}", "bash", "-c", "echo hi"])).toEqual(["{v}"]);
    expect(check("/usr/bin/git", ["log", "{ref}"])).toEqual([]);
    const words = (...w: (string | { ph: string })[]): ArgTemplate[] => w.map((x) => [x]);
    expect(agentProblem(words("bash", "-c", "-O", "extglob", { ph: "prompt" }), { prompt: "hi" })).toMatch(/^placeholder '\{prompt\}' is the -c script/);
    expect(agentProblem(words("flock", "/tmp/l", "sh", "-c", { ph: "prompt" }), { prompt: "hi" })).toMatch(/^placeholder '\{prompt\}' stands where/);
  });
});

describe("end of options: a -- that is an option's argument ends nothing", () => {
  it("for every option of every data command that takes an argument, `cmd -X -- {v}` refuses a leading '-' (matrix)", async () => {
    for (const [command, letters] of Object.entries(OPTIONS_WITH_ARGUMENT)) {
      for (const letter of letters) {
        const script = `${command} -${letter} -- {v}`;
        const r = await run(dir, plan(dir, "/bin/sh", ["-c", `${script} 2>/dev/null; true`]), { v: `-o${MARKER}` });
        // A command that writes into a file its arguments name (cp, mv, ln, sort -o) refuses the value outright.
        expect(String(r.error), script).toMatch(/starts with '-' and begins an argument where the command would read it as an option|writes into a file/);
      }
    }
    expect(existsSync(MARKER)).toBe(false);
  }, 120_000);

  it("sort -T -- {v} cannot write a file through an injected -o", async () => {
    const r = await run(dir, plan(dir, "/bin/sh", ["-c", "sort -T -- {v} /etc/hostname"]), { v: `-o${MARKER}` });
    expect(r.status).toBe("error");
    expect(existsSync(MARKER)).toBe(false);
    const ok = await run(dir, plan(dir, "/bin/sh", ["-c", "sort -r -- {v} 2>/dev/null; true"]), { v: `-o${MARKER}` });
    expect(ok.status).toBe("success");
    expect(existsSync(MARKER)).toBe(false);
  });
});

describe("redirection targets name a file outside /dev", () => {
  it("refuses /dev names in every form under every file redirection (matrix), and no connection is made", async () => {
    const server = createServer((s) => {
      writeFileSync(MARKER, "connected");
      s.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const values = [`/dev/tcp/127.0.0.1/${port}`, `//dev/tcp/127.0.0.1/${port}`, `/./dev/tcp/127.0.0.1/${port}`, `/tmp/../dev/tcp/127.0.0.1/${port}`, `/dev/udp/127.0.0.1/${port}`, "/dev/fd/1", "/dev"];
      for (const op of [">", ">>", ">|", "<", "<>"]) {
        for (const out of values) {
          const script = `echo SECRET ${op} {out}`;
          const r = await run(dir, plan(dir, bash ?? "/bin/sh", ["-c", script]), { out });
          expect(String(r.error), `${script} out=${out}`).toMatch(/is the file name of a redirection and must name a file outside \/dev/);
        }
      }
      const ok = await run(dir, plan(dir, bash ?? "/bin/sh", ["-c", "echo SECRET > {out}"]), { out: join(dir, "dev", "..", "out.txt") });
      expect(ok.status).toBe("success");
      expect(existsSync(join(dir, "out.txt"))).toBe(true);
    } finally {
      server.close();
    }
    expect(existsSync(MARKER)).toBe(false);
  }, 60_000);
});
