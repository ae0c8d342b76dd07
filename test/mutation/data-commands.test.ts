// The command lists of the shell classifier (src/runtime/exec/data-commands.ts), through the roles
// they give: a data command's arguments take any value, a command that reads code, a name or
// arithmetic is refused, a command that redefines command names stops the script, and printf's
// format is data only with string conversions.
import { describe, expect, it } from "vitest";
import { endsOptions, stringFormat } from "../../src/runtime/exec/data-commands.js";
import { classifyScript } from "../../src/runtime/exec/shell-context.js";

/** The role of the one `{x}` in `script`. */
const role = (script: string) => {
  const start = script.indexOf("{x}");
  const [r] = classifyScript(script, [{ start, end: start + 3 }]);
  return `${r!.role}${r!.noDash ? "!" : ""}: ${r!.reason ?? ""}`;
};

// Programs that only read, write, list or name files and text: none evaluates an argument.
const DATA = ["echo", "printf", "cat", "ls", "mkdir", "touch", "rm", "rmdir", "cp", "mv", "ln", "head", "tail", "wc", "sort", "uniq", "cut", "basename", "dirname", "realpath", "readlink", "tee", "stat", "du", "true", "false"];

// Builtins that run an argument as a command or code, or read it as a variable name or as
// arithmetic, in bash, ksh, mksh or zsh (`exec` and `command` are launchers: the walk follows them).
const CODE = [
  "eval", "builtin", "source", ".", "trap", "export", "declare", "typeset", "local", "readonly", "let", "read", "unset", "set", "shift", "getopts",
  "mapfile", "readarray", "fc", "integer", "float", "nameref", "print", "whence", "type", "functions", "vared", "noglob", "wait", "kill", "ulimit", "umask", "exit", "return",
  "break", "continue",
];

// Builtins whose mere use changes what later command names mean.
const REDEFINING = ["alias", "unalias", "enable", "hash", "emulate", "zmodload", "autoload", "setopt", "shopt", "disable"];

describe("data commands", () => {
  it("take any value after --, and a value that may start a word is kept from being an option", () => {
    for (const c of DATA.filter((c) => !["echo", "printf", "cp", "mv", "ln", "tee"].includes(c))) {
      expect(role(`${c} -- {x}`), c).toBe("full: ");
      expect(role(`${c} {x}`), c).toBe("full!: ");
    }
  });

  it("those that write into a file their arguments name refuse a value anywhere in them", () => {
    for (const c of ["cp", "mv", "ln", "tee"]) {
      expect(role(`${c} -- {x}`), c).toMatch(/^refuse: `\w+ -- …` writes (its input )?into a file/);
      expect(role(`${c} {x}`), c).toMatch(/^refuse: /);
    }
  });

  it("echo reads no --: a leading dash is refused even after it", () => {
    expect(role("echo -- {x}")).toBe("full!: ");
    expect(role("cat -- {x}")).toBe("full: ");
  });

  it("other programs take inert values", () => {
    for (const c of ["grep", "find", "awk", "sed", "ssh", "git"]) expect(role(`${c} {x}`), c).toBe(`inert: as an argument of ${c}, which is not one of rye's data commands`);
    // An interpreter's operand after its program; a value naming its program file is refused (unseen-programs.ts).
    for (const c of ["python3 -c 'p'", "node -e 'p'"]) expect(role(`${c} {x}`), c).toBe(`inert: as an argument of ${c.split(" ")[0]}, which is not one of rye's data commands`);
  });
});

describe("commands that read code, names or arithmetic", () => {
  it("refuse their arguments", () => {
    for (const c of CODE) expect(role(`${c} {x}`), c).toBe(`refuse: as an argument of ${c}, which reads it as code, a name or arithmetic`);
  });

  it("commands that redefine names stop the whole script", () => {
    for (const c of REDEFINING) expect(role(`${c} a; echo {x}`), c).toBe(`refuse: in a script with ${c}, which changes what command names mean, which rye does not read`);
    // `function` in command position is a reserved word; run by a launcher, it is a command that redefines.
    expect(role("nohup function a; echo {x}")).toBe("refuse: in a script with function, which changes what command names mean, which rye does not read");
  });

  it("reserved words that are commands of their own in some shell stop the script or refuse", () => {
    for (const w of ["case", "select", "function", "coproc"]) expect(role(`${w} {x}`), w).toMatch(/^refuse: in a script with a \w+ statement, which rye does not read$/);
    // Run by a launcher, they are programs of those names, whose arguments are code.
    for (const w of ["case", "select", "coproc", "'[['", "'(('"]) expect(role(`nohup ${w} {x}`), w).toBe(`refuse: as an argument of ${w.replace(/'/g, "")}, which reads it as code, a name or arithmetic`);
  });
});

describe("printf formats", () => {
  it("string conversions with flags, width and precision, and %%, are data", () => {
    for (const f of ["", "plain", "%s", "%b", "%c", "%%", "%-5s", "%+5s", "% s", "%#s", "%05s", "%5.2s", "%.3s", "%.s", "%s\\n%b|%c", "a%%b", "%-+ #0s"]) expect(stringFormat(f), f).toBe(true);
  });

  it("numeric conversions, a * width and an unfinished conversion are not", () => {
    for (const f of ["%d", "%i", "%x", "%f", "%e", "%g", "%u", "%o", "%*s", "%.*s", "%", "a%", "%5", "%s%d", "%d%s", "%q", "%(%s)T", "%ls", "%5.2.1s", "%5ss%"]) expect(stringFormat(f), f).toBe(false);
  });

  it("decides whether printf's arguments are data", () => {
    expect(role("printf '%5s' {x}")).toBe("full: ");
    expect(role("printf '%5d' {x}")).toBe("inert: as an argument of printf, which is not one of rye's data commands");
  });
});

describe("where -- ends a data command's options", () => {
  // GNU coreutils 9 (`--help`): these short options take an argument, so a `--` right after them is
  // that argument. (rye's table also counts cp/mv/ln -T and sort -y, which take none: the safe side.)
  const WITH_ARG: Record<string, string> = { sort: "kotTS", cut: "bcdf", head: "nc", tail: "ncs", cp: "St", mv: "St", ln: "St", ls: "IwT", du: "BdtX", stat: "c", touch: "drt", mkdir: "m", uniq: "fsw", basename: "s" };

  it("after an option that takes an argument, -- is that argument", () => {
    for (const [command, letters] of Object.entries(WITH_ARG)) {
      for (const c of letters) {
        expect(endsOptions(command, `-${c}`), `${command} -${c}`).toBe(false);
        expect(endsOptions(command, `-${c}x`), `${command} -${c}x`).toBe(true);
      }
    }
    expect(endsOptions("sort", "-rT")).toBe(false);
    expect(endsOptions("sort", "-rTx")).toBe(true);
    expect(endsOptions("head", "-n5")).toBe(true);
  });

  it("commands whose options take no argument: -- always ends them", () => {
    for (const command of ["tee", "wc", "rm", "rmdir", "cat", "realpath", "readlink", "dirname", "true", "false"]) {
      for (const flag of ["-a", "-e", "-h", "-k", "-r", "-s", "-t", "-w", "-y", "-S"]) expect(endsOptions(command, flag), `${command} ${flag}`).toBe(true);
    }
  });

  it("no option before it, a lone -, a long option with its value attached: -- ends them", () => {
    expect(endsOptions("sort", null)).toBe(true);
    expect(endsOptions("sort", "file")).toBe(true);
    expect(endsOptions("sort", "-")).toBe(true);
    expect(endsOptions("nosuch", "-")).toBe(true);
    expect(endsOptions("sort", "kT")).toBe(true);
    expect(endsOptions("sort", "--key=1")).toBe(true);
    expect(endsOptions("sort", "-r")).toBe(true);
  });

  it("a long option without = or a command without a table entry may take it: -- ends nothing", () => {
    expect(endsOptions("sort", "--key")).toBe(false);
    expect(endsOptions("cat", "--number")).toBe(false);
    expect(endsOptions("nosuch", "-x")).toBe(false);
    expect(endsOptions("constructor", "-x")).toBe(false);
  });
});
