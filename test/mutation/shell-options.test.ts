// A shell's invocation options (src/runtime/exec/shell-options.ts): the allowlist of options that
// change only error handling, tracing, job control or globbing (each is a real bash option: `bash -o
// NAME`, `bash -O NAME`, `bash --NAME` all run), how the `-c` script is found after them, and where
// a shell reads its program with the shells' whole option grammar. Expected places are what bash
// 5.2 (and, where named, dash, zsh, mksh, ksh93, yash, posh and busybox sh) ran with the same argv.
//
// Mutants left alive (not counted on):
// - parseShellOptions, `typeof name !== "string"` → false: equivalent; neither Set holds null or
//   undefined, so the same refusal is returned.
// - locateShellOperands, `c === "s" && a[0] === "-"` with `a[0] === "-"` → true: the mutant reads
//   `+s` as `-s`, which is what bash and busybox do (see "what the shells do that rye's reading does
//   not follow yet" below).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { locateShellOperands, parseShellOptions, shellFamily, type Word } from "../../src/runtime/exec/shell-options.js";
import { probeShell, which } from "./shell-probe.js";

const SET_O = ["errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob", "noclobber", "posix", "noexec", "errtrace", "functrace", "allexport", "physical", "hashall", "notify", "monitor"];
const SHOPT = ["nullglob", "failglob", "dotglob", "globstar", "nocaseglob", "nocasematch", "lastpipe", "inherit_errexit", "xpg_echo", "checkwinsize"];
const LONG = ["--norc", "--noprofile", "--posix", "--login", "--noediting", "--restricted"];

describe("the options on rye's list", () => {
  it("-o and +o with each set option", () => {
    for (const o of SET_O) {
      expect(parseShellOptions(["-o", o, "-c", "s"]), `-o ${o}`).toBe(3);
      expect(parseShellOptions(["+o", o, "-c", "s"]), `+o ${o}`).toBe(3);
    }
  });

  it("-O and +O with each shopt name", () => {
    for (const o of SHOPT) {
      expect(parseShellOptions(["-O", o, "-c", "s"]), `-O ${o}`).toBe(3);
      expect(parseShellOptions(["+O", o, "-c", "s"]), `+O ${o}`).toBe(3);
    }
  });

  it("each long option", () => {
    for (const o of LONG) expect(parseShellOptions([o, "-c", "s"]), o).toBe(2);
  });

  it("a set option is no shopt name, nor the other way round", () => {
    expect(parseShellOptions(["-O", "pipefail", "-c", "s"])).toBe("shell option -O pipefail is not on rye's list");
    expect(parseShellOptions(["-o", "globstar", "-c", "s"])).toBe("shell option -o globstar is not on rye's list");
  });
});

describe("where the script is", () => {
  it("a word that is not an option ends them: the shell runs a file", () => {
    for (const w of ["file-x.sh", "a+b", "script", "x-c"]) expect(parseShellOptions([w, "-c", "s"]), w).toBe(-1);
  });

  it("a placeholder is the script after -c, and unknown among the options", () => {
    expect(parseShellOptions(["-c", null])).toBe(1);
    expect(parseShellOptions(["-e", "-c", null, "x"])).toBe(2);
    expect(parseShellOptions([null])).toBe("a placeholder among the shell's options");
    expect(parseShellOptions(["-e", null, "-c", "s"])).toBe("a placeholder among the shell's options");
  });

  it("a missing or placeholder option name is named as empty", () => {
    expect(parseShellOptions(["-o"])).toBe("shell option -o  is not on rye's list");
    expect(parseShellOptions(["-O", null, "-c", "s"])).toBe("shell option -O  is not on rye's list");
    expect(parseShellOptions(["-co", "errexit", "s"])).toBe(2);
  });
});

// Where a shell reads its program (locateShellOperands), case by case. `bash` is what bash 5.2 ran
// with that argv (test/mutation/shell-probe.ts: every plain word is a command and a file, stdin is a
// script; "error" when it ran nothing); the live test below re-runs each one. rye's answer must agree
// with it: the `-c` script is the word bash ran as a command, `stdin` is whether bash ran its stdin.
// `wider` marks where rye refuses more than bash needs, with why.
type Where = { script: number; stdin: boolean } | null;
const OPERANDS: { args: Word[]; rye: Where; bash: string; wider?: string }[] = [
  { args: ["A"], rye: { script: -1, stdin: false }, bash: "FILE:A" },
  { args: ["a+b"], rye: { script: -1, stdin: false }, bash: "FILE:a+b" },
  { args: ["-e"], rye: { script: -1, stdin: true }, bash: "STDIN" },
  { args: ["-e", "A"], rye: { script: -1, stdin: false }, bash: "FILE:A" },
  { args: ["-o", "errexit"], rye: { script: -1, stdin: true }, bash: "STDIN" },
  { args: ["-O", "extglob"], rye: { script: -1, stdin: true }, bash: "STDIN" },
  { args: ["+o", "errexit", "A"], rye: { script: -1, stdin: false }, bash: "FILE:A" },
  { args: ["-c", "A"], rye: { script: 1, stdin: false }, bash: "CMD:A" },
  { args: ["-c", "A", "-s"], rye: { script: 1, stdin: false }, bash: "CMD:A" },
  { args: ["-c"], rye: { script: -1, stdin: false }, bash: "error" },
  { args: ["-e", "-c", "A", "B"], rye: { script: 2, stdin: false }, bash: "CMD:A" },
  { args: ["-c", "-e", "A"], rye: { script: 2, stdin: false }, bash: "CMD:A" },
  { args: ["-ec", "A"], rye: { script: 1, stdin: false }, bash: "CMD:A" },
  { args: ["-xc", "A"], rye: { script: 1, stdin: false }, bash: "CMD:A" },
  { args: ["-c", "--", "A"], rye: { script: 2, stdin: false }, bash: "CMD:A" },
  { args: ["-c", "-", "A"], rye: { script: 2, stdin: false }, bash: "CMD:A" },
  { args: ["--", "A"], rye: { script: -1, stdin: false }, bash: "FILE:A" },
  { args: ["-"], rye: { script: -1, stdin: true }, bash: "STDIN" },
  // Every shell runs A as a script file here; rye's documented rule reads a lone - as stdin.
  { args: ["-", "A"], rye: { script: -1, stdin: true }, bash: "FILE:A", wider: "a lone - is read as stdin even before a script file" },
  { args: ["-s", "A"], rye: { script: -1, stdin: true }, bash: "STDIN" },
  { args: ["-s", "--", "A"], rye: { script: -1, stdin: true }, bash: "STDIN" },
  { args: ["-eo", "errexit", "-s", "A"], rye: { script: -1, stdin: true }, bash: "STDIN" },
  { args: ["-o", "errexit", "-c", "A"], rye: { script: 3, stdin: false }, bash: "CMD:A" },
  { args: ["-O", "extglob", "-c", "A"], rye: { script: 3, stdin: false }, bash: "CMD:A" },
  { args: ["+O", "extglob", "-c", "A"], rye: { script: 3, stdin: false }, bash: "CMD:A" },
  { args: ["-co", "errexit", "A"], rye: { script: 2, stdin: false }, bash: "CMD:A" },
  { args: ["-oc", "errexit", "A"], rye: null, bash: "CMD:A", wider: "zsh, mksh, ksh93 and yash read -oc as the option c" },
  { args: ["--norc", "-c", "A"], rye: { script: 2, stdin: false }, bash: "CMD:A" },
  { args: ["--posix", "-s"], rye: { script: -1, stdin: true }, bash: "STDIN" },
  { args: ["--rcfile", "B", "-c", "A"], rye: { script: 3, stdin: false }, bash: "FILE:B CMD:A" },
  { args: ["--init-file", "B", "-c", "A"], rye: { script: 3, stdin: false }, bash: "FILE:B CMD:A" },
  { args: ["-i", "-c", "A"], rye: { script: 2, stdin: false }, bash: "CMD:A" },
  { args: ["-k", "-c", "A"], rye: { script: 2, stdin: false }, bash: "CMD:A" },
  // bash -D lists $"…" strings and runs nothing; zsh runs A.
  { args: ["-D", "-c", "A"], rye: { script: 2, stdin: false }, bash: "error" },
  { args: ["-s", "-c", "A"], rye: { script: 2, stdin: true }, bash: "CMD:A", wider: "dash runs its stdin after the -c script" },
  // Where the shells of the family disagree, or refuse the option, rye places nothing.
  { args: ["+c", "A"], rye: null, bash: "CMD:A", wider: "mksh, ksh93, yash and posh run A as a file" },
  { args: ["-Z", "-c", "A"], rye: null, bash: "error", wider: "zsh runs A" },
  { args: ["--foo", "-c", "A"], rye: null, bash: "error", wider: "busybox sh runs A" },
  // bash and dash read -oNAME as -o taking the next word, as rye does; zsh, mksh, ksh93, yash and
  // posh read it as one option and run A as the -c script. A stays a literal: a placeholder in its
  // place would be among the options as bash reads them, and the answer would be null.
  { args: ["-oerrexit", "-c", "A"], rye: null, bash: "error" },
];

/** Whether rye's answer is bash's observation (anything is, where bash ran nothing or rye places nothing). */
function agrees(args: readonly Word[], rye: Where, bash: string): boolean {
  const ran = bash.split(" ");
  if (rye === null || bash === "error") return true;
  if (ran.includes("STDIN") !== rye.stdin) return false;
  const commands = ran.filter((r) => r.startsWith("CMD:"));
  return rye.script < 0 ? commands.length === 0 : commands.length === 1 && commands[0] === `CMD:${args[rye.script]}`;
}

// The allowlisted reading (parseShellOptions): the index of the `-c` script where bash ran it as a
// command, -1 where bash ran a file or its stdin, or why not (an option off rye's list, or one the
// shells disagree on: `+c` is -c to bash, dash, zsh and busybox, and no option to mksh, ksh93, yash and posh).
const PARSED: { args: Word[]; rye: number | string; bash: string }[] = [
  { args: ["-e"], rye: -1, bash: "STDIN" },
  { args: ["-e", "A"], rye: -1, bash: "FILE:A" },
  { args: ["--", "A"], rye: -1, bash: "FILE:A" },
  { args: ["-c", "--", "A"], rye: 2, bash: "CMD:A" },
  { args: ["-c", "-", "A"], rye: 2, bash: "CMD:A" },
  { args: ["-c", "-e", "A"], rye: 2, bash: "CMD:A" },
  { args: ["-xec", "A"], rye: 1, bash: "CMD:A" },
  { args: ["--posix", "-c", "A"], rye: 2, bash: "CMD:A" },
  { args: ["-c"], rye: "-c without a script", bash: "error" },
  { args: ["-e", "-c"], rye: "-c without a script", bash: "error" },
  { args: ["+c", "A"], rye: "unknown shell option +c", bash: "CMD:A" },
  { args: ["-i", "-c", "A"], rye: "unknown shell option -i", bash: "CMD:A" },
  { args: ["-s", "A"], rye: "unknown shell option -s", bash: "STDIN" },
  { args: ["-ek", "-c", "A"], rye: "unknown shell option -k", bash: "CMD:A" },
  { args: ["--rcfile", "B", "-c", "A"], rye: "unknown shell option --rcfile", bash: "FILE:B CMD:A" },
  { args: ["--foo", "-c", "A"], rye: "unknown shell option --foo", bash: "error" },
];

describe("the allowlisted reading of a shell's options (parseShellOptions)", () => {
  it.each(PARSED.map((c) => [c.args.join(" "), c] as const))("%s", (_, c) => {
    expect(parseShellOptions(c.args)).toBe(c.rye);
    if (typeof c.rye === "number" && c.rye < 0) expect(c.bash).not.toMatch(/CMD:/);
    if (typeof c.rye === "number" && c.rye >= 0) expect(c.bash).toBe(`CMD:${c.args[c.rye]}`);
  });

  const bash = which("bash");
  it.skipIf(bash === null)("each case is what bash runs (skipped when bash is not installed)", () => {
    for (const c of PARSED) expect(probeShell([bash!], c.args as string[]), c.args.join(" ")).toBe(c.bash);
  });
});

describe("where the shell reads its program (locateShellOperands)", () => {
  it.each(OPERANDS.map((c) => [c.args.join(" "), c] as const))("%s", (_, c) => {
    expect(locateShellOperands(c.args)).toEqual(c.rye);
    if (c.wider === undefined) expect(agrees(c.args, c.rye, c.bash), `rye ${JSON.stringify(c.rye)}, bash ran ${c.bash}`).toBe(true);
  });

  it("a placeholder among the options leaves the script unknown; after -c it is the script", () => {
    expect(locateShellOperands([null])).toBeNull();
    expect(locateShellOperands(["-e", null, "-c", "A"])).toBeNull();
    expect(locateShellOperands(["-o", null, "-c", "A"])).toBeNull();
    expect(locateShellOperands(["--rcfile", "B", null, "-c", "A"])).toBeNull();
    expect(locateShellOperands(["-c", null])).toEqual({ script: 1, stdin: false });
    expect(locateShellOperands(["-c", "-e", null, "B"])).toEqual({ script: 2, stdin: false });
    // A hole in the array (an argv assembled by index) is no literal either.
    expect(locateShellOperands(Array<Word>(1))).toBeNull();
    expect(parseShellOptions(Array<Word>(1))).toBe("a placeholder among the shell's options");
  });

  it("-o and -O without a following word leave the script unknown", () => {
    expect(locateShellOperands(["-o"])).toBeNull();
    expect(locateShellOperands(["-eO"])).toBeNull();
  });

  const bash = which("bash");
  it.skipIf(bash === null)("each case is what bash runs (skipped when bash is not installed)", () => {
    for (const c of OPERANDS) expect(probeShell([bash!], c.args as string[]), c.args.join(" ")).toBe(c.bash);
  });
});

// Where shells beyond bash read their program from stdin, or run a file the caller names (a value on
// stdin, or in the word after --rcfile, is code there). Each observation is re-checked against the
// installed shell, and rye's reading must say so, or say it cannot tell (null: refused).
const GAPS: { shell: string[]; args: Word[]; ran: string; rye: Where }[] = [
  // dash runs the -c script, then the script on its stdin.
  { shell: ["dash"], args: ["-s", "-c", "A"], ran: "CMD:A STDIN", rye: { script: 2, stdin: true } },
  { shell: ["dash"], args: ["-cs", "A"], ran: "CMD:A STDIN", rye: { script: 1, stdin: true } },
  // bash and busybox read +s as -s.
  { shell: ["bash"], args: ["+s", "A"], ran: "STDIN", rye: { script: -1, stdin: true } },
  { shell: ["busybox", "sh"], args: ["+s", "A"], ran: "STDIN", rye: { script: -1, stdin: true } },
  // -oNAME as one option, then -s.
  { shell: ["zsh"], args: ["-oerrexit", "-s", "A"], ran: "STDIN", rye: null },
  { shell: ["mksh"], args: ["-oerrexit", "-s", "A"], ran: "STDIN", rye: null },
  { shell: ["ksh93"], args: ["-oerrexit", "-s", "A"], ran: "STDIN", rye: null },
  { shell: ["yash"], args: ["-oerrexit", "-s", "A"], ran: "STDIN", rye: null },
  // The word after --rcfile is a file the shell runs: bash sources it even with -c when its stdin is
  // a socket (as Node's pipes are), busybox sh runs it as its script file.
  { shell: ["bash"], args: ["--rcfile", "B", "-c", "A"], ran: "FILE:B CMD:A", rye: null },
  { shell: ["busybox", "sh"], args: ["--rcfile", "B", "-c", "A"], ran: "FILE:B", rye: null },
];

describe("what the shells do beyond the common grammar, and rye's reading of it", () => {
  for (const g of GAPS) {
    const path = which(g.shell[0]!);
    const label = `${g.shell.join(" ")} ${g.args.join(" ")}`;
    it.skipIf(path === null)(`${label}: the shell runs ${g.ran} (skipped when ${g.shell[0]} is not installed)`, () => {
      expect(probeShell([path!, ...g.shell.slice(1)], g.args as string[])).toBe(g.ran);
    });
    it(`${label}: rye reads it as the shell does`, () => {
      const args = g.rye === null ? g.args.map((w, k) => (k === 1 ? null : w)) : g.args;
      expect(locateShellOperands(args)).toEqual(g.rye);
    });
  }
});

describe("shell families (shellFamily)", () => {
  const NAMES: [string, string][] = [
    ["sh", "sh"], ["bash", "bash"], ["rbash", "bash"], ["dash", "dash"], ["ash", "ash"], ["ksh", "ksh"], ["ksh93", "ksh"],
    ["mksh", "mksh"], ["lksh", "mksh"], ["zsh", "zsh"], ["yash", "yash"], ["posh", "posh"],
  ];

  it("each shell's name, and only those", () => {
    for (const [name, family] of NAMES) expect(shellFamily(name, false), name).toBe(family);
    for (const name of ["busybox", "fish", "csh", "tcsh", "python3", "Bash", "bash5", "", "toString", "constructor", "__proto__", "hasOwnProperty"]) {
      expect(shellFamily(name, false), name).toBeNull();
    }
  });

  it("busybox's applets sh and ash are busybox's shell; its other applets are no shell", () => {
    expect(shellFamily("sh", true)).toBe("busybox");
    expect(shellFamily("ash", true)).toBe("busybox");
    for (const name of ["bash", "hush", "dash", "zsh", "env", "xargs", "toString"]) expect(shellFamily(name, true), name).toBeNull();
  });

  // What each installed shell says it is: bash, zsh, yash and posh name themselves in a variable,
  // ksh93 and the MirBSD shells in KSH_VERSION, and dash in none.
  const SELF = 'echo "${BASH_VERSION:+bash}${ZSH_VERSION:+zsh}${YASH_VERSION:+yash}${POSH_VERSION:+posh}${KSH_VERSION:+$KSH_VERSION}"';
  const IS: Record<string, (said: string) => boolean> = {
    bash: (s) => s === "bash",
    zsh: (s) => s === "zsh",
    yash: (s) => s === "yash",
    posh: (s) => s === "posh",
    ksh: (s) => /^Version .*93/.test(s),
    mksh: (s) => /(MIRBSD|LEGACY) KSH/.test(s),
    dash: (s) => s === "",
  };
  for (const [name, family] of NAMES) {
    const path = which(name);
    it.skipIf(path === null || !(family in IS))(`${name} is ${family} (skipped when not installed)`, () => {
      const said = spawnSync(path!, ["-c", SELF], { encoding: "utf8" }).stdout.trim();
      expect(IS[family]!(said), `${name} said ${JSON.stringify(said)}`).toBe(true);
    });
  }
});
