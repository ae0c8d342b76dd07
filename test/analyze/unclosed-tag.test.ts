// A removed end tag is one diagnostic naming the element left open and where it opened; the
// parse result's error keeps expat's wording, as the original reports it.
import { describe, expect, test } from "vitest";
import { build } from "../../src/index.js";
import { parseDirective } from "../../src/parse/parse-directive.js";
import { source } from "../helpers/compile.js";

const TEXT = `# note

\`\`\`xml
<directive name="note" version="1.0.0">
  <metadata>
    <description>Notes.</description>
  </metadata>
  <inputs>
    <input name="topic" type="string" required="true">The topic.</input>
</directive>
\`\`\`

Write about {input:topic}.
`;

describe("an element left open", () => {
  test("is named, with the line and column of its start tag, at the end tag that does not match it", () => {
    const { diagnostics } = build([source("app/note", TEXT)], "test");
    const errors = diagnostics.filter((d) => d.severity !== "info" && d.code !== "RYE3008");
    expect(errors.map((d) => [d.code, d.loc?.start.line, d.loc?.start.column])).toEqual([["RYE1002", 10, 3]]);
    expect(errors[0]!.message).toBe(
      "Invalid XML in the metadata fence: mismatched tag: <inputs> (opened at line 8, column 3) is never closed, so </directive> does not match it. Add </inputs> where the content of <inputs> ends.",
    );
    expect(parseDirective(TEXT, "note.md").result.error).toBe("Invalid XML: mismatched tag: line 7, column 2");
  });

  test("applying the advice builds clean", () => {
    const fixed = TEXT.replace("</input>\n", "</input>\n  </inputs>\n");
    expect(build([source("app/note", fixed)], "test").diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  test("a nested element left open is the one named", () => {
    const text = TEXT.replace("<description>Notes.</description>", "<description>Notes.");
    const d = build([source("app/note", text)], "test").diagnostics.find((x) => x.code === "RYE1002");
    expect(d?.message).toMatch(/<description> \(opened at line 6, column 5\) is never closed, so <\/metadata> does not match it/);
  });
});
