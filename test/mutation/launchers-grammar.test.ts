// The launcher walk (src/runtime/exec/launchers.ts) against each launcher's option grammar as its
// manual states it (GNU coreutils env, timeout, nice, nohup, stdbuf; util-linux setsid, ionice,
// chrt, taskset; GNU time and findutils xargs; sudo; OpenBSD doas; the shells' command and exec):
// every option spelled as the tool reads it is seen through to the shell after it, an option that
// takes a value consumes exactly one word, and the operands are checked for their shape.
import { describe, expect, it } from "vitest";
import { walkLaunchers, type Word } from "../../src/runtime/exec/launchers.js";

const walk = (...argv: Word[]) => walkLaunchers(argv);
/** Where `sh -c s` after `before` has its script, or why the walk is not proven. */
const script = (...before: Word[]) => {
  const l = walkLaunchers([...before, "sh", "-c", "s"]);
  return l.proven ? l.script : `unproven: ${l.reason}`;
};

/** Per launcher: options without a value, options with one (and a valid value), and the operands it needs before the command. */
const GRAMMARS: Record<string, { flags: string[]; withValue: [string, string][]; operands: string[] }> = {
  env: { flags: ["-i", "-0", "-v", "--ignore-environment", "--null", "--debug"], withValue: [["-u", "X"], ["-C", "/"], ["--unset", "X"], ["--chdir", "/"]], operands: [] },
  timeout: { flags: ["-v", "--preserve-status", "--foreground", "--verbose"], withValue: [["-s", "KILL"], ["-k", "5"], ["--signal", "TERM"], ["--kill-after", "1m"]], operands: ["5"] },
  nice: { flags: ["-5", "-19"], withValue: [["-n", "5"], ["--adjustment", "3"]], operands: [] },
  nohup: { flags: [], withValue: [], operands: [] },
  setsid: { flags: ["-c", "-f", "-w", "--ctty", "--fork", "--wait"], withValue: [], operands: [] },
  stdbuf: { flags: [], withValue: [["-i", "0"], ["-o", "L"], ["-e", "0"], ["--input", "0"], ["--output", "L"], ["--error", "0"]], operands: [] },
  ionice: { flags: ["-t", "--ignore"], withValue: [["-c", "3"], ["-n", "7"], ["--class", "idle"], ["--classdata", "7"]], operands: [] },
  chrt: {
    flags: ["-b", "-f", "-i", "-o", "-r", "-d", "-a", "-R", "-v", "--batch", "--fifo", "--idle", "--other", "--rr", "--deadline", "--reset-on-fork", "--verbose"],
    withValue: [["-T", "1000"], ["-P", "1000"], ["-D", "1000"]],
    operands: ["0"],
  },
  taskset: { flags: ["-a", "-c", "--all-tasks", "--cpu-list"], withValue: [], operands: ["3"] },
  time: { flags: ["-p", "-v", "-q", "-a", "--portability", "--verbose", "--quiet", "--append"], withValue: [["-f", "%e"], ["-o", "t.txt"], ["--format", "%e"], ["--output", "t.txt"]], operands: [] },
  command: { flags: ["-p"], withValue: [], operands: [] },
  exec: { flags: ["-c", "-l"], withValue: [["-a", "name"]], operands: [] },
  xargs: {
    flags: ["-0", "-r", "-t", "-x", "-p", "--null", "--no-run-if-empty", "--verbose", "--exit"],
    withValue: [["-n", "1"], ["-L", "1"], ["-P", "2"], ["-s", "100"], ["-d", ","], ["-a", "f"], ["-E", "END"], ["--max-args", "1"], ["--max-lines", "1"], ["--max-procs", "2"], ["--max-chars", "100"], ["--delimiter", ","], ["--arg-file", "f"]],
    operands: [],
  },
  sudo: {
    flags: ["-E", "-H", "-n", "-P", "-S", "-b", "-k", "--preserve-env", "--set-home", "--non-interactive"],
    withValue: [["-u", "bob"], ["-g", "staff"], ["-C", "3"], ["-D", "/"], ["-h", "host"], ["-p", "pw:"], ["-T", "10"], ["-r", "role"], ["--user", "bob"], ["--group", "staff"]],
    operands: [],
  },
  doas: { flags: ["-n"], withValue: [["-u", "bob"]], operands: [] },
};

describe("each launcher's options, as its manual gives them", () => {
  for (const [launcher, g] of Object.entries(GRAMMARS)) {
    it(launcher, () => {
      for (const flag of g.flags) expect(script(launcher, flag, ...g.operands), `${launcher} ${flag}`).toBe(g.operands.length + 4);
      for (const [option, value] of g.withValue) {
        expect(script(launcher, option, value, ...g.operands), `${launcher} ${option} ${value}`).toBe(g.operands.length + 5);
        if (option.startsWith("--")) expect(script(launcher, `${option}=${value}`, ...g.operands), `${launcher} ${option}=${value}`).toBe(g.operands.length + 4);
        else expect(script(launcher, `${option}${value}`, ...g.operands), `${launcher} ${option}${value}`).toBe(g.operands.length + 4);
        // The value is read even when it looks like an option or a shell.
        expect(script(launcher, option, "sh", ...g.operands), `${launcher} ${option} sh`).toBe(g.operands.length + 5);
        expect(walk(launcher, option).reason).toBe(`${launcher}: ${option} without a literal value`);
        expect(walk(launcher, option, null, "sh", "-c", "s").reason).toBe(`${launcher}: ${option} without a literal value`);
      }
    });
  }

  it("short options cluster, a valued one last", () => {
    expect(script("env", "-i0v")).toBe(4);
    expect(script("setsid", "-cfw")).toBe(4);
    expect(script("xargs", "-0rtn", "1")).toBe(5);
    expect(script("sudo", "-EHu", "bob")).toBe(5);
    expect(walk("sudo", "-Eu").reason).toBe("sudo: -u without a literal value");
  });

  it("an option of one launcher is unknown to another", () => {
    expect(script("nohup", "-i")).toBe("unproven: nohup: unknown option -i");
    expect(script("nohup", "--verbose")).toBe("unproven: nohup: unknown option --verbose");
    expect(script("setsid", "--signal=KILL")).toBe("unproven: setsid: unknown option --signal");
    expect(script("doas", "-s")).toBe("unproven: doas: unknown option -s");
    expect(script("exec", "-p")).toBe("unproven: exec: unknown option -p");
    expect(script("timeout", "-n", "5", "5")).toBe("unproven: timeout: unknown option -n");
    expect(script("env", "--split")).toBe("unproven: env: unknown option --split");
  });

  it("only nice takes a bare number as an option", () => {
    expect(script("nohup", "-5")).toBe("unproven: nohup: unknown option -5");
    expect(script("nice", "-5x")).toBe("unproven: nice: unknown option -5");
    expect(script("nice", "-x5")).toBe("unproven: nice: unknown option -x");
    expect(script("nice", "-n-5")).toBe(4);
    expect(script("nice", "-x-5")).toBe("unproven: nice: unknown option -x");
  });

  it("a lone - is no option: it is the command", () => {
    expect(walk("nohup", "-", "sh", "-c", "s")).toEqual({ program: 1, name: "-", family: null, firstArg: 2, script: -1, proven: true });
    expect(walk("nice", "--", "-", "x")).toEqual({ program: 2, name: "-", family: null, firstArg: 3, script: -1, proven: true });
  });
});

describe("operands", () => {
  it("timeout's duration: digits, an optional fraction and one unit", () => {
    for (const d of ["5", "10s", "1.5m", "2h", "1d", "0.25", "1.25s", "120"]) expect(script("timeout", d), d).toBe(4);
    for (const d of ["x5", "5x", "5ss", "1.5.5", ".5", "s", "5 s", "1.m", ""]) expect(script("timeout", d), d).toBe(`unproven: timeout: expected a literal ${/^\d+(?:\.\d+)?[smhd]?$/} operand`);
  });

  it("chrt's priority: a whole number", () => {
    for (const p of ["0", "10", "99"]) expect(script("chrt", "-f", p), p).toBe(5);
    for (const p of ["x1", "1x", "1.5", "1-1", "a"]) expect(script("chrt", "-f", p), p).toMatch(/^unproven: chrt: expected a literal/);
  });

  it("taskset's mask: hexadecimal (with or without 0x), or a CPU list", () => {
    for (const m of ["3", "ff", "0xff", "0xFF", "1,3-5", "0-3", "10", "deadbeef"]) expect(script("taskset", m), m).toBe(4);
    for (const m of ["g3", "0x3g", "xff", "0x", "1,3-5x", "x0-3", "0-3,g", "1;3"]) expect(script("taskset", m), m).toMatch(/^unproven: taskset: expected a literal/);
  });

  it("an operand that is missing, a placeholder, or after -- is still checked", () => {
    expect(walk("timeout").reason).toBe(`timeout: expected a literal ${/^\d+(?:\.\d+)?[smhd]?$/} operand`);
    expect(walk("timeout", "--", null, "sh", "-c", "s").reason).toMatch(/^timeout: expected a literal/);
    expect(walk("chrt", "--", "null", "sh").reason).toMatch(/^chrt: expected a literal/);
    expect(walk("taskset", "--", "undefined", "sh").reason).toMatch(/^taskset: expected a literal/);
    expect(script("timeout", "--", "5")).toBe(5);
    // A missing option value ends the walk with its own reason, before the operands are looked at.
    expect(walk("timeout", "-s").reason).toBe("timeout: -s without a literal value");
    expect(walk("timeout", "--signal").reason).toBe("timeout: --signal without a literal value");
    expect(walk("chrt", "-x").reason).toBe("chrt: unknown option -x");
  });
});

describe("env's assignments", () => {
  it("NAME=value words of the shell's name grammar are skipped, for env only", () => {
    expect(script("env", "A=1", "AB_1=x y", "_b=", "a9=")).toBe(7);
    expect(walk("nohup", "A=1", "sh", "-c", "s")).toEqual({ program: 1, name: "A=1", family: null, firstArg: 2, script: -1, proven: true });
    expect(walk("timeout", "5", "A=1", "sh", "-c", "s")).toMatchObject({ program: 2, family: null, script: -1, proven: true });
  });

  it("a word that is not NAME=value of that grammar ends them, and the walk does not reach the shell", () => {
    for (const w of ["1A=1", "-A=1", "A-B=1", "=1", "A"]) {
      const l = walk("env", w, "sh", "-c", "s");
      expect(l.script, w).toBe(-1);
      expect(l.family, w).toBeNull();
    }
    expect(walk("env", "A=1", null, "-c", "s").reason).toBe("the program is not a literal word");
  });
});

describe("env -S", () => {
  it("splits on spaces, tabs and newlines, however many, and reads the words again", () => {
    expect(walk("env", "-S", "  bash\t\t-e \n -c ", "s")).toMatchObject({ name: "bash", script: 3, proven: true, firstArg: 3 });
    expect(walk("env", "-S", " ", "sh", "-c", "s")).toMatchObject({ name: "sh", program: 3, script: 5, proven: true });
    expect(walk("env", "-S", "", "sh", "-c", "s")).toMatchObject({ name: "sh", program: 3, script: 5, proven: true });
    expect(walk("env", "-S", "-i A=1 timeout 5", "sh", "-c", "s")).toMatchObject({ name: "sh", program: 3, script: 5, proven: true });
    expect(walk("env", "--split-string", "-u X", "sh", "-c", "s")).toMatchObject({ program: 3, script: 5, proven: true });
  });

  it("refuses quotes, escapes, variables and comments in the string", () => {
    for (const s of ["bash\\ -c", "bash -c '1'", 'bash -c "1"', "bash -c $x", "bash -c #"]) {
      expect(walk("env", "-S", s, "s"), s).toEqual({ program: -1, name: "env", family: null, firstArg: 4, script: -1, proven: false, reason: "env -S with quotes, escapes or variables is not proven" });
    }
    expect(walk("env", "--split-string=bash -c '1'", "s").reason).toBe("env -S with quotes, escapes or variables is not proven");
  });

  it("a program or script inside the string has no argv element: not proven, with the reason", () => {
    expect(walk("env", "-S", "cat -n", "file")).toEqual({ program: -1, name: "cat", family: null, firstArg: 3, script: -1, proven: false, reason: "the program is inside env -S" });
    expect(walk("env", "-S", "bash -c s")).toEqual({ program: -1, name: "bash", family: "bash", firstArg: 3, script: -1, proven: false, reason: "the script is inside env -S" });
    expect(walk("env", "-S", "bash -c", "s")).toEqual({ program: -1, name: "bash", family: "bash", firstArg: 3, script: 3, proven: true });
    expect(walk("env", "-S", "bash", "f.sh")).toEqual({ program: -1, name: "bash", family: "bash", firstArg: 3, script: -1, proven: true });
  });

  it("only env splits: another launcher's valued option consumes one word", () => {
    expect(script("sudo", "-S")).toBe(4);
    expect(walk("nice", "-n", "5 sh", "x")).toMatchObject({ program: 3, name: "x", proven: true });
    expect(walk("stdbuf", "--output=L sh", "x")).toMatchObject({ program: 2, name: "x", proven: true });
  });
});

describe("the walk's results", () => {
  it("not proven: no program, the argv length as first argument, and a reason", () => {
    expect(walk(null, "-c")).toEqual({ program: -1, name: "", family: null, firstArg: 2, script: -1, proven: false, reason: "the program is not a literal word" });
    expect(walk("/usr/bin/env", "-x", "sh")).toEqual({ program: -1, name: "env", family: null, firstArg: 3, script: -1, proven: false, reason: "env: unknown option -x" });
    expect(walk("nohup", null)).toEqual({ program: -1, name: "nohup", family: null, firstArg: 2, script: -1, proven: false, reason: "nohup: a placeholder where an option or the command stands" });
    expect(walk("busybox", null)).toEqual({ program: -1, name: "busybox", family: null, firstArg: 2, script: -1, proven: false, reason: "busybox without a literal applet" });
    expect(walk()).toEqual({ program: -1, name: "", family: null, firstArg: 0, script: -1, proven: false, reason: "no program" });
  });

  it("a shell with options rye does not know: program and family, no script", () => {
    expect(walk("nohup", "bash", "-i", "-c", "s")).toEqual({ program: 1, name: "bash", family: "bash", firstArg: 2, script: -1, proven: false, reason: "unknown shell option -i" });
  });

  it("the walk follows up to 32 programs", () => {
    const chain = (n: number) => walkLaunchers([...Array<string>(n).fill("nohup"), "sh", "-c", "s"]);
    expect(chain(31)).toMatchObject({ program: 31, script: 33, proven: true });
    expect(chain(32)).toEqual({ program: -1, name: "", family: null, firstArg: 35, script: -1, proven: false, reason: "no program" });
  });
});
