import type { LineIndex, Location } from "../diagnostics/diagnostic.js";
import { parse as parseXml } from "./generated/xml.js";
import type { XmlElement } from "./ast.js";
import { MAX_XML_DEPTH, tooDeepAt } from "./xml-depth.js";
import { parseSimpleXml, type RawElement, type RawText } from "./xml-simple.js";
import { defineKey } from "../runtime/exec/expand-env.js";

/** A well-formedness error: `message` is expat's wording, `offset` is in the parsed string. */
export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /** Where to point a user: the offending character (may differ from expat's `offset`). */
    readonly at: number = offset,
    /** For a mismatched end tag: the element still open (its name and `<` offset) and the end tag's name. */
    readonly open?: { name: string; offset: number; closedBy: string },
  ) {
    super(message);
  }
}

export interface XmlSource {
  /** The string handed to the XML parser (after masking). */
  xml: string;
  source: string;
  lines: LineIndex;
  /** Maps an offset in `xml` to an offset in the file. */
  toFile(offset: number): number;
}

/** Elements nested deeper than MAX_XML_DEPTH: a limit of this compiler, not an XML error. */
export class XmlTooDeepError extends Error {
  constructor(readonly offset: number) {
    super(`elements are nested more than ${MAX_XML_DEPTH} levels deep`);
  }
}

/** Parses XML into an ElementTree-like tree, or throws XmlSyntaxError (or XmlTooDeepError). */
export function buildXmlTree(src: XmlSource): XmlElement {
  let raw: RawElement;
  const deep = tooDeepAt(src.xml);
  if (deep !== -1) throw new XmlTooDeepError(deep);
  try {
    raw = parseSimpleXml(src.xml) ?? (parseXml(src.xml, { peg$silentFails: 1 }) as RawElement);
  } catch (e) {
    // Expectations are recorded only for Peggy's own error (never for the grammar's xmlError), so the
    // parse runs silent and, in the rare case that needs them, again to locate that error.
    if (!(e instanceof RangeError) && (e as { xmlOffset?: number }).xmlOffset === undefined) return reparse(src);
    return failed(e);
  }
  return tree(raw, src);
}

function reparse(src: XmlSource): never {
  try {
    parseXml(src.xml);
  } catch (e) {
    return failed(e);
  }
  throw new Error("XML parse failed only when silent");
}

function failed(e: unknown): never {
  // Stack exhaustion the depth scan did not foresee is still reported as a limit, never a crash.
  if (e instanceof RangeError) throw new XmlTooDeepError(0);
  const err = e as { xmlOffset?: number; xmlAt?: number; xmlOpen?: XmlSyntaxError["open"]; message: string; location?: { start: { offset: number } } };
  if (err.xmlOffset !== undefined) throw new XmlSyntaxError(err.message, err.xmlOffset, err.xmlAt, err.xmlOpen);
  // The grammar raises its own errors for every case it knows; anything else is still invalid XML.
  throw new XmlSyntaxError("not well-formed (invalid token)", err.location?.start.offset ?? 0);
}

function tree(raw: RawElement, src: XmlSource): XmlElement {
  const loc = (start: number, end: number): Location =>
    src.lines.location(src.source, src.toFile(start), src.toFile(end));
  return convert(raw, loc, null);
}

/**
 * The namespace declarations in force: an element's own, then its ancestors'. Chained rather than
 * copied: a copy per declaring element made siblings under an element with many declarations
 * quadratic; a lookup walks at most MAX_XML_DEPTH levels.
 */
interface Scope {
  own: Map<string, string>;
  parent: Scope | null;
}

function lookup(scope: Scope | null, prefix: string): string | undefined {
  for (let s = scope; s; s = s.parent) {
    const uri = s.own.get(prefix);
    if (uri !== undefined) return uri;
  }
  return undefined;
}

function convert(raw: RawElement, loc: (s: number, e: number) => Location, scope: Scope | null): XmlElement {
  const local = withNamespaces(raw, scope);
  const attrib: Record<string, string> = {};
  const attribLocs: Record<string, Location> = {};
  for (const a of raw.attrs) {
    if (declaresNamespace(a)) continue;
    const name = a.name.includes(":") ? qualify(a.name, local, a.start) : a.name;
    // An attribute named `__proto__` is one like any other, as in the original's dict: assigned,
    // it would set the prototype (or, as a string, be dropped).
    if (name === "__proto__") {
      defineKey(attrib, name, a.value);
      defineKey(attribLocs, name, loc(a.start, a.start + a.name.length));
      continue;
    }
    attrib[name] = a.value;
    attribLocs[name] = loc(a.start, a.start + a.name.length);
  }
  const el: XmlElement = {
    type: "element",
    tag: qualify(raw.name, local, raw.start, true),
    attrib,
    attribLocs,
    text: null,
    tail: null,
    children: [],
    loc: loc(raw.start, raw.end),
    textLoc: null,
  };
  // ElementTree joins character data until the next element starts or ends; comments and
  // processing instructions were dropped by the grammar without splitting the text.
  let pending: RawText[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    // Mostly one run of text (comments and instructions are what split it).
    const text = pending.length === 1 ? pending[0]!.text : pending.map((p) => p.text).join("");
    const last = el.children[el.children.length - 1];
    if (text !== "") {
      if (last) last.tail = text;
      else {
        el.text = text;
        el.textLoc = loc(pending[0]!.start, pending[pending.length - 1]!.start + pending[pending.length - 1]!.text.length);
      }
    }
    pending = [];
  };
  for (const child of raw.children) {
    if ("name" in child) {
      flush();
      el.children.push(convert(child, loc, local));
    } else pending.push(child);
  }
  flush();
  return el;
}

const declaresNamespace = (a: RawElement["attrs"][number]) => a.name === "xmlns" || a.name.startsWith("xmlns:");

function withNamespaces(raw: RawElement, scope: Scope | null): Scope | null {
  // Nearly every element declares none: no map is made for it.
  if (!raw.attrs.some(declaresNamespace)) return scope;
  const own = new Map<string, string>();
  for (const d of raw.attrs) if (declaresNamespace(d)) own.set(d.name === "xmlns" ? "" : d.name.slice(6), d.value);
  return { own, parent: scope };
}

/** ElementTree's `{uri}local` names; an undeclared prefix is expat's "unbound prefix". */
function qualify(name: string, scope: Scope | null, at: number, isElement = false): string {
  const colon = name.indexOf(":");
  if (colon === -1) {
    const uri = isElement ? lookup(scope, "") : undefined;
    return uri ? `{${uri}}${name}` : name;
  }
  const uri = lookup(scope, name.slice(0, colon));
  if (uri === undefined) throw new XmlSyntaxError("unbound prefix", at);
  return `{${uri}}${name.slice(colon + 1)}`;
}
