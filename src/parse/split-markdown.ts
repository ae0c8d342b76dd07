import { LineIndex } from "../diagnostics/diagnostic.js";
import { pyStripBounds } from "./py-strip.js";
import { scanLayout } from "./scan-layout.js";
import type { MarkdownFile, Span } from "./ast.js";

/** Python's universal-newline read: CRLF and lone CR become LF (BOMs are kept, as Python keeps them). */
export function normaliseNewlines(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/**
 * Splits a markdown item into marker lines, preamble, metadata fence and body, choosing the fence
 * exactly as the original's `_extract_xml_block` does (`lang` is "xml" for directives, "yaml" for knowledge).
 */
export function splitMarkdown(text: string, source: string, lang: "xml" | "yaml", lines = new LineIndex(text)): MarkdownFile {
  const layout = scanLayout(text, lang);
  const span = (start: number, end: number): Span => {
    const [s, e] = pyStripBounds(text, start, end);
    return { text: text.slice(s, e), loc: lines.location(source, s, e) };
  };
  const markers = layout.markers.map((m) => ({ text: m.text, loc: lines.location(source, m.start, m.end) }));
  if (!layout.fence) {
    return { type: "markdown_file", source, text, markers, preamble: span(0, 0), fence: null, body: span(0, text.length) };
  }
  const { open, inner, close } = layout.fence;
  return {
    type: "markdown_file",
    source,
    text,
    markers,
    preamble: span(0, open.start),
    fence: {
      open: lines.location(source, open.start, open.end),
      content: span(inner.start, inner.end),
      close: lines.location(source, close.start, close.end),
    },
    body: span(close.end, text.length),
  };
}
