import { codeFrameColumns } from "@babel/code-frame";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeFrame, FRAME_WIDTH } from "../../src/diagnostics/code-frame.js";

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

  it("cuts a line longer than FRAME_WIDTH around the column, marks the cuts, and keeps the carets exact", () => {
    const t = `before\n${"a".repeat(1000)}BAD${"b".repeat(1000)}\nafter`;
    const shown = `…${"a".repeat(40)}BAD${"b".repeat(117)}…`;
    expect(codeFrame(t, 2, 1001, 1004)).toBe(`  1 | before\n> 2 | ${shown}\n    |  ${" ".repeat(40)}^^^\n  3 | after`);
    // At the start and at the end of the line only the far side is cut.
    expect(codeFrame(t, 2, 1)).toBe(`  1 | before\n> 2 | ${"a".repeat(160)}…\n    | ^\n  3 | after`);
    expect(codeFrame(t, 2, 2004)).toBe(`  1 | before\n> 2 | …${"b".repeat(160)}\n    |  ${" ".repeat(160)}^\n  3 | after`);
  });

  it("shows the source character under the caret, and at most FRAME_WIDTH characters of any line", () => {
    const LONG = ["a", "bc", "\t", " ", "é", "{input:x}", "x".repeat(50)];
    const longText = fc.tuple(fc.array(fc.constantFrom(...LONG), { minLength: 1, maxLength: 80 }), fc.array(fc.constantFrom(...LONG), { maxLength: 80 }));
    fc.assert(
      fc.property(longText, fc.nat(), fc.nat({ max: 400 }), ([focus, next], c, span) => {
        const line = focus.join("");
        const t = `${line}\n${next.join("")}`;
        const column = (c % (line.length + 1)) + 1;
        const frame = codeFrame(t, 1, column, column + span + 1).split("\n");
        for (const row of frame.filter((r) => !/^ +\| [ \t]*\^+$/.test(r))) expect(row.replace(/^[> ] \d \| ?/, "").length).toBeLessThanOrEqual(FRAME_WIDTH + 2);
        const shown = frame[0]!.replace(/^> 1 \| ?/, "");
        const caretRow = frame[1]!.replace(/^ {4}\| ?/, "");
        const at = caretRow.indexOf("^");
        expect(shown.slice(at, at + 1)).toBe(line.slice(column - 1, column));
        const carets = caretRow.length - at;
        expect(shown.slice(at, at + carets)).toBe(line.slice(column - 1, column - 1 + carets));
        expect(carets).toBe(line.length <= FRAME_WIDTH ? span + 1 : Math.max(1, Math.min(span + 1, shown.replace(/…$/, "").length - at)));
      }),
      { numRuns: 2000 },
    );
  });
});
