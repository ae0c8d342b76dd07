import { codeFrameColumns } from "@babel/code-frame";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeFrame } from "../../src/diagnostics/code-frame.js";

// The frames under diagnostics keep the layout of @babel/code-frame (a devDependency now, the
// reference here): the same text for every position, line breaks of every kind, tabs and empty lines.
const babel = (text: string, line: number, column: number, endColumn?: number) =>
  codeFrameColumns(text, { start: { line, column }, end: endColumn === undefined ? undefined : { line, column: endColumn } }, { highlightCode: false, linesAbove: 1, linesBelow: 1 });

const PIECES = ["\n", "\r\n", "\r", "\u2028", "\u2029", "\t", " ", "a", "word", "{input:x}", "é", ""];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((a) => a.join(""));

describe("codeFrame", () => {
  it("prints what @babel/code-frame prints, for any line, column and end column", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 25 }), fc.integer({ min: 0, max: 12 }), fc.option(fc.integer({ min: 0, max: 14 }), { nil: undefined }), (t, line, column, end) => {
        // The formatter passes an end column only when it lies past the start on the same line.
        const endColumn = end !== undefined && end > column ? end : undefined;
        expect(codeFrame(t, line, column, endColumn)).toBe(babel(t, line, column, endColumn));
      }),
      { numRuns: 3000 },
    );
  });

  it("puts the carets under the span, with a gutter as wide as the last line number shown", () => {
    const t = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n\televen";
    expect(codeFrame(t, 11, 3, 5)).toBe("  10 | ten\n> 11 | \televen\n     | \t ^^");
    expect(codeFrame(t, 2, 1)).toBe("  1 | one\n> 2 | two\n    | ^\n  3 | three");
  });

  it("reads each text anew when the file changes between frames", () => {
    expect(codeFrame("a\nb", 2, 1)).toContain("> 2 | b");
    expect(codeFrame("x\ny", 2, 1)).toContain("> 2 | y");
  });
});
