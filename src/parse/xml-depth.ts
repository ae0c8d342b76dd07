// The XML grammar recurses once per nested element, so a pathological fence (thousands of nested
// tags) would exhaust the stack. This linear scan finds the first element nested deeper than the
// limit before the grammar runs; real directives nest a handful of levels.

/** Elements deeper than this are reported (RYE1006) instead of parsed. */
export const MAX_XML_DEPTH = 256;

/** Offset of the first start tag nested deeper than `max` in `xml`, or -1. Malformed input is scanned best-effort: the grammar reports its errors. */
export function tooDeepAt(xml: string, max = MAX_XML_DEPTH): number {
  let depth = 0;
  let i = xml.indexOf("<");
  while (i !== -1 && i < xml.length) {
    // Character codes, not one-character strings: this runs over every directive's metadata.
    const next = xml.charCodeAt(i + 1);
    if (next === BANG) {
      if (xml.startsWith("<!--", i)) i = after(xml, "-->", i + 4);
      else if (xml.startsWith("<![CDATA[", i)) i = after(xml, "]]>", i + 9);
      else i = after(xml, ">", i + 2);
    } else if (next === QUESTION) i = after(xml, "?>", i + 2);
    else if (next === SLASH) {
      depth--;
      i = after(xml, ">", i + 2);
    } else {
      const start = i;
      // Skip the tag, stepping over quoted attribute values, which may hold ">".
      let j = i + 1;
      let quote = 0;
      for (; j < xml.length; j++) {
        const c = xml.charCodeAt(j);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) quote = c;
        else if (c === GREATER) break;
      }
      if (xml.charCodeAt(j - 1) !== SLASH) {
        depth++;
        if (depth > max) return start;
      }
      i = j + 1;
    }
    if (i === -1 || i >= xml.length) break;
    i = xml.indexOf("<", i);
  }
  return -1;
}

const BANG = 0x21;
const QUESTION = 0x3f;
const SLASH = 0x2f;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const GREATER = 0x3e;

function after(xml: string, end: string, from: number): number {
  const k = xml.indexOf(end, from);
  return k === -1 ? -1 : k + end.length;
}
