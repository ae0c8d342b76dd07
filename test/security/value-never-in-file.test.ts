import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ChainElement } from "../../src/tools/build-chain.js";
import { checkSplicedValues } from "../../src/tools/check-shell-script.js";
import { installedShells, plan, run, which } from "./interpreters-helpers.js";

// Class 1, "a value never reaches a file": a script that carries a caller's value (a placeholder in
// it, "$1" after it, or input_data on its stdin) may send what carries the value only to stdout,
// stderr, a pipe, a duplicated descriptor or /dev/null. What later reads a file is not proven: a
// name looked up in PATH after the write, xargs in front of a launcher, an interpreter under a name
// rye does not list (perl5.36-x86_64-linux-gnu, zsh5, mksh-static, tclsh8.6). An enumerated matrix of
// channels × writer forms × runner forms × every installed shell: each row is refused at run time
// before anything starts and by the build (RYE4012 at the placeholder), and the marker never exists.
// A liveness pass runs writer × runner directly in bash with the same payload and sees the marker,
// so every refused row is a working attack.

const dir = mkdtempSync(join(tmpdir(), "rye-never-in-file-"));
const work = join(dir, "work");
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`value-never-in-file: shells not installed, skipped: ${missing.join(", ")}`);

type Lang = "sh" | "pl" | "tcl";
const PAYLOAD: Record<Lang, string> = {
  sh: `touch ${MARKER}`,
  pl: `open(my $f, ">", ${JSON.stringify(MARKER)}); close($f);`,
  tcl: `close [open ${MARKER} w]`,
};

// The file is F = bin/greet, and bin is first on PATH: the runner may run it by name.
const F = "bin/greet";
/** Runners of F: none is a shell or interpreter rye lists, and none names F by a path to run it. */
const RUNNERS: [string, Lang, string | null][] = [
  ["chmod +x bin/greet && greet", "sh", null],
  ["xargs nice -n 10 < bin/greet", "sh", null],
  ["xargs -a bin/greet env", "sh", null],
  ["cat bin/greet | xargs timeout 5", "sh", null],
  ["perl5.36-x86_64-linux-gnu bin/greet", "pl", "perl5.36-x86_64-linux-gnu"],
  ["zsh5 bin/greet", "sh", "zsh5"],
  ["mksh-static bin/greet", "sh", "mksh-static"],
  ["tclsh8.6 bin/greet", "tcl", "tclsh8.6"],
];

/** Writers of F from SRC (a placeholder or "$1"): redirections, writing data commands, compound and exec redirections. */
const WRITERS = [
  "printf '%s\\n' SRC > F",
  "echo SRC >> F",
  "printf '%s\\n' SRC >| F",
  "printf '%s\\n' SRC 1<>F",
  "printf '%s\\n' SRC 2>F >&2",
  "printf '%s\\n' SRC | tee F >/dev/null",
  "printf '%s\\n' SRC | tee -a F",
  "printf '%s\\n' SRC | sort -o F",
  "printf '%s\\n' SRC | sort --output=F",
  "printf '%s\\n' SRC | uniq - F",
  "printf '%s\\n' SRC | cat > F",
  "{ printf '%s\\n' SRC; } > F",
  "(printf '%s\\n' SRC) > F",
  "exec 3>&1 > F; printf '%s\\n' SRC; exec 1>&3",
  "for w in a; do printf '%s\\n' SRC; done > F",
  "if true; then printf '%s\\n' SRC; fi > F",
];
/** Writers of F from the script's stdin. */
const STDIN_WRITERS = [
  "cat > F",
  "cat | tee F >/dev/null",
  "sort -o F",
  "head -c 100000 > F",
  "cp /dev/stdin F",
  "{ cat; } > F",
  "while read -r l; do printf '%s\\n' \"$l\"; done > F",
];

const runners = RUNNERS.filter(([, , needs]) => needs === null || which(needs) !== null);
const absent = RUNNERS.filter(([, , needs]) => needs !== null && which(needs) === null).map(([, , n]) => n);
if (absent.length > 0) console.log(`value-never-in-file: runners not installed, skipped: ${absent.join(", ")}`);

const reset = () => {
  rmSync(MARKER, { force: true });
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, "bin"), { recursive: true });
};
const PATHS = { PATH: `${join(work, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}` };
const buildRefused = (config: Record<string, unknown>) => checkSplicedValues([{ metadata: { config } } as unknown as ChainElement], config).refused.map((r) => r.raw);
const fill = (writer: string, src: string) => writer.replaceAll("SRC", src).replaceAll("F", F);

type Row = [script: string, after: string[], extra: Record<string, unknown>];

/** Every channel's rows for one runner: the writers under the first shell, four of each under the others. */
function rows(runner: string, first: boolean): Row[] {
  const writers = first ? WRITERS : [WRITERS[0]!, WRITERS[5]!, WRITERS[11]!, WRITERS[13]!];
  const stdinWriters = first ? STDIN_WRITERS : [STDIN_WRITERS[0]!, STDIN_WRITERS[2]!, STDIN_WRITERS[5]!, STDIN_WRITERS[6]!];
  return [
    // `{ … {v}; }`: the template's `{ … {v}` is one unknown name to the placeholder pass, so {v} is never filled there.
    ...writers.filter((w) => !w.startsWith("{")).map((w): Row => [`${fill(w, "{v}")}; ${runner}`, [], {}]),
    ...writers.map((w): Row => [`${fill(w, '"$1"')}; ${runner}`, ["sh", "{v}"], {}]),
    ...stdinWriters.map((w): Row => [`${fill(w, "")}; ${runner}`, [], { input_data: "{v}" }]),
  ];
}

describe("a value never reaches a file", () => {
  it("each writer × runner is a working attack when run directly in bash (liveness)", () => {
    const bash = which("bash");
    if (bash === null) return console.log("value-never-in-file: bash not installed, liveness skipped");
    for (const [runner, lang] of runners) {
      for (const writer of WRITERS) {
        reset();
        const script = `${fill(writer, '"$1"')}; ${runner}`;
        spawnSync(bash, ["-c", script, "sh", PAYLOAD[lang]], { cwd: work, timeout: 10_000, env: { ...process.env, ...PATHS } });
        expect(existsSync(MARKER), `live: ${script}`).toBe(true);
      }
      for (const writer of STDIN_WRITERS) {
        reset();
        const script = `${fill(writer, "")}; ${runner}`;
        // From a file, not a pipe: Node's pipes are sockets, which `cp /dev/stdin` cannot open.
        writeFileSync(join(dir, "stdin"), `${PAYLOAD[lang]}\n`);
        spawnSync(bash, ["-c", 'bash -c "$1" < "$2"', "sh", script, join(dir, "stdin")], { cwd: work, timeout: 10_000, env: { ...process.env, ...PATHS } });
        expect(existsSync(MARKER), `live stdin: ${script}`).toBe(true);
      }
    }
  }, 300_000);

  it("refused at run and at build, marker absent (matrix: channels × writers × runners × shells)", async () => {
    let count = 0;
    for (const [k, shell] of shells.entries()) {
      for (const [runner, lang] of runners) {
        for (const [script, after, extra] of rows(runner, k === 0)) {
          reset();
          const argv = [...shell.argv.slice(1), "-c", script, ...after];
          const config = { cwd: work, ...extra };
          const r = await run(dir, plan(dir, shell.argv[0]!, argv, config), { v: PAYLOAD[lang] }, PATHS);
          const where = `${shell.name} -c ${JSON.stringify(script)} ${after.join(" ")} ${JSON.stringify(extra)}`;
          expect(r.status, where).toBe("error");
          expect(String(r.error), where).toMatch(/into a file/);
          expect(String(r.error), where).toContain("{v}");
          expect(existsSync(MARKER), where).toBe(false);
          expect(buildRefused({ command: shell.argv[0]!, args: argv, ...config }), where).toContain("{v}");
          count++;
        }
      }
    }
    const first = WRITERS.filter((w) => !w.startsWith("{")).length + WRITERS.length + STDIN_WRITERS.length;
    expect(count).toBe(runners.length * (first + (shells.length - 1) * 11));
  }, 600_000);
});

describe("a file a value names is stdin whose text no check bounds", () => {
  const python = which("python3");
  const NAMED = [
    "xargs nice -n 10 < {in}",
    "xargs env < {in}",
    "cat {in} | xargs nice",
    "cat -- {in} | xargs timeout 5",
    "sh < {in}",
    "bash -s < {in}",
    "cat < {in} > bin/greet; chmod +x bin/greet && greet",
    "sort < {in} | tee bin/greet >/dev/null; chmod +x bin/greet && greet",
  ];

  it("refused at run and at build, marker absent (matrix: forms × inert and path values × shells)", async () => {
    for (const shell of shells) {
      for (const script of NAMED) {
        for (const value of ["job", join(work, "job")]) {
          reset();
          writeFileSync(join(work, "job"), `touch ${MARKER}\n`);
          const argv = [...shell.argv.slice(1), "-c", script];
          const r = await run(dir, plan(dir, shell.argv[0]!, argv, { cwd: work }), { in: value }, PATHS);
          const where = `${shell.name} -c ${JSON.stringify(script)} in=${value}`;
          expect(r.status, where).toBe("error");
          expect(String(r.error), where).toContain("{in}");
          expect(existsSync(MARKER), where).toBe(false);
          expect(buildRefused({ command: shell.argv[0]!, args: argv, cwd: work }), where).toContain("{in}");
        }
      }
    }
  }, 300_000);

  it("a data reader still takes the named file, and a value written nowhere stays data", async () => {
    reset();
    writeFileSync(join(work, "job"), `touch ${MARKER}\n`);
    const r = await run(dir, plan(dir, "/bin/sh", ["-c", "cat < {in} | sort; printf '%s\\n' {v} | tee /dev/null 2>/dev/null >&2; echo hi > out.txt"], { cwd: work }), { in: "job", v: "$(x)" });
    expect(r.data?.stdout, JSON.stringify(r)).toBe(`touch ${MARKER}\n`);
    expect(existsSync(MARKER)).toBe(false);
  });

  it("a literal write target that is a link onto the tool's own file is never written with a value (bundle-run checkout link)", async () => {
    if (python === null) return console.log("value-never-in-file: python3 not installed, link row skipped");
    reset();
    const tool = join(dir, "proc.py");
    const original = "import sys\nprint(len(open(sys.argv[1]).read()))\n";
    writeFileSync(tool, original);
    symlinkSync(tool, join(work, "input.txt"));
    const p = plan(dir, "/bin/bash", ["-c", "printf '%s' {text} > input.txt; python3 {tool_path} input.txt"], { cwd: work });
    const r = await run(dir, { ...p, context: { ...p.context, tool_path: tool } }, { text: `open(${JSON.stringify(MARKER)}, "w").close()` });
    expect(String(r.error)).toMatch(/^placeholder '\{text\}' is a value the shell script writes into a file: `printf %s … > input\.txt`/);
    expect(readFileSync(tool, "utf8")).toBe(original);
    expect(existsSync(MARKER)).toBe(false);
  });
});
