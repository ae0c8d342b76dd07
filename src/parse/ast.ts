import type { Location } from "../diagnostics/diagnostic.js";

/** A slice of the (LF-normalised) file text: absolute offsets, plus line/column for reporting. */
export interface Span {
  text: string;
  loc: Location;
}

/** An XML element as ElementTree sees it: `text` before the first child, `tail` after the element. */
export interface XmlElement {
  type: "element";
  tag: string;
  /** Attributes in document order (ElementTree keeps insertion order). */
  attrib: Record<string, string>;
  attribLocs: Record<string, Location>;
  text: string | null;
  tail: string | null;
  children: XmlElement[];
  /** The whole element, start tag to end tag. */
  loc: Location;
  /** Where the element's text (before the first child) sits, for placeholder diagnostics. */
  textLoc: Location | null;
}

/** A metadata fence and the text it holds (already stripped like the original's `.strip()`). */
export interface Fence {
  open: Location;
  content: Span;
  close: Location;
}

/** The layout of a directive or knowledge markdown file. */
export interface MarkdownFile {
  type: "markdown_file";
  source: string;
  /** The file text with CRLF/CR normalised to LF, as Python's universal-newline read gives it. */
  text: string;
  /** Leading `<!-- rye:… -->` marker lines (signature, unsigned placeholder). */
  markers: Span[];
  /** Markdown before the fence, stripped (includes marker lines, as in the original). */
  preamble: Span;
  fence: Fence | null;
  /** Everything after the closing fence, stripped. */
  body: Span;
}

export type PlaceholderNode =
  | { type: "input_ref"; name: string; modifier: string | null; raw: string; loc: Location }
  | { type: "dollar_input"; name: string; raw: string; loc: Location }
  | { type: "env_ref"; name: string; fallback: string | null; raw: string; loc: Location }
  | { type: "env_var"; name: string; fallback: string | null; raw: string; loc: Location }
  | { type: "context_ref"; expr: string; raw: string; loc: Location }
  | { type: "param"; name: string; raw: string; loc: Location };

export interface TextNode {
  type: "text";
  value: string;
  loc: Location;
}

export type TemplateNode = TextNode | PlaceholderNode;
