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

/**
 * The frame around 1-based `line` and `column`; carets run to `endColumn` (exclusive) when it is
 * on the same line past `column`, else one caret (none at column 0).
 */
export function codeFrame(text: string, line: number, column: number, endColumn?: number): string {
  const lines = linesOf(text);
  const first = Math.max(line - 2, 0);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const carets = endColumn !== undefined && endColumn > column ? endColumn - column : column ? 1 : 0;
  const out: string[] = [];
  for (let n = first + 1; n <= last; n++) {
    const source = lines[n - 1]!;
    const gutter = ` ${` ${n}`.slice(-width)} |`;
    const shown = source.length > 0 ? ` ${source}` : "";
    if (n !== line) {
      out.push(` ${gutter}${shown}`);
      continue;
    }
    const spacing = source.slice(0, Math.max(column - 1, 0)).replace(/[^\t]/g, " ");
    const marker = carets > 0 ? `\n ${gutter.replace(/\d/g, " ")} ${spacing}${"^".repeat(carets)}` : "";
    out.push(`>${gutter}${shown}${marker}`);
  }
  return out.join("\n");
}
