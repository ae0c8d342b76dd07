// Every diagnostic's line and column come from LineIndex: for any text and offset they must be what
// counting the newlines before the offset gives.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LineIndex } from "../../src/diagnostics/diagnostic.js";

function counted(text: string, offset: number): { offset: number; line: number; column: number } {
  const before = text.slice(0, offset);
  const lastNewline = before.lastIndexOf("\n");
  return { offset, line: before.split("\n").length, column: offset - lastNewline };
}

describe("LineIndex", () => {
  test("gives the line and column of every offset, with newlines anywhere (first, last, doubled, \\r before them)", () => {
    const text = fc.array(fc.constantFrom("a", "é", "😀", "\n", "\r", " "), { maxLength: 60 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(text, (t) => {
        const index = new LineIndex(t);
        for (let offset = 0; offset <= t.length; offset++) expect(index.position(offset)).toEqual(counted(t, offset));
      }),
      { numRuns: 500 },
    );
  });

  test("places a location's start and end", () => {
    expect(new LineIndex("ab\ncd\n").location("x.md", 1, 4)).toEqual({ source: "x.md", start: { offset: 1, line: 1, column: 2 }, end: { offset: 4, line: 2, column: 2 } });
  });
});
