// "A value never reaches a file" (src/runtime/exec/data-commands.ts fileWriteOf and redirectWriteOf,
// shell-context.ts, pipe-roles.ts, script-stdin.ts): which commands write into a file, and the role
// each channel's value gets there.
import { describe, expect, it } from "vitest";
import { fileWriteOf, redirectWriteOf } from "../../src/runtime/exec/data-commands.js";
import { scriptStdinRole } from "../../src/runtime/exec/script-stdin.js";
import { carriedUses, classifyScript, unseenProgramIn } from "../../src/runtime/exec/shell-context.js";
import { scriptPlaceholders } from "../../src/runtime/exec/shell-script.js";
import { programStdinRole } from "../../src/runtime/exec/stdin-program.js";

const names = new Set(["x", "y"]);
const classify = (script: string) => classifyScript(script, scriptPlaceholders(script, (n) => names.has(n)));
const roles = (script: string) => classify(script).map((r) => `${r.role}${r.file === true ? "/file" : ""}`);
const reason = (script: string) => classify(script)[0]!.reason;

describe("the writer table", () => {
  it("data commands that write no data, and those that always do", () => {
    for (const c of ["echo", "printf", "cat", "ls", "head", "tail", "wc", "cut", "basename", "dirname", "realpath", "readlink", "stat", "du", "true", "false", "mkdir", "touch", "rm", "rmdir"]) {
      expect(fileWriteOf(c, ["a", "b", null]), c).toBeNull();
    }
    expect(fileWriteOf("cp", ["a", "b"])).toBe("`cp a b` writes into a file its arguments name");
    expect(fileWriteOf("mv", [])).toBe("`mv` writes into a file its arguments name");
    expect(fileWriteOf("ln", [null, "b"])).toBe("`ln … b` writes into a file its arguments name");
    // A data command nobody classified is a writer: the table is an allowlist.
    expect(fileWriteOf("newcmd", ["a"])).toBe("`newcmd a` writes into a file its arguments name");
    expect(fileWriteOf("cp", ["x".repeat(80)])).toBe(`\`cp ${"x".repeat(57)}\` writes into a file its arguments name`);
  });

  it("tee writes into each operand but /dev/null", () => {
    expect(fileWriteOf("tee", [])).toBeNull();
    expect(fileWriteOf("tee", ["-a", "/dev/null"])).toBeNull();
    expect(fileWriteOf("tee", ["-a", "f"])).toBe("`tee -a f` writes its input into a file");
    expect(fileWriteOf("tee", [null])).toBe("`tee …` writes its input into a file");
    expect(fileWriteOf("tee", ["--", "-a"])).toBe("`tee -- -a` writes its input into a file");
    expect(fileWriteOf("tee", ["-"])).toBe("`tee -` writes its input into a file");
  });

  it("uniq writes into its second operand, options and their arguments aside", () => {
    expect(fileWriteOf("uniq", ["in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-f", "1", "in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-cf", "1", "in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-f1", "in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-fc", "in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-c", "in", "out"])).toBe("`uniq -c in out` writes into its second operand");
    expect(fileWriteOf("uniq", ["-f1", "in", "out"])).toBe("`uniq -f1 in out` writes into its second operand");
    expect(fileWriteOf("uniq", ["--skip-fields=1", "in", "out"])).toBe("`uniq --skip-fields=1 in out` writes into its second operand");
    expect(fileWriteOf("uniq", ["-", "out"])).not.toBeNull();
    expect(fileWriteOf("uniq", ["--", "-in", "out"])).not.toBeNull();
  });

  it("sort writes into -o's file, in every spelling; a word built at run time before -- may be one", () => {
    for (const args of [["-o", "f"], ["-of"], ["-uo", "f"], ["-ruof"], ["--output=f"], ["--output", "f"], ["--out=f"], ["--o", "f"], [null], ["-n", null, "--", "a"]]) {
      expect(fileWriteOf("sort", args), JSON.stringify(args)).toBe(`\`sort ${args.map((a) => a ?? "…").join(" ")}\` may write into an output file (-o)`);
    }
    for (const args of [["-k", "o"], ["-ko"], ["-to"], ["-To"], ["-So"], ["-yo"], ["-r", "in"], ["--", "-o", "f"], ["-"], ["--reverse"], ["--", null], ["--"], []]) {
      expect(fileWriteOf("sort", args), JSON.stringify(args)).toBeNull();
    }
    expect(fileWriteOf("sort", ["--=x"])).toBeNull();
  });

  it("a redirection writes a file unless it reads, duplicates a descriptor or goes to /dev/null", () => {
    for (const [op, target] of [["<", "f"], ["<<<", "x"], ["<&", "f"], ["<&", "0"], [">&", "2"], [">&", "10"], [">&", "-"], [">", "/dev/null"], [">>", "/dev/null"], ["&>", "/dev/null"]] as const) {
      expect(redirectWriteOf(op, target), `${op} ${target}`).toBeNull();
    }
    expect(redirectWriteOf(">", "f")).toBe("`> f` sends output into a file");
    expect(redirectWriteOf(">", null)).toBe("`> …` sends output into a file");
    for (const op of [">>", ">|", "<>", "&>", "&>>"]) expect(redirectWriteOf(op, "f"), op).not.toBeNull();
    expect(redirectWriteOf(">&", "f")).not.toBeNull();
    expect(redirectWriteOf(">&", "2f")).not.toBeNull();
    expect(redirectWriteOf(">&", null)).not.toBeNull();
    expect(redirectWriteOf(">", "/dev/nullx")).not.toBeNull();
  });
});

describe("a command's own output", () => {
  it("a value in a command whose output goes into a file is refused, by the file rule", () => {
    expect(roles("echo {x} > f")).toEqual(["refuse/file"]);
    expect(reason("echo {x} > f")).toBe("`echo … > f` sends its output into a file");
    expect(reason("> f echo {x}")).toBe("`echo … > f` sends its output into a file");
    expect(roles("echo {x} 2> f; echo {y} >> f")).toEqual(["refuse/file", "refuse/file"]);
    expect(roles("echo {x} 1<> f")).toEqual(["refuse/file"]);
    expect(roles("echo {x} >&f")).toEqual(["refuse/file"]);
    expect(roles("cp -- {x} t")).toEqual(["refuse/file"]);
    expect(roles("printf %s \"$(echo {x})\" > f")).toEqual(["refuse/file"]);
    // The value names only the output file: the command writes its own text, rule 8 judges the name.
    expect(roles("echo hi > {x}; cat a >> {y}")).toEqual(["full", "full"]);
    // stdout, stderr, a duplicated descriptor, /dev/null: no file.
    expect(roles("echo {x} 2>&1 >/dev/null; echo {y} >&2")).toEqual(["full", "full"]);
    expect(roles("echo {x} 2>/dev/null")).toEqual(["full"]);
    // A writer with no value in it changes nothing.
    expect(roles("cp a b; echo {x}")).toEqual(["full"]);
  });

  it("a comment's placeholder carries nothing", () => {
    expect(classify("echo hi > f # {x}").map((r) => [r.quote, r.role, r.file])).toEqual([["comment", undefined, undefined]]);
  });

  it("a compound command's or exec's redirection into a file refuses every value of the script", () => {
    for (const s of ["{ echo a; } > f; echo {x}", "(echo {x}) > f", "for a in b; do echo {x}; done > f", "if true; then echo {x}; fi 2> f", "exec > f; echo {x}", "exec 3> f; echo {x}", "echo {x}; exec >> f"]) {
      expect(roles(s), s).toEqual(["refuse/file"]);
      expect(unseenProgramIn(s.replace("{x}", "a")), s).toMatch(/sends its output into a file of a compound command or exec, where any command may write a value that a later command runs$/);
    }
    expect(reason("(echo {x}) > f")).toBe("`> f` sends its output into a file for every command after it or inside it");
    expect(reason("exec > f; echo {x}")).toBe("`exec > f` sends its output into a file for every command after it or inside it");
    for (const s of ["{ echo a; } > /dev/null; echo {x}", "(echo {x}) 2>&1", "exec 2>&1; echo {x}", "exec 3<f; echo {x}"]) expect(roles(s), s).toEqual(["full"]);
    expect(unseenProgramIn("exec 2>&1; echo a")).toBeNull();
    // A position refused for its own reason keeps it.
    expect(roles("eval {x}; exec > f")).toEqual(["refuse"]);
    expect(reason("eval {x}; exec > f")).toMatch(/^as an argument of eval/);
  });

  it("a file a value names as stdin is taken only by a data reader", () => {
    expect(roles("cat < {x}; sort -- - < {y}")).toEqual(["full", "full"]);
    expect(roles("xargs nice < {x}")).toEqual(["refuse"]);
    expect(reason("xargs nice cat < {x}")).toBe("as the file name of an input redirection: the file's text, which no check of the value bounds, reaches the stdin of xargs, which makes it the arguments, options or program of the command it runs");
    expect(roles("grep a < {x}")).toEqual(["refuse"]);
    expect(roles("sh < {x}")).toEqual(["refuse"]);
    expect(roles("sh -c 'xargs nice' < {x}")).toEqual(["refuse"]);
    expect(roles("sh -c 'cat' < {x}")).toEqual(["full"]);
    expect(roles("cat 0< {x}")).toEqual(["full"]);
    // Written on: refused by the file rule, the output name too.
    expect(roles("cat < {x} > {y}")).toEqual(["refuse/file", "refuse/file"]);
    expect(roles("cat <> {x}")).toEqual(["full"]);
  });

  it("carried values take the same rule", () => {
    const uses = (s: string) => carriedUses(s, [], (n) => n === "1").map((r) => `${r.role}${r.file === true ? "/file" : ""}`);
    expect(uses('printf %s "$1" > f')).toEqual(["refuse/file"]);
    expect(uses('printf %s "$1" | tee f')).toEqual(["refuse/file"]);
    expect(uses('printf %s -- "$1" | cat')).toEqual(["full"]);
  });
});

describe("pipes and the script's stdin", () => {
  it("a pipe into a writer refuses what writes into it", () => {
    expect(roles("echo {x} | tee f")).toEqual(["refuse/file"]);
    expect(reason("echo {x} | tee f")).toBe("through a pipe, `tee f` writes its input into a file");
    expect(roles("echo {x} | cat > f")).toEqual(["refuse/file"]);
    expect(reason("echo {x} | cat > f")).toBe("through a pipe, `> f` sends output into a file");
    expect(roles("echo {x} | sort -o f; echo {y} | uniq - f")).toEqual(["refuse/file", "refuse/file"]);
    expect(roles("echo {x} | tee /dev/null 2>/dev/null >&2; echo {y} | cat | tee")).toEqual(["full", "full"]);
    expect(roles("echo {x} | cat | tee f")).toEqual(["refuse/file"]);
    expect(roles("echo {x} | xargs echo")).toEqual(["refuse"]);
    expect(roles("echo {x} | sh -c 'cat > f'")).toEqual(["refuse"]);
    expect(roles("echo {x} | sh -c 'cat'")).toEqual(["full"]);
  });

  it("xargs builds a command from its stdin", () => {
    for (const argv of [["xargs"], ["xargs", "nice"], ["xargs", "-0", "echo"], ["/usr/bin/xargs", "cat"], ["nice", "xargs", "cat"]]) {
      expect(programStdinRole(argv).role, argv.join(" ")).toBe("refuse");
    }
    expect(programStdinRole(["cat"]).role).toBe("full");
  });

  it("a command of the script that reads its stdin may not write it into a file", () => {
    for (const s of ["cat > f", "cat 1>f", "cat >>f", "cat >| f", "cat &>f", "tee f", "sort -o f", "cp /dev/stdin f", "{ cat; } > f", "while read -r l; do echo \"$l\"; done > f", "cat | tee f", "cat | cat > f", "read l; echo x | tee f", "cat > \"$d/f\""]) {
      const role = scriptStdinRole(s);
      expect(role.role, s).toBe("refuse");
      expect(role.reason, s).toMatch(/^stdin of a command whose output goes into a file \(.*\), which a later command could run, inside a -c script that hands it its own stdin$/);
    }
    for (const s of ["cat", "cat > /dev/null", "cat 2>&1", "cat >&2", "echo hi > f; cat", "cat < a > f", "tee", "tee /dev/null", "echo a | tee f", "sort", "cat | cat"]) expect(scriptStdinRole(s).role, s).toBe("full");
  });
});
