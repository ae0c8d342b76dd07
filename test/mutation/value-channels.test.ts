// The value channels (src/runtime/exec/value-channels.ts) and the path-safe set
// (src/runtime/exec/path-values.ts), checked against the rules as docs/security-model.md states them.
import { describe, expect, it } from "vitest";
import { valueSeal } from "../../src/runtime/exec/seal-values.js";
import { isPathArgument, isPathSafe, pathValueProblem } from "../../src/runtime/exec/path-values.js";
import { envTypeProblem, envValueProblem, openWholeFields, restoreChannels, VALUE_CHANNELS } from "../../src/runtime/exec/value-channels.js";

const SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-";

describe("the path-safe set", () => {
  it("accepts exactly ASCII letters, digits and _ . / + -", () => {
    for (let code = 0; code < 0x800; code++) {
      const c = String.fromCharCode(code);
      expect(isPathSafe(`a${c}`), `U+${code.toString(16)}`).toBe(SAFE.includes(c));
    }
  });

  it("refuses a leading -, more than 4096 characters; accepts the empty value", () => {
    expect(isPathSafe("-a")).toBe(false);
    expect(isPathSafe("a-")).toBe(true);
    expect(isPathSafe("/a/-b")).toBe(true);
    expect(isPathSafe("")).toBe(true);
    expect(isPathSafe("a".repeat(4096))).toBe(true);
    expect(isPathSafe("a".repeat(4097))).toBe(false);
  });

  it("names the placeholder, the value, what is wrong and the fix", () => {
    expect(pathValueProblem("{p}", "/a/b", "x")).toBeNull();
    const quote = pathValueProblem("{project_path}", "/w'x", "argument 2 of python3")!;
    expect(quote).toContain(`the value of {project_path} ("/w'x") holds "'"; it is spliced into argument 2 of python3`);
    expect(quote).toContain('Make {project_path} a whole argument of its own (e.g. args: [..., "{project_path}"])');
    expect(quote).toContain("path-safe values (ASCII letters, digits and _ . / + - only, not starting with -, at most 4096 characters)");
    expect(pathValueProblem("{p}", "-rf", "x")).toContain('starts with "-"');
    expect(pathValueProblem("{p}", "-r f", "x")).toContain('starts with "-"');
    expect(pathValueProblem("{p}", "a".repeat(4097), "x")).toContain("is 4097 characters long");
  });

  it("an argument is one path when its literal text is path-safe and it starts with no -", () => {
    const at = (t: string) => [...t.matchAll(/\{[a-z_]+\}/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
    for (const t of ["{a}/Gemfile", "{a}/{b}.py", "x/{a}", "{a}"]) expect(isPathArgument(t, at(t)), t).toBe(true);
    for (const t of ["print('{a}')", "'{a}", "x y/{a}", "{a} x", "-I{a}", "{a};", "plain/text"]) expect(isPathArgument(t, at(t)), t).toBe(false);
  });
});

describe("the channels", () => {
  it("are argv, stdin, env and cwd", () => {
    expect([...VALUE_CHANNELS]).toEqual(["argv", "stdin", "env", "cwd"]);
  });

  it("whole fields come back typed before templating; a whole args list comes back element by element, each sealed again", () => {
    const s = valueSeal();
    const dict = { k: "${X}" };
    const list = ["a", "${X}", { d: 1 }];
    const config = { command: s.seal(dict), cwd: "plain", input_data: `x${s.seal("{y}") as string}`, args: s.seal(list), timeout: 3 };
    const opened = openWholeFields(config, s.restore);
    expect(opened.config.command).toBe(dict);
    expect(opened.config.cwd).toBe("plain");
    expect(opened.config.input_data).toBe(config.input_data);
    expect(opened.config.timeout).toBe(3);
    const args = opened.config.args as unknown[];
    expect(args[0]).toBe("a");
    expect(args[1]).not.toBe("${X}");
    expect(args[2]).toBe(list[2]);
    expect(opened.restore(args)).toEqual(list);
    expect(opened.restore(opened.config.input_data)).toBe("x{y}");
  });

  it("an args list of its own keeps each element, whole tokens typed", () => {
    const s = valueSeal();
    const d = { a: 1 };
    const opened = openWholeFields({ args: ["-c", s.seal(d), s.seal("{t}")] }, s.restore);
    expect(opened.config.args).toEqual(["-c", d, expect.stringMatching(/^@rye-value-/)]);
    expect(Object.keys(openWholeFields({ command: "x" }, s.restore).config)).toEqual(["command"]);
    const own = { a: 1 };
    const kept = openWholeFields({ command: own, args: [own] }, s.restore).config;
    expect(kept.command).toBe(own);
    expect((kept.args as unknown[])[0]).toBe(own);
  });

  it("every channel is put back, the env included", () => {
    const s = valueSeal();
    const t = s.seal("$5 {x}") as string;
    const back = restoreChannels({ command: t, args: [t, "a"], cwd: t, input_data: `<${t}>`, env: { G: t, H: "h" } }, s.restore);
    expect(back).toEqual({ command: "$5 {x}", args: ["$5 {x}", "a"], cwd: "$5 {x}", input_data: "<$5 {x}>", env: { G: "$5 {x}", H: "h" } });
  });

  it("an env value that is not a string is refused as Python's os.environ refuses it", () => {
    expect(envTypeProblem({ A: "a", B: "b" })).toBeNull();
    expect(envTypeProblem({ A: "a", D: { k: 1 } })).toBe("environment variable D: expected str, bytes or os.PathLike object, not dict");
    expect(envTypeProblem({ L: [1] })).toContain("not list");
  });

  it("a caller's value in an env template is refused, inert or not, whole or spliced; others pass", () => {
    const values: Record<string, unknown> = { g: "a b", ok: "fine_1", chain: "x y;", n: 5, HOME: "/h o" };
    const fromCaller = (n: string) => n !== "chain";
    const param = (n: string) => values[n];
    const check = (templates: Record<string, string | undefined>) => envValueProblem({ templates, param, fromCaller });
    expect(check({ C: "{chain}", D: "{missing}", E: "no braces $g", F: undefined, H: "${HOME}/x" })).toBeNull();
    expect(check({ A: "{ok}" })).toContain("placeholder '{ok}' fills the environment variable A");
    expect(check({ B: "pre {n}" })).toContain("placeholder '{n}' fills the environment variable B");
    expect(check({ C: "{chain}", GREETING: "v_{g}" })).toContain("placeholder '{g}' fills the environment variable GREETING");
    expect(check({ W: "{g}" })).toContain("environment variable W");
    expect(check({ X: "${HOME}{g}" })).toContain("{g}");
  });
});
