import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileAgentConfig } from "../../src/agents/agent-config.js";
import { buildArgv } from "../../src/runtime/agents/launch-agent.js";
import { checkInputTypes, validateInputs } from "../../src/runtime/validate.js";
import type { SourceFile } from "../../src/index.js";
import { compileToDir, importDirective, source } from "../helpers/compile.js";
import { STRICT, ts } from "../helpers/strict-tsc.js";

// Names are names: inputs, input types, CONFIG_SCHEMA keys and types, placeholders and agent names
// drawn from Object.prototype's own property names are looked up as own properties everywhere.
const PROTO = Object.getOwnPropertyNames(Object.prototype);
const names = fc.uniqueArray(fc.constantFrom(...PROTO), { minLength: 1, maxLength: 4 });

function directive(inputs: { name: string; type: string }[]): SourceFile {
  const declared = inputs.map((i) => `    <input name="${i.name}" type="${i.type}" required="true">the ${i.name}</input>`).join("\n");
  const body = inputs.map((i) => `${i.name}=[{input:${i.name}}]`).join(" ");
  return source("t/proto", `# Proto\n\n\`\`\`xml\n<directive name="proto" version="1.0.0">\n  <metadata>\n    <description>d</description>\n    <category>t</category>\n    <author>a</author>\n  </metadata>\n  <inputs>\n${declared}\n  </inputs>\n</directive>\n\`\`\`\n\n${body}\n`);
}

function tool(keys: string[]): SourceFile[] {
  const props = keys.map((k) => `"${k}": {"type": "${k}"}`).join(", ");
  return [
    { kind: "tool", id: "rye/core/primitives/execute", path: ".ai/tools/rye/core/primitives/execute.yaml", ext: ".yaml", text: "tool_type: primitive\nexecutor_id: null\n" },
    { kind: "tool", id: "t/proto_tool", path: ".ai/tools/t/proto_tool.py", ext: ".py", text: `__tool_type__ = "python"\n__executor_id__ = "rye/core/primitives/execute"\nCONFIG_SCHEMA = {"type": "object", "properties": {${props}}, "required": ${JSON.stringify(keys)}}\nCONFIG = {"command": "true"}\n` },
  ];
}

/** The emitted declarations and TypeScript sources of the compiled items and the registry that types them (not the runtime's). */
const emitted = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => (/^(directives|tools|ts)\//.test(f) || f === "index.d.ts") && f.endsWith(".ts"));
const declarations = (dir: string) => emitted(dir).filter((f) => f.endsWith(".d.ts")).map((f) => readFileSync(join(dir, f), "utf8")).join("\n");

describe("Object.prototype's names as names", () => {
  it("property: as input names and types — RYE2009 for the type, `unknown` in .d.ts, validate and render by own key", async () => {
    await fc.assert(
      fc.asyncProperty(names, names, async (inputNames, typeNames) => {
        const inputs = inputNames.map((name, i) => ({ name, type: typeNames[i % typeNames.length]! }));
        const { dir, result } = compileToDir([directive(inputs)]);
        expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        const unknownTypes = result.diagnostics.filter((d) => d.code === "RYE2009");
        expect(unknownTypes).toHaveLength(inputs.length);
        const dts = declarations(dir);
        expect(dts).not.toMatch(/native code/);
        for (const i of inputs) expect(dts).toMatch(new RegExp(`(^|\\s|\\[)("?${i.name}"?\\]?): unknown;`, "m"));
        const mod = await importDirective(dir, "t/proto");
        const values = Object.fromEntries(inputs.map((i) => [i.name, `v-${i.name}`]));
        const given = JSON.parse(JSON.stringify(values)) as Record<string, unknown>;
        const checked = mod.validate(given);
        expect(checked.status).toBe("success");
        const rendered = JSON.stringify(mod.render(given));
        for (const i of inputs) expect(rendered).toContain(`${i.name}=[v-${i.name}]`);
      }),
      { numRuns: 12 },
    );
  }, 20_000);

  // The original keeps every XML attribute in a dict: with `<model tier="general" __proto__="polluted"
  // constructor="c" />`, rye_oracle.py's parse gives the model {'tier': 'general', '__proto__':
  // 'polluted', 'constructor': 'c'}, in that order.
  it("as XML attribute names: own keys of the module's metadata, in their order, no prototype set", async () => {
    const text = `# Proto\n\n\`\`\`xml\n<directive name="proto" version="1.0.0">\n  <metadata>\n    <description>d</description>\n    <category>t</category>\n    <author>a</author>\n    <model tier="general" __proto__="polluted" constructor="c" />\n  </metadata>\n</directive>\n\`\`\`\n\nBody.\n`;
    const { dir, result } = compileToDir([source("t/proto", text)]);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const model = (await importDirective(dir, "t/proto")).metadata.model;
    expect(Object.keys(model)).toEqual(["tier", "__proto__", "constructor"]);
    expect(Object.getOwnPropertyDescriptor(model, "__proto__")?.value).toBe("polluted");
    expect(Object.getPrototypeOf(model)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("the runtime's validation treats them as names: missing, unknown and type checks", () => {
    const declared = PROTO.map((name) => ({ name, type: name, required: true }));
    expect(validateInputs(declared, {})).toMatchObject({ status: "error", error: `Missing required inputs: ${PROTO.join(", ")}` });
    const all = JSON.parse(JSON.stringify(Object.fromEntries(PROTO.map((n) => [n, 1])))) as Record<string, unknown>;
    const ok = validateInputs(declared, all);
    expect(ok.status).toBe("success");
    expect(Object.getPrototypeOf((ok as { inputs: object }).inputs)).toBe(Object.prototype);
    expect(checkInputTypes(declared, all)).toEqual([]);
    const defaulted = validateInputs([{ name: "__proto__", default: "d" }], {});
    expect(Object.hasOwn((defaulted as { inputs: object }).inputs, "__proto__")).toBe(true);
  });

  it("as CONFIG_SCHEMA keys and types, and in a directive: every emitted declaration parses as TypeScript", () => {
    const { dir, result } = compileToDir([directive(PROTO.map((name) => ({ name, type: name }))), ...tool(PROTO)]);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.tools).toEqual(["t/proto_tool"]);
    const files = emitted(dir);
    expect(files.filter((f) => f.startsWith("tools/"))).not.toEqual([]);
    expect(declarations(dir)).not.toMatch(/native code/);
    // The bug this guards against wrote `function Object() { [native code] }` as a type: a syntax error.
    const program = ts.createProgram(files.map((f) => join(dir, f)), { ...STRICT, noResolve: true });
    const syntax = files.flatMap((f) => program.getSyntacticDiagnostics(program.getSourceFile(join(dir, f))).map((x) => `${f}: ${ts.flattenDiagnosticMessageText(x.messageText, "\n")}`));
    expect(syntax).toEqual([]);
    expect(declarations(dir)).toMatch(/"?constructor"?: unknown;/);
  });

  it("as agent names and command placeholders: entries of their own, placeholders left as text", () => {
    const toml = PROTO.map((n) => `[agents.${n}]\nbin = "agent-${n}"\ncommand = "{bin} -p {${n}}{prompt}"\n`).join("\n");
    const { config, diagnostics } = compileAgentConfig(toml, "agents.toml");
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(Object.keys(config!.agents)).toEqual(PROTO);
    for (const n of PROTO) {
      expect(Object.hasOwn(config!.agents, n)).toBe(true);
      const built = buildArgv(config!.agents[n]!.command, { bin: config!.agents[n]!.bin, prompt: "hi", model: "m", role: "r" });
      expect(built).toEqual({ file: `agent-${n}`, args: ["-p", `{${n}}hi`], env: {} });
    }
    expect(Object.hasOwn(compileAgentConfig("[roles.x]\nprompt = '{constructor}'\n", "a.toml").config!.agents, "constructor")).toBe(false);
  });
});
