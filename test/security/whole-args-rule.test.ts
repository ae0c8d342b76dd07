// The whole-argument rule's verdicts, position by position, for each kind of program: the grammar
// table's data programs, git's subcommands, interpreters and their program positions, shells, command
// runners, unknown names and programs named by a value. Values are checked by wholeArgProblem.
import { describe, expect, it } from "vitest";
import { wholeArgProblem, wholeArgRule } from "../../src/runtime/exec/whole-args.js";
import { COMMAND_RUNNERS } from "../../src/runtime/exec/program-grammars.js";

type W = string | null;
const kind = (argv: W[], resolved?: string) => wholeArgRule(argv, argv.lastIndexOf(null), resolved).kind;
const problem = (argv: W[], value: string, resolved?: string) => wholeArgProblem("{x}", value, wholeArgRule(argv, argv.lastIndexOf(null), resolved));

describe("whole-argument verdicts", () => {
  it("data programs: options end at --, at a flag cluster's operand, or at printf's format", () => {
    expect(kind(["cat", null])).toBe("operand");
    expect(kind(["cat", "--", null])).toBe("any");
    expect(kind(["sort", "-T", "--", null])).toBe("operand");
    expect(kind(["sort", "-o", null])).toBe("operand");
    expect(kind(["sort", "--compress-program", null])).toBe("refused");
    expect(kind(["sort", "--key=1", null])).toBe("operand");
    expect(kind(["ls", "-la", null])).toBe("operand");
    expect(kind(["printf", "%s", null])).toBe("any");
    expect(kind(["echo", "--", null])).toBe("operand");
    expect(kind(["echo", "a", null])).toBe("any");
    expect(problem(["tail", null], "+5")).toMatch(/starts with "\+"/);
    expect(problem(["cat", null], "+5")).toBeNull();
    expect(problem(["echo", null], "-e")).toMatch(/echo ends its options at no word: use printf/);
    expect(problem(["cat", null], "-A")).toContain('args: [..., "--", "{x}"]');
  });

  it("git: only after a literal data subcommand; --end-of-options and -- end its options", () => {
    expect(kind(["git", "-C", "/r", "log", "-1", null])).toBe("operand");
    expect(kind(["git", "log", "-1", "--end-of-options", null])).toBe("any");
    expect(kind(["git", "log", "--", null])).toBe("any");
    expect(kind(["git", "log", "--oneline", "--", null])).toBe("operand");
    expect(kind(["git", "log", "--author", null])).toBe("refused");
    for (const sub of ["config", "bisect", "submodule", "difftool", "rebase", "x-alias"]) expect(kind(["git", sub, null]), sub).toBe("refused");
    expect(kind(["git", null])).toBe("refused");
    expect(kind(["git", "-c", null, "log"].slice(0, 3))).toBe("refused");
    expect(problem(["git", "log", null], "--output=M")).toContain('args: [..., "--end-of-options", "{x}"]');
  });

  it("interpreters: data once the program is fixed; Node, Perl and Ruby read options until --", () => {
    expect(kind(["python3", "-c", "p", null])).toBe("any");
    expect(kind(["python3", "s.py", null])).toBe("any");
    expect(kind(["python3", "-m", "mod", null])).toBe("inert");
    expect(kind(["python3", null])).toBe("refused");
    expect(kind(["python3", "-c", null])).toBe("any");
    expect(kind(["node", "-e", "p", null])).toBe("operand");
    expect(kind(["node", "-e", "p", "--", null])).toBe("any");
    expect(kind(["node", "s.js", null])).toBe("any");
    expect(kind(["node", "-e", "p", "-r", null])).toBe("refused");
    expect(kind(["perl", "-e", "p", null])).toBe("open");
    expect(kind(["ruby", "-e", "p", null])).toBe("open");
    expect(kind(["perl", "-ne", "p", null])).toBe("refused");
    expect(problem(["perl", "-e", "p", "--", null], "-x")).toBeNull();
    expect(problem(["perl", "-e", "p", null], "-x")).toMatch(/leading - as an option/);
    for (const v of ["touch M|", "<f", ">f", "+<f", "|cmd", " f", "f ", "&=0"]) expect(problem(["perl", "-e", "p", "--", null], v), v).toMatch(/two-argument open/);
    expect(problem(["perl", "-e", "p", "--", null], "a b|c.txt")).toBeNull();
  });

  it("shells: positional parameters after the script; the script's file and options are refused", () => {
    expect(kind(["bash", "-c", "s", "sh", null])).toBe("any");
    expect(kind(["bash", "s.sh", null])).toBe("any");
    expect(kind(["bash", null])).toBe("refused");
    expect(kind(["bash", "-o", null, "-c", "s"].slice(0, 3))).toBe("refused");
  });

  it("launchers are seen through; a value in the launch itself is refused", () => {
    expect(kind(["env", "timeout", "5", "cat", "--", null])).toBe("any");
    expect(kind(["nice", "-n", "5", "node", "-e", "p", null])).toBe("operand");
    expect(kind(["env", "-u", null, "cat"].slice(0, 3))).toBe("refused");
    expect(kind(["env", "--bogus", "cat", null])).toBe("refused");
  });

  it("command runners take no caller value; unknown programs and programs named by a value take inert values, none after their options", () => {
    for (const name of COMMAND_RUNNERS) expect(kind([name, "a", null]), name).toBe("refused");
    expect(kind(["zsh5", "-c", null])).toBe("refused");
    expect(kind(["zsh5", "--command", null])).toBe("refused");
    expect(kind(["mytool", "--opt=1", null])).toBe("inert");
    expect(kind(["mytool", "--", null])).toBe("inert");
    expect(kind(["mytool", null])).toBe("inert");
    expect(kind([null, "-c", null])).toBe("refused");
    expect(kind([null, "a", null])).toBe("inert");
    expect(kind([null, "-c", null], "/bin/bash")).toBe("refused");
    expect(kind([null, "s.js", null], "/usr/bin/node")).toBe("any");
    expect(kind([null, "-e", "p", null], "/usr/bin/node")).toBe("operand");
    expect(problem(["mytool", null], "a/b")).toMatch(/only inert values/);
    expect(problem(["mytool", null], "ab_1")).toBeNull();
  });
});
