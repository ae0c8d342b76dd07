// The module text table: every expression it hands out evaluates, after its declarations, to exactly
// the string asked for (astral characters, line separators and quotes included), and the item's
// text is declared once however many pieces are taken from it.
import { describe, expect, it } from "vitest";
import { slices } from "../../src/runtime/directive.js";
import { TextTable } from "../../src/emit/text-table.js";
import { template } from "../../src/emit/escape.js";

const SOURCE = `# Title 😀 with "quotes" and a \u2028 line separator\n\n<permissions>\n  <execute>*</execute>\n</permissions>\n\nThe body: a long paragraph that a module needs in raw, content, body and prompt alike.\n`;

/** Evaluates `expressions` after the table's declarations, as a module would. */
function evaluate(table: TextTable, expressions: string[]): string[] {
  const code = `${table.declarations()}${table.joined()}return [${expressions.join(", ")}];`;
  return new Function("slices", code)(slices) as string[];
}

describe.each([false, true])("TextTable (compact %s)", (compact) => {
  it("gives back every string exactly, from slices of the source where it is found", () => {
    const table = new TextTable(SOURCE, compact);
    const wanted = [
      SOURCE,
      SOURCE.slice(0, 40),
      "<permissions>\n  <execute>*</execute>\n</permissions>",
      SOURCE.slice(SOURCE.indexOf("😀") + 1, SOURCE.indexOf("The body")),
      "short",
      "a string of some length that the source does not hold",
    ];
    const joined = ["<directive>\n", "<permissions>\n  <execute>*</execute>\n</permissions>", "\n", "closing text not in the source"];
    const expressions = [...wanted.map((s) => table.text(s)), table.join(joined)];
    expect(evaluate(table, expressions)).toEqual([...wanted, joined.join("")]);
    // The source once; the same text asked again is the same constant.
    const code = table.declarations();
    expect(code.split(template(SOURCE.slice(0, 20)).slice(1, -1)).length - 1).toBe(1);
    expect(table.text(wanted[2]!)).toBe(expressions[2]);
    expect(code).not.toMatch(/[\u2028\u2029]/);
    expect(table.usesSlices()).toBe(compact);
  });

  it("declares nothing when every string is short", () => {
    const table = new TextTable(SOURCE, compact);
    expect(table.text("# Title")).toBe('"# Title"');
    expect(table.declarations()).toBe("");
  });

  it("writes a string the module computes as the expression given for it, also inside a join", () => {
    const table = new TextTable(SOURCE, compact);
    const open = "<directive name=\"x\">\n<description>not in the source at all</description>";
    table.known(open, "OPEN");
    const joined = table.join([open, "\n", "<permissions>\n  <execute>*</execute>\n</permissions>"]);
    const code = `${table.declarations()}${table.joined()}return ${joined};`;
    expect(code).toContain("OPEN+");
    expect(new Function("slices", "OPEN", code)(slices, open)).toBe(`${open}\n<permissions>\n  <execute>*</execute>\n</permissions>`);
    expect(table.join([open])).toBe("OPEN");
  });
});
