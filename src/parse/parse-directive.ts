import { LineIndex, type Diagnostic, type Location } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { MarkdownFile, XmlElement } from "./ast.js";
import type { DirectiveData, DirectiveLocations } from "./directive-data.js";
import { extractMetadata, unknownPermissionMessage } from "./extract-metadata.js";
import { explainMissingFence } from "./explain-missing-fence.js";
import { maskOpaque } from "./mask-opaque.js";
import { findUnreadMarkup } from "./unread-markup.js";
import { DIRECTIVE_OPEN, attrByRegex } from "./py-regex.js";
import { normaliseNewlines, splitMarkdown } from "./split-markdown.js";
import { XmlSyntaxError, XmlTooDeepError, buildXmlTree } from "./xml-tree.js";

/** The original parser's failure dict: `{body, raw, data: {}, error}` or, for bad XML, with name/preamble kept. */
export type ParseFailure = Record<string, unknown> & { error: string; raw: string; body: string };

export interface ParsedDirective {
  source: string;
  file: MarkdownFile;
  lines: LineIndex;
  root: XmlElement | null;
  /** The original's success dict; null when the original would return an error dict. */
  data: DirectiveData | null;
  /** Exactly what the original `parse()` returns (success or error dict), for fidelity. */
  result: DirectiveData | ParseFailure;
  locs: DirectiveLocations;
  diagnostics: Diagnostic[];
}

/** Parses a directive `.md` (text as read from disk) into the original's fields plus an AST with locations. */
export function parseDirective(input: string, source: string): ParsedDirective {
  const text = normaliseNewlines(input);
  const lines = new LineIndex(text);
  const file = splitMarkdown(text, source, "xml", lines);
  const diagnostics: Diagnostic[] = [];
  const locs: DirectiveLocations = { root: lines.location(source, 0, 0), inputs: [], outputs: [], uninterpolated: [], unknownPermissionTags: [], context: [], hooks: [] };
  const base = { source, file, lines, root: null, data: null, locs, diagnostics };
  if (!file.fence) {
    const why = explainMissingFence(text, "xml");
    diagnostics.push(d.noMetadataFence(lines.location(source, why?.offset ?? 0, why?.offset ?? 0), "xml", why?.hint));
    return { ...base, result: { body: text, raw: text, data: {}, error: "No XML code block found" } };
  }
  const content = file.fence.content;
  const head: Partial<DirectiveData> = {};
  const open = DIRECTIVE_OPEN.exec(content.text);
  if (open) {
    for (const key of ["name", "version", "extends"] as const) {
      const value = attrByRegex(open[1]!, key);
      if (value !== undefined) head[key] = value;
    }
  }
  const masked = maskOpaque(content.text);
  let root: XmlElement;
  try {
    root = buildXmlTree({
      xml: masked.masked,
      source,
      lines,
      toFile: (o) => content.loc.start.offset + masked.unmask(o),
    });
  } catch (e) {
    if (e instanceof XmlTooDeepError) {
      const fileOffset = content.loc.start.offset + masked.unmask(e.offset);
      diagnostics.push(d.xmlTooDeep(lines.location(source, fileOffset, fileOffset), e.message));
      return { ...base, result: { ...head, preamble: file.preamble.text, body: file.body.text, raw: text, error: `Metadata too deep: ${e.message}` } };
    }
    if (!(e instanceof XmlSyntaxError)) throw e;
    const at = new LineIndex(masked.masked).position(e.offset);
    const fileOffset = content.loc.start.offset + masked.unmask(e.at);
    const loc = lines.location(source, fileOffset, fileOffset);
    const opened = e.open && lines.position(content.loc.start.offset + masked.unmask(e.open.offset));
    diagnostics.push(opened ? d.unclosedTag(loc, { ...e.open!, line: opened.line, column: opened.column }) : d.invalidXml(loc, e.message));
    const error = `Invalid XML: ${e.message}: line ${at.line}, column ${at.column - 1}`;
    return { ...base, result: { ...head, preamble: file.preamble.text, body: file.body.text, raw: text, error } };
  }
  locs.root = root.loc;
  locs.extends = attributeValue(text, source, lines, root.attribLocs.extends);
  const name = attributeValue(text, source, lines, root.attribLocs.name);
  if (name) locs.name = name;
  const data = Object.assign({}, head) as DirectiveData;
  extractMetadata(root, data, locs);
  // Found now: the tree is not kept once the directive is parsed.
  const unread = findUnreadMarkup(root, source, lines);
  if (unread.length > 0) locs.unread = unread;
  if (locs.unknownPermissionTags.length > 0) {
    for (const u of locs.unknownPermissionTags) diagnostics.push(d.unknownPermissionTag(u.loc, u.tag));
    const error = unknownPermissionMessage(locs.unknownPermissionTags[0]!.tag);
    return { ...base, root, result: { body: file.body.text, raw: text, data: {}, error } };
  }
  Object.assign(data, {
    templates: masked.templates,
    preamble: file.preamble.text,
    body: file.body.text,
    raw: text,
    content: content.text,
  });
  return Object.assign(base, { root, data, result: data });
}

/** Where an attribute's value was written (inside its quotes), from where its name was: the id a diagnostic is about. */
function attributeValue(text: string, source: string, lines: LineIndex, name: Location | undefined): Location | undefined {
  if (!name) return undefined;
  const m = /^[^=]*=\s*(["'])/.exec(text.slice(name.start.offset));
  if (!m) return name;
  const start = name.start.offset + m[0].length;
  const end = text.indexOf(m[1]!, start);
  return lines.location(source, start, end < 0 ? start : end);
}
