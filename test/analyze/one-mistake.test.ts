// One mistake, one diagnostic: what follows from an error already reported is not reported again.
// Each case also applies the fix the diagnostic suggests and checks that the build is then clean.
import { describe, expect, test } from "vitest";
import { build, type SourceFile } from "../../src/index.js";
import { source } from "../helpers/compile.js";

const INSTRUCTION: SourceFile = {
  kind: "knowledge",
  id: "rye/agent/core/DirectiveInstruction",
  path: ".ai/knowledge/rye/agent/core/DirectiveInstruction.md",
  text: "```yaml\nname: DirectiveInstruction\n```\n\nFollow the directive.\n",
};

const directive = (id: string, inputs: string, body: string, extendsId?: string) =>
  source(
    id,
    `# ${id}\n\n\`\`\`xml\n<directive name="${id.split("/").pop()}" version="1.0.0"${extendsId ? ` extends="${extendsId}"` : ""}>\n  <metadata>\n    <description>For the tests.</description>\n  </metadata>\n  <inputs>\n${inputs}\n  </inputs>\n</directive>\n\`\`\`\n\n<process>\n  ${body}\n</process>\n`,
  );
const input = (name: string, required = true) => `    <input name="${name}" type="string" required="${required}">The ${name}.</input>`;
const codes = (sources: SourceFile[]) => build([...sources, INSTRUCTION], "test").diagnostics.filter((d) => d.severity !== "info").map((d) => `${d.code} ${d.loc?.source}:${d.loc?.start.line}`);

describe("one mistake, one diagnostic", () => {
  test("a misspelt {input:…} is RYE2001 only: the input it meant is not also unused", () => {
    const wrong = directive("app/translate", input("language"), "Translate into {input:langauge}.");
    const found = codes([wrong]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^RYE2001 /);
    expect(build([wrong, INSTRUCTION], "test").diagnostics.find((d) => d.code === "RYE2001")?.message).toMatch(/Did you mean 'language'\?/);
    expect(codes([directive("app/translate", input("language"), "Translate into {input:language}.")])).toEqual([]);
  });

  test("an unused input with no near-miss reference is still RYE2002", () => {
    expect(codes([directive("app/t", input("language"), "Translate into {input:zzzzzzzzzzzz}.")]).map((c) => c.slice(0, 7)).sort()).toEqual(["RYE2001", "RYE2002"]);
  });

  test("a misspelt call parameter is RYE6004 only, not also RYE6003 for the input it meant", () => {
    const callee = directive("app/callee", input("topic"), "Write about {input:topic}.");
    const call = (param: string) => directive("app/caller", "", `\`rye_execute(item_type="directive", item_id="app/callee", parameters={"${param}": "x"})\``);
    expect(codes([callee, call("topci")])).toEqual([expect.stringMatching(/^RYE6004 /)]);
    expect(codes([callee, call("topic")])).toEqual([]);
    // A parameter that is no near miss leaves the required input missing: both are reported.
    expect(codes([callee, call("zzzzzzzzzz")]).map((c) => c.slice(0, 7)).sort()).toEqual(["RYE6003", "RYE6004"]);
  });

  test("an extends cycle is reported once, at one place, listing its members", () => {
    const cycle = [directive("c/a", input("x", false), "A {input:x?}", "c/b"), directive("c/b", input("x", false), "B {input:x?}", "c/c"), directive("c/c", input("x", false), "C {input:x?}", "c/a")];
    const leadingIn = directive("c/outside", input("x", false), "O {input:x?}", "c/b");
    const result = build([...cycle, leadingIn, INSTRUCTION], "test").diagnostics.filter((d) => d.code === "RYE3003");
    expect(result).toHaveLength(1);
    expect(result[0]!.loc?.source).toBe(".ai/directives/c/a.md");
    expect(result[0]!.message).toMatch(/c\/a → c\/b → c\/c → c\/a/);
    // Breaking the cycle where it is reported builds clean.
    const fixed = [directive("c/a", input("x", false), "A {input:x?}"), ...cycle.slice(1), leadingIn];
    expect(codes(fixed)).toEqual([]);
  });
});

describe("the advice fits the mistake", () => {
  const message = (body: string) => build([directive("app/note", input("topic"), `{input:topic} ${body}`), INSTRUCTION], "test").diagnostics.find((d) => d.code === "RYE2001")?.message;
  test("an undeclared optional reference is told to declare an optional input, a plain one a required input", () => {
    expect(message("{input:qqqqqq?}")).toContain('<input name="qqqqqq" type="string" required="false">');
    expect(message("{input:qqqqqq:none}")).toContain('required="false"');
    expect(message("{input:qqqqqq}")).toContain('<input name="qqqqqq" type="string" required="true">');
  });

  test("applying the advice builds clean", () => {
    for (const [ref, required] of [["{input:qqqqqq?}", "false"], ["{input:qqqqqq}", "true"]] as const) {
      const fixed = directive("app/note", `${input("topic")}\n    <input name="qqqqqq" type="string" required="${required}">Q.</input>`, `{input:topic} ${ref}`);
      expect(codes([fixed])).toEqual([]);
    }
  });
});
