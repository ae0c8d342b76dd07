// The shell classifier (src/runtime/exec/shell-context.ts): where a word stands in a command decides
// its role. Reserved words, assignments and `[[` count only where a command starts and only unquoted;
// a command rye cannot follow refuses its arguments; a placeholder in a command substitution keeps
// the weaker role; a placeholder the reader never reached is refused.
import { describe, expect, it } from "vitest";
import { classifyScript } from "../../src/runtime/exec/shell-context.js";
import { scriptPlaceholders } from "../../src/runtime/exec/shell-script.js";

const names = new Set(["x", "y"]);
/** The placeholders as a template lists them; scripts with a bare `{` list them by hand (`at`). */
const classify = (script: string) => classifyScript(script, script.includes("{ ") ? at(script) : scriptPlaceholders(script, (n) => names.has(n)));
const at = (script: string) => [...script.matchAll(/\{[xy]\}/g)].map((m) => ({ start: m.index, end: m.index + 3 }));
const roles = (script: string) => classify(script).map((r) => `${r.role}${r.noDash ? "!" : ""}/${r.quote}`);
const reasons = (script: string) => classify(script).map((r) => r.reason);

const CANNOT_FOLLOW_NULL = "in a command rye cannot follow (the program is not a literal word)";
const LIST_WORD = "in the word list of a for loop (the loop variable could later be read as arithmetic or a name)";

describe("command position", () => {
  it("a brace group's { and } are skipped like the other reserved words", () => {
    expect(roles("{ echo {x}; }")).toEqual(["full!/none"]);
    expect(reasons("{ let {x}; }")).toEqual(["as an argument of let, which reads it as code, a name or arithmetic"]);
    expect(reasons("{ true; } {x}")).toEqual([CANNOT_FOLLOW_NULL]);
  });

  it("a quoted reserved word is a command name like any other", () => {
    expect(reasons('"if" {x}')).toEqual(["as an argument of if, which is not one of rye's data commands"]);
    expect(reasons("'case' {x}")).toEqual(["as an argument of case, which reads it as code, a name or arithmetic"]);
    expect(reasons("\\{ {x}")).toEqual(["as an argument of {, which is not one of rye's data commands"]);
  });

  it("after a launcher, a reserved word, [[ or NAME=value is the program the launcher runs", () => {
    expect(reasons("nohup if {x}")).toEqual(["as an argument of if, which is not one of rye's data commands"]);
    expect(reasons("nohup { {x}")).toEqual(["as an argument of {, which is not one of rye's data commands"]);
    expect(roles("cat case esac select {x}")).toEqual(["full!/none"]);
    expect(reasons("nohup [[ {x} ]]")).toEqual(["as an argument of [[, which reads it as code, a name or arithmetic"]);
    expect(reasons("nohup a={x}")).toEqual(["in a command rye cannot follow (nohup: a placeholder where an option or the command stands)"]);
    expect(reasons("nohup a[{x}]=1")).toEqual(["in a command rye cannot follow (nohup: a placeholder where an option or the command stands)"]);
  });

  it("an array assignment needs a variable name before its [", () => {
    expect(reasons("1a[{x}]=1")).toEqual([CANNOT_FOLLOW_NULL]);
    expect(reasons("-a[{x}]=1")).toEqual([CANNOT_FOLLOW_NULL]);
    expect(reasons("_a1[{x}]=1")).toEqual(["in an array assignment, whose subscript is arithmetic"]);
  });

  it("for: the word after the name may be `in`, `do` or a list word", () => {
    expect(reasons("for i in {x} {y}; do :; done")).toEqual([LIST_WORD, LIST_WORD]);
    expect(reasons("for i in in {x}; do :; done")).toEqual([LIST_WORD]);
    expect(roles("for i in a\ndo echo {x}; done")).toEqual(["full!/none"]);
    expect(roles("for i; do echo {x}; done")).toEqual(["full!/none"]);
    expect(reasons("for i 'do' {x}; do :; done")).toEqual([LIST_WORD]);
  });
});

describe("commands rye cannot follow", () => {
  it("a program inside an env -S string: its arguments are refused, even for a data command", () => {
    expect(classify("env -S cat {x}")).toMatchObject([{ role: "refuse", reason: "in a command rye cannot follow (the program is inside env -S)" }]);
    expect(classify("env -S printf %s {x}")[0]!.role).toBe("refuse");
  });

  it("a shell inside an env -S string, running a file", () => {
    expect(reasons("env -S bash f.sh {x}")).toEqual(["in a command rye cannot follow (a shell inside env -S)"]);
  });

  it("a launcher's unknown option", () => {
    expect(reasons("env -x cat {x}")).toEqual(["in a command rye cannot follow (env: unknown option -x)"]);
    expect(reasons("timeout -- {x} cat")).toEqual([expect.stringMatching(/^in a command rye cannot follow \(timeout: expected a literal /)]);
  });
});

describe("printf", () => {
  it("an option before the format refuses every argument", () => {
    expect(reasons("printf -v v {x} {y}")).toEqual(Array(2).fill("as an argument of printf with an option such as -v, which names a variable"));
  });

  it("every argument after a string-only format is data, with no leading-dash rule", () => {
    expect(roles("printf %s%s {x} {y}")).toEqual(["full/none", "full/none"]);
    expect(roles("printf -- '%s' {x} -- {y}")).toEqual(["full/none", "full/none"]);
  });
});

describe("command substitutions", () => {
  it("an inner inert value stays inert inside a quoted data argument, with no dash flag of its own", () => {
    const [r] = classify('cat -- "$(foo {x})"');
    expect(r).toMatchObject({ role: "inert", noDash: false, reason: "as an argument of foo, which is not one of rye's data commands" });
    expect(classify('cat a"$(foo {x})"')[0]).toMatchObject({ role: "inert", noDash: false });
  });

  it("a substitution's output is taken only quoted, where any text is data and no option can start", () => {
    expect(classify("cat $(printf %s {x})")[0]).toMatchObject({ role: "refuse", noDash: false });
    expect(classify('cat "$(printf %s {x})"')[0]).toMatchObject({ role: "refuse", noDash: false });
    expect(classify("cat a$(printf %s {x})")[0]).toMatchObject({ role: "refuse", noDash: false });
    expect(classify('cat a"$(printf %s {x})"')[0]).toMatchObject({ role: "full", noDash: false });
    expect(classify("let $(printf %s {x})")[0]).toMatchObject({ role: "refuse", noDash: false, reason: "as an argument of let, which reads it as code, a name or arithmetic (through a command substitution)" });
  });

  it("an inert outer word never sets the dash flag", () => {
    expect(classify("foo {x}")[0]).toMatchObject({ role: "inert", noDash: false });
    expect(classify("cd {x}")[0]).toMatchObject({ role: "inert", noDash: false });
  });
});

describe("placeholders the reader never reached", () => {
  it("are refused, each with the whole record", () => {
    const recs = classifyScript("echo {x}", [{ start: 5, end: 8 }, { start: 40, end: 43 }]);
    expect(recs[0]).toMatchObject({ index: 0, role: "full" });
    expect(recs[1]).toEqual({ index: 1, quote: "none", role: "refuse", reason: "where rye could not follow the script", atWordStart: false, depth: 0 });
    expect(classifyScript("", [{ start: 0, end: 3 }])).toEqual([{ index: 0, quote: "none", role: "refuse", reason: "where rye could not follow the script", atWordStart: false, depth: 0 }]);
  });
});

describe("comments", () => {
  it("a placeholder in a comment, at any depth, is left without a role", () => {
    for (const s of ["cat # {x}", "cat $(true # {x}\n)", "let $(true # {x}\n)", 'echo "$(true # {x}\n)"']) {
      const [r] = classify(s);
      expect(r, s).toMatchObject({ quote: "comment" });
      expect(r!.role, s).toBeUndefined();
    }
  });
});
