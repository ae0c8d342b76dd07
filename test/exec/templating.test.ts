import { describe, expect, it } from "vitest";
import { expandEnvDeep, expandEnvVars, shellQuote } from "../../src/runtime/exec/expand-env.js";
import {
  substituteConfigParams,
  substituteParamsDeep,
  templateConfig,
  templateDeep,
  templateParams,
  templateString,
} from "../../src/runtime/exec/substitute-params.js";
import { templateExecStages } from "../../src/runtime/exec/template-exec.js";

// Expected values restate seed 001 (Systems 1 and 2) and rye-reference §2.2–2.3.
describe("System 1: ${VAR}", () => {
  const env = { HOME: "/home/u", EMPTY: "", lower: "low" };

  it("expands upper-case names with defaults; missing is empty; a set empty value beats the default", () => {
    expect(expandEnvVars("${HOME}/x ${MISSING}|${MISSING:-d}|${EMPTY:-d}", env)).toBe("/home/u/x |d|");
  });

  it("leaves lower-case, dotted, bare and bash-style forms alone", () => {
    expect(expandEnvVars("${lower} ${state.x} $HOME ${X-d} ${A :-x}", env)).toBe("${lower} ${state.x} $HOME ${X-d} ${A :-x}");
  });

  it("does not nest defaults and has no $$ escape", () => {
    expect(expandEnvVars("${M:-${HOME}}", env)).toBe("${HOME}");
    expect(expandEnvVars("$${HOME}", env)).toBe("$/home/u");
  });

  it("quotes like shlex.quote, only for values with shell metacharacters, only when asked", () => {
    const config = { a: "${V}", b: ["${S}"], c: { d: "x ${Q}" } };
    const vars = { V: "a; rm -rf /", S: "plain words", Q: "it's $x" };
    expect(expandEnvDeep(config, vars, { shellQuote: true })).toEqual({
      a: "'a; rm -rf /'",
      b: ["plain words"],
      c: { d: `x 'it'"'"'s $x'` },
    });
    // decisions.md #10: with no shell the value is passed verbatim.
    expect(expandEnvDeep(config, vars, { shellQuote: false })).toEqual({ a: "a; rm -rf /", b: ["plain words"], c: { d: "x it's $x" } });
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("safe/path-1.0:x=y,z@%+")).toBe("safe/path-1.0:x=y,z@%+");
  });
});

describe("System 2: {param}", () => {
  it("keeps the type of a whole-string placeholder (after strip) and str()s mixed ones", () => {
    const params = { n: 300, list: ["a", 1], flag: false, none: null };
    expect(substituteParamsDeep({ a: "{n}", b: " {n} ", c: "t={n}", d: "{list}", e: "x{list}", f: "{flag}", g: "[{none}]" }, params)).toEqual({
      a: 300,
      b: 300,
      c: "t=300",
      d: ["a", 1],
      e: "x['a', 1]",
      f: false,
      g: "[None]",
    });
  });

  it("leaves missing names, {{a}} and JSON-looking text unchanged", () => {
    expect(substituteParamsDeep(["{missing}", "{{a}}", '{"k": {a}}', "{input:x}"], { a: 1 })).toEqual(["{missing}", "{{a}}", '{"k": {a}}', "{input:x}"]);
  });

  it("resolves config self-references for at most 3 passes", () => {
    expect(substituteConfigParams({ a: "{b}", b: "{c}", c: "{d}", d: "end" })).toEqual({ a: "end", b: "end", c: "end", d: "end" });
    // Each pass reads the previous pass's values, so pass k reaches 2^k - 1 hops: 7 resolve, 8 do not.
    const hops = (n: number) => Object.fromEntries(Array.from({ length: n + 1 }, (_, i) => [`k${i}`, i === n ? "end" : `{k${i + 1}}`]));
    expect(substituteConfigParams(hops(7)).k0).toBe("end");
    expect(substituteConfigParams(hops(8)).k0).toBe("{k8}");
  });

  it("runs pass 1 before pass 2", () => {
    expect(templateConfig({ user: "${USER}", greeting: "Hello {user}" }, { USER: "alice" }, { shellQuote: false })).toEqual({
      user: "alice",
      greeting: "Hello alice",
    });
  });

  it("_template_string: word names only, None drops, other non-strings raise", () => {
    expect(templateString("{tool_dir}/lib:{runtime_lib}:{a-b}", { tool_dir: "/t", runtime_lib: "/r" })).toBe("/t/lib:/r:{a-b}");
    expect(templateString("x{n}", { n: null })).toBe("x");
    expect(() => templateString("a{n}", { n: 5 })).toThrow(new TypeError("sequence item 1: expected str instance, int found"));
    expect(templateDeep({ p: ["{a}"], n: 1 }, { a: "A" })).toEqual({ p: ["A"], n: 1 });
  });

  it("_template_params: always str(), falsy passes, other non-strings raise", () => {
    expect(templateParams("--x={x} {y}", { x: true })).toBe("--x=True {y}");
    expect(templateParams("", { a: 1 })).toBe("");
    expect(templateParams(0, {})).toBe(0);
    expect(() => templateParams(5, {})).toThrow(new TypeError("expected string or bytes-like object, got 'int'"));
  });
});

describe("execute primitive stages", () => {
  it("expands env (OS env under config env) then params in command, args, cwd and input_data", () => {
    const t = templateExecStages(
      { command: "${PY:-python3}", args: ["{tool_path}", "${HOME}", "{p}"], cwd: "{project_path}", input_data: "{params_json}", env: { PY: "/bin/py" } },
      { tool_path: "/t.py", project_path: "/p", params_json: '{"a": 1}', p: "${HOME}" },
      { HOME: "/h" },
    );
    expect(t).toMatchObject({ command: "/bin/py", args: ["/t.py", "/h", "${HOME}"], cwd: "/p", input_data: '{"a": 1}' });
    expect(t.env).toEqual({ HOME: "/h", PY: "/bin/py" });
  });
});
