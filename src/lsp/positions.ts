// Conversions between the compiler's locations (1-based line and column, UTF-16) and LSP's (0-based).
import type { Location } from "../diagnostics/diagnostic.js";

/** An LSP position: 0-based line and UTF-16 character. */
export interface LspPosition {
  line: number;
  character: number;
}

/** An LSP range. */
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/** A compiler location as an LSP range. */
export function toRange(loc: Location): LspRange {
  return { start: { line: loc.start.line - 1, character: loc.start.column - 1 }, end: { line: loc.end.line - 1, character: loc.end.column - 1 } };
}

/** The offset of an LSP position in `text` (lines split at \n; a \r before it counts as part of the line). */
export function offsetAt(text: string, pos: LspPosition): number {
  let offset = 0;
  for (let line = 0; line < pos.line; line++) {
    const next = text.indexOf("\n", offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  const end = text.indexOf("\n", offset);
  return Math.min(offset + pos.character, end === -1 ? text.length : end);
}

/** The LSP position of an offset in `text`. */
export function positionAt(text: string, offset: number): LspPosition {
  let line = 0;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, character: offset - start };
}

/** The LSP range of offsets [start, end) in `text`. */
export function rangeOf(text: string, start: number, end: number): LspRange {
  return { start: positionAt(text, start), end: positionAt(text, end) };
}
