// Near misses of what the original reads: each is one diagnostic with a did-you-mean, a warning where
// the original accepts the text and an error where a placeholder would then fail.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { build, type SourceFile } from "../../src/index.js";
import { readProject } from "../../src/project/read-project.js";
import { source } from "../helpers/compile.js";
import { SHARED_DIR, SHARED_SKIP_REASON, hasShared } from "../helpers/shared.js";

const INSTRUCTION: SourceFile = {
  kind: "knowledge",
  id: "rye/agent/core/DirectiveInstruction",
  path: ".ai/knowledge/rye/agent/core/DirectiveInstruction.md",
  text: "```yaml\nname: DirectiveInstruction\n```\n\nFollow the directive.\n",
};
const directive = (xml: string, body: string) =>
  source("app/note", `# note\n\n\`\`\`xml\n<directive name="note" version="1.0.0">\n  <metadata>\n    <description>Notes.</description>\n  </metadata>\n${xml}\n</directive>\n\`\`\`\n\n${body}\n`);
const found = (...sources: SourceFile[]) =>
  build([...sources, INSTRUCTION], "test").diagnostics.filter((d) => d.severity !== "info").map((d) => ({ code: d.code, severity: d.severity, message: d.message, line: d.loc?.start.line, column: d.loc?.start.column }));
const INPUT = `<input name="topic" type="string" required="true">The topic.</input>`;

describe("markup the original never reads", () => {
  test("a misspelt <inputs> is one error at the element, not an undeclared-input error per reference", () => {
    const result = found(directive(`  <inptu>\n    ${INPUT}\n  </inptu>`, "Write about {input:topic}, only {input:topic}."));
    expect(result).toEqual([expect.objectContaining({ code: "RYE2015", severity: "error", line: 8, column: 4 })]);
    expect(result[0]!.message).toMatch(/<inptu> is never read: did you mean <inputs>\? So 'topic' is not declared/);
    expect(found(directive(`  <inputs>\n    ${INPUT}\n  </inputs>`, "Write about {input:topic}, only {input:topic}."))).toEqual([]);
  });

  test("a misspelt element that hides nothing the body uses is a warning", () => {
    const result = found(directive(`  <inputs>\n    ${INPUT}\n  </inputs>\n  <outptus><output name="x">X</output></outptus>`, "Write about {input:topic}."));
    expect(result).toEqual([expect.objectContaining({ code: "RYE2015", severity: "warning", line: 11, column: 4 })]);
    expect(result[0]!.message).toMatch(/did you mean <outputs>\?/);
  });

  test("<inputs> inside <metadata> is named as misplaced", () => {
    const text = directive("", "Write about {input:topic}.").text.replace("  </metadata>", `    <inputs>${INPUT}</inputs>\n  </metadata>`);
    const result = found({ ...directive("", ""), text });
    expect(result.map((r) => r.code)).toEqual(["RYE2015"]);
    expect(result[0]!.severity).toBe("error");
    expect(result[0]!.message).toMatch(/read as an empty text field\. Move it out of <metadata>/);
  });

  test("a misspelt attribute is named with the one it meant; an unknown one lists the known", () => {
    const typo = found(directive(`  <inputs>\n    <input name="topic" tpye="string" required="true">T</input>\n  </inputs>`, "{input:topic}"));
    expect(typo).toEqual([expect.objectContaining({ code: "RYE2015", severity: "warning", line: 9, column: 25 })]);
    expect(typo[0]!.message).toMatch(/did you mean type="…"\?/);
    const other = found(directive(`  <inputs>\n    <input name="topic" hint="x" required="true">T</input>\n  </inputs>`, "{input:topic}"));
    expect(other[0]!.message).toMatch(/<input> has only name, type, required, default/);
  });

  test("an unknown metadata child is kept by the original; only a near miss of a known one is reported", () => {
    const meta = (tag: string) => directive("", "Hello.").text.replace("  </metadata>", `    <${tag}>x</${tag}>\n  </metadata>`);
    expect(found({ ...directive("", ""), text: meta("owner") })).toEqual([]);
    expect(found({ ...directive("", ""), text: meta("categroy") }).map((r) => r.message)).toEqual([expect.stringMatching(/did you mean <category>\?/)]);
  });

  test("<success> and <failure> in <outputs> stay silent, as the corpus uses them", () => {
    expect(found(directive("  <outputs>\n    <success>Done.</success>\n    <failure>Not done.</failure>\n  </outputs>", "Go."))).toEqual([]);
  });
});

describe("values the original reads as false", () => {
  test.each(["yes", "1", "required", "True "])('required="%s" is a warning that the input is optional', (value) => {
    const result = found(directive(`  <inputs>\n    <input name="topic" type="string" required="${value}">T</input>\n  </inputs>`, "{input:topic}"));
    expect(result).toEqual([expect.objectContaining({ code: "RYE2016", line: 9, column: 39 })]);
  });
  test.each(["true", "TRUE", "false", "False"])('required="%s" is fine', (value) => {
    expect(found(directive(`  <inputs>\n    <input name="topic" type="string" required="${value}">T</input>\n  </inputs>`, "{input:topic}"))).toEqual([]);
  });
});

describe("placeholder kinds one edit away", () => {
  const inputs = `  <inputs>\n    ${INPUT}\n  </inputs>`;
  test.each([
    ["{inptu:topic}", "{input:topic}"],
    ["{inputs:topic}", "{input:topic}"],
    ["{Input:topic}", "{input:topic}"],
    ["{ENV:HOME}", "{env:HOME}"],
  ])("%s is one warning suggesting %s, and the input it meant is not also unused", (raw, fixed) => {
    const body = raw.includes("topic") ? `Write about ${raw}.` : `Write about {input:topic} in ${raw}.`;
    const result = found(directive(inputs, body));
    expect(result).toEqual([expect.objectContaining({ code: "RYE2017", severity: "warning", line: 14 })]);
    expect(result[0]!.message).toContain(`Did you mean '${fixed}'?`);
    expect(found(directive(inputs, body.replace(raw, fixed))).filter((r) => r.severity !== "info" && r.code !== "RYE2010")).toEqual([]);
  });
  test("words that are no near miss stay silent", () => {
    expect(found(directive(inputs, "Write about {input:topic} at {time:12} with {output:x}."))).toEqual([]);
  });
});

describe("literal call parameters of the wrong type", () => {
  const tool: SourceFile = {
    kind: "tool",
    id: "git/log",
    path: ".ai/tools/git/log.py",
    ext: ".py",
    text: `__tool_type__ = "python"\nCONFIG_SCHEMA = {"type": "object", "properties": {"max": {"type": "integer"}, "path": {"type": ["string", "null"]}, "all": {"type": "boolean"}}}\n`,
  };
  const call = (params: string) => directive("", `\`rye_execute(item_type="tool", item_id="git/log", parameters={${params}})\``);
  const codes = (params: string) => found(tool, call(params)).filter((r) => r.code.startsWith("RYE6")).map((r) => `${r.code} ${r.message}`);
  test("a string for an integer, a number for a boolean, a list for a string are each a warning", () => {
    expect(codes(`"max": "forty"`)).toEqual(["RYE6008 Parameter 'max' of tool 'git/log' is declared as an integer in its CONFIG_SCHEMA, but this call passes a string."]);
    expect(codes(`"all": 1`)).toEqual([expect.stringMatching(/^RYE6008 .*as a boolean.*passes a number\.$/)]);
    expect(codes(`"path": ["a"]`)).toEqual([expect.stringMatching(/^RYE6008 .*as a string or None.*passes a list\.$/)]);
    expect(codes(`"max": 2.5`)).toEqual([expect.stringMatching(/^RYE6008 /)]);
  });
  test("values of the right type, None where null is allowed, and values filled in at run time pass", () => {
    expect(codes(`"max": 40, "path": None, "all": True`)).toEqual([]);
    expect(codes(`"max": {input:n}, "path": <the path>`)).toEqual([]);
  });
});

describe("literal call parameters of the wrong type for a directive's inputs", () => {
  const callee = source(
    "app/estimate",
    `# estimate\n\n\`\`\`xml\n<directive name="estimate" version="1.0.0">\n  <metadata>\n    <description>E.</description>\n  </metadata>\n  <inputs>\n    <input name="days" type="integer" required="true">D</input>\n    <input name="tags" type="array" required="false">T</input>\n    <input name="note" type="text" required="false">N</input>\n  </inputs>\n</directive>\n\`\`\`\n\n{input:days} {input:tags?} {input:note?}\n`,
  );
  const call = (params: string) => directive("", `\`rye_execute(item_type="directive", item_id="app/estimate", parameters={${params}})\``);
  const codes = (params: string) => found(callee, call(params)).filter((r) => r.code.startsWith("RYE6")).map((r) => `${r.code} ${r.severity} ${r.message}`);
  test("are an error, as the directive refuses them when called", () => {
    expect(codes(`"days": "five"`)).toEqual(["RYE6009 error Input 'days' of directive 'app/estimate' is declared as an integer, but this call passes a string, which the directive refuses when called."]);
    expect(codes(`"days": 5, "tags": "a,b"`)).toEqual([expect.stringMatching(/^RYE6009 error .*as a list, but this call passes a string/)]);
  });
  test("values of the declared type, filled in at run time, or for an unknown type pass", () => {
    expect(codes(`"days": 5, "tags": ["a"]`)).toEqual([]);
    expect(codes(`"days": {input:n}, "tags": <the tags>`)).toEqual([]);
    // Text holding a placeholder is the caller's value once the model writes the call: its type is not known.
    expect(codes(`"days": "{input:n}", "tags": "{input:t:a,b}"`)).toEqual([]);
    expect(codes(`"days": "\${inputs.n}"`)).toEqual([]);
    expect(codes(`"days": 5, "note": 3`).filter((c) => c.startsWith("RYE6"))).toEqual([]);
  });
});

describe.skipIf(!hasShared)("the corpus", () => {
  test("none of the near-miss checks fires on the original's own directives", () => {
    for (const bundle of ["rye-2026-02/system", "rye-2026-04/core", "rye-2026-04/standard", "rye-2026-04/code", "rye-2026-04/email", "rye-2026-04/web"]) {
      // Tools too: their CONFIG_SCHEMA is what RYE6008 checks calls against.
      const { sources } = readProject(join(SHARED_DIR, "corpus", bundle));
      const codes = build(sources, "test").diagnostics.map((d) => d.code);
      expect(codes.filter((c) => ["RYE2015", "RYE2016", "RYE2017", "RYE6008", "RYE6009"].includes(c)), bundle).toEqual([]);
    }
  });
});
if (!hasShared) console.log(SHARED_SKIP_REASON);
