// Binding values into a script (src/runtime/exec/bind-shell-script.ts), the inert set
// (src/runtime/exec/inert.ts) and the check of values spliced into other programs
// (src/runtime/exec/spliced-args.ts).
import { describe, expect, it } from "vitest";
import { bindShellScript, refusedPlaceholder, UnsafeScriptPlaceholder, valueProblem } from "../../src/runtime/exec/bind-shell-script.js";
import { inertProblem, isInert, INERT_DESCRIPTION } from "../../src/runtime/exec/inert.js";
import { classifyScript } from "../../src/runtime/exec/shell-context.js";
import { scriptPlaceholders } from "../../src/runtime/exec/shell-script.js";
import { isWholePlaceholder, splicedPlaceholders, splicedValueProblem, type SplicedValues } from "../../src/runtime/exec/spliced-args.js";

const known = (n: string) => n === "x" || n === "y";
const bind = (script: string, values: string[], options = {}) => bindShellScript(script, scriptPlaceholders(script, known), values, { nonce: "N", ...options });

describe("bindShellScript", () => {
  it("a prelude from $1…$n, then shift, then the script with quoted references", () => {
    expect(bind("echo {x} {y}", ["a", "b"])).toEqual({ script: `__rye_N_1=\${1} __rye_N_2=\${2}; shift 2; echo "\${__rye_N_1}" "\${__rye_N_2}"`, values: ["a", "b"] });
    expect(bind("echo '{x}' \"{y}\"", ["a", "b"]).script).toBe(`__rye_N_1=\${1} __rye_N_2=\${2}; shift 2; echo ''"\${__rye_N_1}"'' "\${__rye_N_2}"`);
    expect(bind("echo hi", [])).toEqual({ script: "echo hi", values: [] });
    expect(bind("echo # {x}", ["a"]).script).toBe(`__rye_N_1=\${1}; shift 1; echo # {x}`);
  });

  it("a fresh random name part on each run, 16 hex digits, unless one is given", () => {
    const a = bindShellScript("echo {x}", scriptPlaceholders("echo {x}", known), ["v"]).script;
    const b = bindShellScript("echo {x}", scriptPlaceholders("echo {x}", known), ["v"]).script;
    expect(a).toMatch(/^__rye_[0-9a-f]{16}_1=\$\{1\}; shift 1; echo "\$\{__rye_[0-9a-f]{16}_1\}"$/);
    expect(a).not.toBe(b);
  });

  it("refuses a refused position and a value its position does not take, naming the placeholder", () => {
    expect(() => bind("let {x}", ["1"])).toThrow(UnsafeScriptPlaceholder);
    expect(() => bind("let {x}", ["1"])).toThrow("placeholder '{x}' sits as an argument of let, which reads it as code, a name or arithmetic in the shell script, where rye cannot prove the shell reads its value as data; pass the value as an argument after the script and use \"$1\"");
    expect(() => bind("cd {x}", ["a b"])).toThrow(/^the value of \{x\} holds " "; it is spliced into a shell script as an argument of cd/);
    expect(() => bind("cat {x}", ["-n"])).toThrow("the value of {x} starts with '-' and begins an argument where the command would read it as an option; write -- before it in the script (cat -- {x}), or keep it from starting with '-'");
    expect(bind("cat a{x}", ["-n"]).values).toEqual(["-n"]);
    expect(bind("cd {x}", ["a_b"]).values).toEqual(["a_b"]);
    expect(() => bind("cd {x}", ["a.b"])).toThrow(/holds "\."/);
  });

  it("trusted placeholders are bound; where the position is not data their value must be path-safe", () => {
    const trusted = () => true;
    expect(bind("{x} {y}", ["/p/bin", "a_b"], { trusted }).script).toBe(`__rye_N_1=\${1} __rye_N_2=\${2}; shift 2; "\${__rye_N_1}" "\${__rye_N_2}"`);
    expect(() => bind("{x} {y}", ["a", "b"], { trusted: (p: { expr: string }) => p.expr === "x" })).toThrow(/'\{y\}'/);
    // A folder name chosen by a checkout, in a code position: refused by its content.
    expect(() => bind("{x} {y}", ["/p q/bin", "a"], { trusted })).toThrow(/^the value of \{x\} \("\/p q\/bin"\) holds " "; it is spliced into a shell script in a command rye cannot follow/);
    expect(() => bind("trap 'rm -f {x}/.lock' EXIT", ["/w$(touch m)"], { trusted })).toThrow(/^the value of \{x\} \("\/w\$\(touch m\)"\) holds "\$"; it is spliced into a shell script as an argument of trap/);
    expect(bind("trap 'rm -f {x}/.lock' EXIT", ["/w/p-1.2+x"], { trusted }).values).toEqual(["/w/p-1.2+x"]);
    // Where any value is data, any is taken.
    expect(bind("cat -- {x}", ["/p q/$(x)"], { trusted }).values).toEqual(["/p q/$(x)"]);
  });

  it("refusedPlaceholder and valueProblem", () => {
    const script = "echo {x}; let {y}";
    const ps = scriptPlaceholders(script, known);
    const recs = classifyScript(script, ps);
    expect(refusedPlaceholder(script, ps, recs)).toMatch(/^placeholder '\{y\}' sits as an argument of let/);
    expect(refusedPlaceholder(script, ps, recs, (p) => p.expr === "y")).toBeNull();
    expect(valueProblem("{x}", recs[0]!, "-n")).toMatch(/starts with '-'/);
    expect(valueProblem("{x}", recs[0]!, "a-n")).toBeNull();
    expect(valueProblem("{x}", { ...recs[0]!, noDash: false }, "-n")).toBeNull();
    expect(valueProblem("{x}", { ...recs[0]!, quote: "comment" }, "-n")).toBeNull();
    expect(valueProblem("{x}", { ...recs[0]!, role: "inert" }, "a b")).toMatch(/^the value of \{x\} holds " "/);
    expect(valueProblem("{x}", { ...recs[0]!, role: "inert" }, "ab")).toBeNull();
  });
});

describe("the inert set", () => {
  it("letters, digits and _ only; at most 4096", () => {
    expect(isInert("")).toBe(true);
    expect(isInert("Az09_")).toBe(true);
    expect(isInert("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")).toBe(true);
    expect(isInert("a".repeat(4096))).toBe(true);
    expect(isInert("a".repeat(4097))).toBe(false);
    expect(isInert("a\n")).toBe(false);
    expect(isInert("\na")).toBe(false);
    for (const c of " \t\n'\"`$[](){}<>|&;*?!#~\\^%@é\u0000-./:,+=") expect(isInert(`a${c}`), JSON.stringify(c)).toBe(false);
    expect(INERT_DESCRIPTION).toBe("ASCII letters, digits and _ only, at most 4096 characters");
  });

  it("messages name the placeholder, the first bad character and the fix", () => {
    expect(inertProblem("{x}", "ok", "w")).toBeNull();
    expect(inertProblem("{x}", "a$b c", "argument 2 of python3")).toBe(
      `the value of {x} holds "$"; it is spliced into argument 2 of python3, where rye accepts only inert values (${INERT_DESCRIPTION}). Make {x} a whole argument of its own (e.g. args: [..., "{x}"]) and read it there (sys.argv, process.argv, "$1"), or pass it on stdin. Node, Perl and Ruby read options after their -e program: there, write "--" first (args: [..., "--", "{x}"])`,
    );
    expect(inertProblem("{x}", "-a", "w")).toMatch(/^the value of \{x\} holds "-"/);
    expect(inertProblem("{x}", "qx.id.", "w")).toMatch(/^the value of \{x\} holds "\."/);
    expect(inertProblem("{x}", "a".repeat(4097), "w")).toMatch(/^the value of \{x\} is 4097 characters long/);
    expect(inertProblem("{x}", `${"a".repeat(4097)}.`, "w")).toMatch(/^the value of \{x\} holds "\."/);
    expect(inertProblem("{x}", "ab\u{1F600}", "w")).toContain('holds "\u{1F600}"');
  });
});

describe("values spliced into other programs", () => {
  it("a whole placeholder is no splice", () => {
    for (const t of ["{x}", " {x} ", "${HOME}", "${HOME:-/h}"]) expect(isWholePlaceholder(t), t).toBe(true);
    for (const t of ["a{x}", "{x}{y}", "${HOME}/x", "{x y}", "{}"]) expect(isWholePlaceholder(t), t).toBe(false);
    expect(splicedPlaceholders("{x}", known)).toEqual([]);
    expect(splicedPlaceholders("a{x}b${HOME}", known).map((p) => p.expr)).toEqual(["x", "HOME"]);
  });

  const values = (over: Partial<SplicedValues> = {}): SplicedValues => ({
    chainConfig: { command: "python3", args: ["-c", "print('{x}')", "{y}", "{script}"], script: "run {x}" },
    callerParams: { x: "a b", y: "$(y)" },
    env: { E: "a b" },
    param: (n) => ({ x: "a b", y: "$(y)", tool_dir: "/p q" })[n],
    fromCaller: (n) => n === "x" || n === "y",
    ...over,
  });

  it("checks caller and environment values in the command and every argument but the bound script", () => {
    expect(splicedValueProblem("python3", -1, values())).toMatch(/^the value of \{x\} holds " "; it is spliced into argument 2 of python3/);
    expect(splicedValueProblem("python3", 1, values())).toMatch(/spliced into argument 4 of python3/);
    expect(splicedValueProblem("python3", 1, values({ callerParams: { x: "ok", y: "$(y)" }, param: (n) => ({ x: "ok", y: "$(y)" })[n] }))).toBeNull();
    expect(splicedValueProblem("p", -1, values({ chainConfig: { command: "${E}/bin", args: [] } }))).toMatch(/^the value of \$\{E\} holds " "; it is spliced into the command/);
    expect(splicedValueProblem("p", -1, values({ chainConfig: { command: "p", args: ["{tool_dir}/x"] } }))).toBeNull();
    expect(splicedValueProblem("p", -1, values({ chainConfig: { command: "p", args: [1, null] } }))).toBeNull();
    expect(splicedValueProblem("p", -1, values({ chainConfig: { command: "p", args: "{x}y" } }))).toBeNull();
  });
});

describe("valueProblem and the trusted option", () => {
  const rec = (over: object) => ({ index: 0, quote: "none" as const, atWordStart: true, depth: 0, role: "full" as const, ...over });

  it("a redirection target takes a file name, never a name under /dev", () => {
    expect(valueProblem("{x}", rec({ target: true }), "/dev/tcp/127.0.0.1/80")).toMatch(/\{x\}/);
    expect(valueProblem("{x}", rec({ target: true }), "out/report.txt")).toBeNull();
    // Outside a redirection the same value is data.
    expect(valueProblem("{x}", rec({ target: false }), "/dev/tcp/127.0.0.1/80")).toBeNull();
  });

  it("an inert position names where the value was spliced, without trailing space", () => {
    const withReason = valueProblem("{x}", rec({ role: "inert", reason: "inside $(( ))" }), "a;b");
    expect(withReason).toContain("it is spliced into a shell script inside $(( )), where");
    const without = valueProblem("{x}", rec({ role: "inert" }), "a;b");
    expect(without).toContain("it is spliced into a shell script, where");
  });

  it("a trusted placeholder's value is bound whatever it holds; the same value from a caller is refused", () => {
    const script = "sort {x}";
    const placeholders = scriptPlaceholders(script, known);
    expect(() => bindShellScript(script, placeholders, ["-o/tmp/victim"], { nonce: "N" })).toThrow(UnsafeScriptPlaceholder);
    const bound = bindShellScript(script, placeholders, ["-o/tmp/victim"], { nonce: "N", trusted: () => true });
    expect(bound.values).toEqual(["-o/tmp/victim"]);
  });
});

describe("a value-carrying script that runs program text the build never sees", () => {
  const withTool = (n: string) => n === "x" || n === "tool_path";
  const ownTool = (p: { expr: string }) => p.expr === "tool_path";

  it("refuses every caller placeholder with the rule's message, naming the command", () => {
    const script = "echo {x}; sh s.sh";
    expect(() => bindShellScript(script, scriptPlaceholders(script, known), ["a"], { nonce: "N" })).toThrow(
      "placeholder '{x}' is a value of a shell script that runs program text the build never sees: `sh s.sh` runs a shell that reads its program from a file or stdin. A script that carries a value may run only programs whose text rye has: commands by name, shells and interpreters with a literal -c/-e program, and the tool's own file ({tool_path}); put the program in the script or in the tool",
    );
    const recs = classifyScript(script, scriptPlaceholders(script, known));
    expect(refusedPlaceholder(script, scriptPlaceholders(script, known), recs)).toMatch(/^placeholder '\{x\}' is a value of a shell script that runs program text the build never sees: `sh s.sh`/);
    // Written into a file first, the value is refused by the nearer rule: a value never reaches a file.
    expect(() => bind("echo {x} > s.sh; sh s.sh", ["a"])).toThrow(/^placeholder '\{x\}' is a value the shell script writes into a file: `echo … > s.sh`/);
    // A placeholder refused for its own position keeps that position's message.
    expect(() => bind("let {x}; sh s.sh", ["1"])).toThrow(/^placeholder '\{x\}' sits as an argument of let/);
  });

  it("{tool_path} is the tool's own file only when the chain supplies it as a parameter", () => {
    const script = "python3 {tool_path} {x}";
    const ps = scriptPlaceholders(script, withTool);
    expect(bindShellScript(script, ps, ["/t/tool.py", "abc"], { nonce: "N", trusted: ownTool }).values).toEqual(["/t/tool.py", "abc"]);
    // From the caller, the same placeholder names a file the caller chose.
    expect(() => bindShellScript(script, ps, ["/t/evil.py", "abc"], { nonce: "N" })).toThrow(/runs python3 with its program in a file/);
    expect(() => bindShellScript(script, ps, ["/t/evil.py", "abc"], { nonce: "N", trusted: () => false })).toThrow(/runs python3 with its program in a file/);
    // An environment placeholder is never the tool's own path, whatever its name.
    const env = ps.map((p) => (p.expr === "tool_path" ? { ...p, system: "env" as const } : p));
    expect(() => bindShellScript(script, env, ["/t/tool.py", "abc"], { nonce: "N", trusted: ownTool })).toThrow(/runs python3 with its program in a file/);
    const other = ps.map((p) => (p.expr === "tool_path" ? { ...p, expr: "tool_dir" } : p));
    expect(() => bindShellScript(script, other, ["/t/tool.py", "abc"], { nonce: "N", trusted: (p) => p.expr === "tool_dir" })).toThrow(/runs python3 with its program in a file/);
  });
});
