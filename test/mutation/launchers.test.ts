// The launcher walk (src/runtime/exec/launchers.ts) and shell options (src/runtime/exec/shell-options.ts):
// which program an argv runs and where its -c script is; an unknown option means "not proven".
import { describe, expect, it } from "vitest";
import { LAUNCHERS, walkLaunchers, type Word } from "../../src/runtime/exec/launchers.js";
import { parseShellOptions, shellFamily } from "../../src/runtime/exec/shell-options.js";

const walk = (...argv: Word[]) => walkLaunchers(argv);
const script = (...argv: Word[]) => {
  const l = walkLaunchers(argv);
  return l.proven ? l.script : `unproven: ${l.reason}`;
};

describe("shell families", () => {
  it("knows each POSIX-family shell by its name, and busybox's applets only as applets", () => {
    expect(["sh", "bash", "rbash", "dash", "ash", "ksh", "ksh93", "mksh", "lksh", "zsh", "yash", "posh"].map((n) => shellFamily(n, false))).toEqual([
      "sh", "bash", "bash", "dash", "ash", "ksh", "ksh", "mksh", "mksh", "zsh", "yash", "posh",
    ]);
    for (const n of ["fish", "csh", "tcsh", "python3", "constructor", "__proto__", "busybox", "hush"]) expect(shellFamily(n, false), n).toBeNull();
    expect(shellFamily("sh", true)).toBe("busybox");
    expect(shellFamily("ash", true)).toBe("busybox");
    expect(shellFamily("bash", true)).toBeNull();
  });
});

describe("shell options", () => {
  it("finds the script after -c and any options that follow it", () => {
    expect(parseShellOptions(["-c", "s"])).toBe(1);
    expect(parseShellOptions(["-ec", "s"])).toBe(1);
    expect(parseShellOptions(["-lc", "s", "n"])).toBe(1);
    expect(parseShellOptions(["-c", "-e", "s"])).toBe(2);
    expect(parseShellOptions(["-e", "-c", "s"])).toBe(2);
    expect(parseShellOptions(["+e", "-c", "s"])).toBe(2);
    expect(parseShellOptions(["-o", "errexit", "-c", "s"])).toBe(3);
    expect(parseShellOptions(["+o", "pipefail", "-c", "s"])).toBe(3);
    expect(parseShellOptions(["-eo", "pipefail", "-c", "s"])).toBe(3);
    expect(parseShellOptions(["-O", "nullglob", "+O", "dotglob", "-c", "s"])).toBe(5);
    expect(parseShellOptions(["--norc", "--noprofile", "--posix", "-c", "s"])).toBe(4);
    expect(parseShellOptions(["-c", "--", "s"])).toBe(2);
    expect(parseShellOptions(["-c", "-", "s"])).toBe(2);
    expect(parseShellOptions(["-c", null])).toBe(1);
  });

  it("says -1 when no -c is given, and why options are not proven", () => {
    expect(parseShellOptions(["script.sh", "-c"])).toBe(-1);
    expect(parseShellOptions([])).toBe(-1);
    expect(parseShellOptions(["+c", "s"])).toBe("unknown shell option +c");
    expect(parseShellOptions(["-c"])).toBe("-c without a script");
    expect(parseShellOptions(["-ic", "s"])).toBe("unknown shell option -i");
    expect(parseShellOptions(["-k", "-c", "s"])).toBe("unknown shell option -k");
    expect(parseShellOptions(["-s", "-c", "s"])).toBe("unknown shell option -s");
    expect(parseShellOptions(["--rcfile", "f", "-c", "s"])).toBe("unknown shell option --rcfile");
    expect(parseShellOptions(["-o", "keyword", "-c", "s"])).toBe("shell option -o keyword is not on rye's list");
    expect(parseShellOptions(["-O", "expand_aliases", "-c", "s"])).toBe("shell option -O expand_aliases is not on rye's list");
    expect(parseShellOptions(["-O", "errexit", "-c", "s"])).toMatch(/not on rye's list/);
    expect(parseShellOptions(["-o", "nullglob", "-c", "s"])).toMatch(/not on rye's list/);
    expect(parseShellOptions(["-o"])).toMatch(/not on rye's list/);
    expect(parseShellOptions([null, "-c", "s"])).toBe("a placeholder among the shell's options");
  });
});

describe("the launcher walk", () => {
  it("a shell reached directly, by path, and through every launcher's options", () => {
    expect(walk("/bin/bash", "-c", "s")).toEqual({ program: 0, name: "bash", family: "bash", firstArg: 1, script: 2, proven: true });
    expect(script("env", "-i", "-u", "X", "-C", "/", "A=1", "B=2", "sh", "-c", "s")).toBe(10);
    expect(script("env", "--ignore-environment", "--unset=X", "--chdir", "/", "--", "sh", "-c", "s")).toBe(8);
    expect(script("env", "-iu", "X", "sh", "-c", "s")).toBe(5);
    expect(script("env", "-uX", "sh", "-c", "s")).toBe(4);
    expect(script("timeout", "10", "sh", "-c", "s")).toBe(4);
    expect(script("timeout", "-s", "KILL", "-k", "5", "1.5m", "sh", "-c", "s")).toBe(8);
    expect(script("timeout", "--signal=TERM", "--preserve-status", "10s", "sh", "-c", "s")).toBe(6);
    expect(script("nice", "-n", "5", "sh", "-c", "s")).toBe(5);
    expect(script("nice", "-10", "sh", "-c", "s")).toBe(4);
    expect(script("nice", "--adjustment=3", "sh", "-c", "s")).toBe(4);
    expect(script("nohup", "sh", "-c", "s")).toBe(3);
    expect(script("nohup", "--", "sh", "-c", "s")).toBe(4);
    expect(script("setsid", "-fw", "sh", "-c", "s")).toBe(4);
    expect(script("stdbuf", "-oL", "-e", "0", "--input=0", "sh", "-c", "s")).toBe(7);
    expect(script("ionice", "-c", "3", "-t", "sh", "-c", "s")).toBe(6);
    expect(script("chrt", "-o", "0", "sh", "-c", "s")).toBe(5);
    expect(script("chrt", "-T", "1", "-f", "5", "sh", "-c", "s")).toBe(7);
    expect(script("taskset", "-c", "0-3", "sh", "-c", "s")).toBe(5);
    expect(script("taskset", "0x3", "sh", "-c", "s")).toBe(4);
    expect(script("time", "-p", "sh", "-c", "s")).toBe(4);
    expect(script("command", "-p", "sh", "-c", "s")).toBe(4);
    expect(script("exec", "-a", "name", "sh", "-c", "s")).toBe(5);
    expect(script("xargs", "-0", "-n", "1", "sh", "-c", "s")).toBe(6);
    expect(script("sudo", "-u", "bob", "-E", "sh", "-c", "s")).toBe(6);
    expect(script("doas", "-u", "bob", "sh", "-c", "s")).toBe(5);
    expect(script("busybox", "sh", "-c", "s")).toBe(3);
    expect(walk("busybox", "ash", "-c", "s").family).toBe("busybox");
    expect(script("busybox", "timeout", "5", "busybox", "sh", "-c", "s")).toBe(6);
    expect(script("env", "timeout", "5", "nice", "nohup", "rbash", "--norc", "-ec", "s")).toBe(8);
  });

  it("env -S splits its string into words that env reads again", () => {
    expect(walk("env", "-S", "bash -e -c", "s")).toMatchObject({ name: "bash", family: "bash", script: 3, proven: true });
    expect(walk("env", "-Sbash -c", "s")).toMatchObject({ script: 2, proven: true });
    expect(walk("env", "--split-string=-i bash -c", "s")).toMatchObject({ script: 2, proven: true });
    expect(walk("env", "-S", "bash -c s")).toMatchObject({ proven: false, reason: "the script is inside env -S" });
    expect(walk("env", "-S", "bash -c '$x'", "s")).toMatchObject({ proven: false });
    expect(walk("env", "-S", "bash\\ -c", "s").proven).toBe(false);
  });

  it("a program that is no launcher ends the walk, proven, with no script", () => {
    expect(walk("python3", "-c", "s")).toEqual({ program: 0, name: "python3", family: null, firstArg: 1, script: -1, proven: true });
    expect(walk("env", "A=1", "cat", "x")).toEqual({ program: 2, name: "cat", family: null, firstArg: 3, script: -1, proven: true });
    expect(walk("/usr/bin/timeout", "5", "/bin/cat")).toMatchObject({ program: 2, name: "cat", firstArg: 3 });
    expect(walk("bash", "file.sh", "-c")).toMatchObject({ program: 0, family: "bash", script: -1, proven: true });
  });

  it("an unknown option, a missing operand or a placeholder where a command stands is not proven", () => {
    const reasons = [
      walk("env", "-x", "sh", "-c", "s"),
      walk("env", "--bogus", "sh", "-c", "s"),
      walk("env", "-u"),
      walk("env", "--unset"),
      walk("timeout", "sh", "-c", "s"),
      walk("timeout", "-s"),
      walk("timeout", null, "sh", "-c", "s"),
      walk("nice", "-n", null, "sh"),
      walk("chrt", "-p", "1"),
      walk("taskset", "-p", "1"),
      walk("taskset", "zz", "sh"),
      walk("command", "-v", "sh"),
      walk("xargs", "-I", "{}", "sh", "-c", "s"),
      walk("sudo", "-s"),
      walk("sudo", "-i", "sh"),
      walk("doas", "-s"),
      walk("nohup"),
      walk("env"),
      walk("busybox"),
      walk("busybox", null, "-c", "s"),
      walk(null, "-c", "s"),
      walk("nohup", null),
    ];
    for (const l of reasons) {
      expect(l.proven, JSON.stringify(l)).toBe(false);
      expect(l.script).toBe(-1);
      expect(l.reason).toBeTruthy();
    }
    expect(walk("env", "-x", "sh").reason).toBe("env: unknown option -x");
    expect(walk("env", "--bogus").reason).toBe("env: unknown option --bogus");
    expect(walk("nohup").reason).toBe("nohup runs no command");
    expect(walk("timeout", "x", "sh").reason).toMatch(/^timeout: expected a literal/);
    expect(walk("env", "-u").reason).toBe("env: -u without a literal value");
    expect(walk("env", "--unset").reason).toBe("env: --unset without a literal value");
    expect(walk(null).reason).toBe("the program is not a literal word");
    expect(walk("nohup", null).reason).toBe("nohup: a placeholder where an option or the command stands");
    expect(walk("bash", "-i", "-c", "s")).toMatchObject({ program: 0, family: "bash", script: -1, proven: false, reason: "unknown shell option -i" });
  });

  it("names that look like launchers through the prototype are not launchers", () => {
    expect(Object.hasOwn(LAUNCHERS, "toString")).toBe(false);
    expect(walk("constructor", "sh", "-c", "s")).toMatchObject({ program: 0, name: "constructor", family: null, script: -1, proven: true });
    expect(walk("__proto__", "sh", "-c", "s")).toMatchObject({ program: 0, family: null, script: -1 });
  });

  it("stops after 32 hops", () => {
    const argv = [...Array(40).fill("nohup"), "sh", "-c", "s"];
    expect(walkLaunchers(argv)).toMatchObject({ proven: false, reason: "no program" });
    expect(walkLaunchers([...Array(20).fill("nohup"), "sh", "-c", "s"]).script).toBe(22);
  });
});
