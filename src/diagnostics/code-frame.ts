// The source lines printed under a diagnostic: the line it points at between its neighbours, a
// numbered gutter, and carets under the span, laid out as @babel/code-frame lays out
// `codeFrameColumns(text, loc, { linesAbove: 1, linesBelow: 1 })` without highlighting
// (test/diagnostics/code-frame.test.ts holds them to the same text). A build that repeats its
// stored warnings prints hundreds of frames from a few files, so each file's text is split into
// lines once, not once per frame.

const NEWLINE = /\r\n|[\n\r\u2028\u2029]/;

let lastText: string | undefined;
let lastLines: string[] = [];

/** The lines of `text` as frames number them. */
export const frameLines = (text: string): string[] => text.split(NEWLINE);

/** Diagnostics come sorted by file: remembering the last file's lines is enough. */
function linesOf(text: string): string[] {
  if (text !== lastText) {
    lastText = text;
    lastLines = frameLines(text);
  }
  return lastLines;
}

/** The widest a frame shows a line: a longer line is cut to this many characters around the column, as tsc and rustc do. */
export const FRAME_WIDTH = 160;
/** Characters of the line a cut frame keeps before the column. */
const LEAD = 40;
const ELLIPSIS = "…";

/** The part of `source` a frame shows when it is cut at `from`: at most FRAME_WIDTH characters, marked where cut. */
function shownPart(source: string, from: number): { text: string; from: number } {
  if (source.length <= FRAME_WIDTH) return { text: source, from: 0 };
  const start = Math.min(from, source.length - FRAME_WIDTH);
  const end = start + FRAME_WIDTH;
  return { text: `${start > 0 ? ELLIPSIS : ""}${source.slice(start, end)}${end < source.length ? ELLIPSIS : ""}`, from: start };
}

/**
 * The frame around 1-based `line` and `column`; carets run to `endColumn` (exclusive) when it is
 * on the same line past `column`, else one caret (none at column 0). A line longer than
 * FRAME_WIDTH shows only the part around the column, so one frame's size is bounded whatever the
 * line's length (thousands of diagnostics on one long line would otherwise print it each time).
 */
export function codeFrame(text: string, line: number, column: number, endColumn?: number): string {
  const lines = linesOf(text);
  const first = Math.max(line - 2, 0);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const carets = endColumn !== undefined && endColumn > column ? endColumn - column : column ? 1 : 0;
  const at = Math.max(column - 1, 0);
  const cut = Math.max(at - LEAD, 0);
  const out: string[] = [];
  for (let n = first + 1; n <= last; n++) {
    const source = lines[n - 1]!;
    const part = shownPart(source, cut);
    const gutter = ` ${` ${n}`.slice(-width)} |`;
    const shown = part.text.length > 0 ? ` ${part.text}` : "";
    if (n !== line) {
      out.push(` ${gutter}${shown}`);
      continue;
    }
    const spacing = `${part.from > 0 ? " " : ""}${source.slice(part.from, at).replace(/[^\t]/g, " ")}`;
    // Carets stop where the shown part of the line does (one at least, under the column).
    const visible = part.from + FRAME_WIDTH - at;
    const count = source.length > FRAME_WIDTH && carets > visible ? Math.max(visible, 1) : carets;
    const marker = count > 0 ? `\n ${gutter.replace(/\d/g, " ")} ${spacing}${"^".repeat(count)}` : "";
    out.push(`>${gutter}${shown}${marker}`);
  }
  return out.join("\n");
}
