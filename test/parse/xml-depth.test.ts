// tooDeepAt finds the first start tag nested deeper than the limit before the grammar recurses into
// it. Markup that is not an element (comments, CDATA, processing instructions, declarations) and
// quoted attribute values may hold "<" and ">" without nesting anything.
import { describe, expect, test } from "vitest";
import { MAX_XML_DEPTH, tooDeepAt } from "../../src/parse/xml-depth.js";

describe("tooDeepAt", () => {
  test("reports the start tag that goes one level past the limit", () => {
    expect(tooDeepAt("<a><b></b></a>", 2)).toBe(-1);
    expect(tooDeepAt("<a><b><c></c></b></a>", 2)).toBe(6);
    expect(tooDeepAt("<a></a><b><c></c></b>", 2)).toBe(-1); // siblings do not add up
  });

  test("self-closing tags and end tags do not nest", () => {
    expect(tooDeepAt("<a><b/><b /><c x='1'/></a>", 1)).toBe(-1);
    expect(tooDeepAt("<a><b/><c><d/></c></a>", 2)).toBe(-1);
    expect(tooDeepAt("<a><b/><c><d></d></c></a>", 2)).toBe(10);
  });

  test("comments, CDATA, processing instructions and declarations hold markup that does not count", () => {
    const inside = "<x><y><z>";
    for (const wrap of [`<!--${inside}-->`, `<![CDATA[${inside}]]>`, `<?pi ${inside}?>`, `<!DOCTYPE a [<y]`]) {
      expect(tooDeepAt(`<a>${wrap}</a>`, 1)).toBe(-1);
    }
  });

  test("a quoted attribute value may hold > and /", () => {
    expect(tooDeepAt(`<a t="x>y/"><b q='>'></b></a>`, 2)).toBe(-1);
    expect(tooDeepAt(`<a t="/"><b q='>'><c></c></b></a>`, 2)).toBe(`<a t="/"><b q='>'>`.length);
  });

  test("unterminated input is scanned without error", () => {
    for (const xml of ["<", "<a", "<a x='", "<!--", "<![CDATA[", "<?", "</", "<a><b"]) expect(tooDeepAt(xml, 5)).toBe(-1);
    expect(tooDeepAt("<a><b", 1)).toBe(3);
  });

  test("the default limit", () => {
    const deep = (n: number) => "<a>".repeat(n) + "</a>".repeat(n);
    expect(tooDeepAt(deep(MAX_XML_DEPTH))).toBe(-1);
    expect(tooDeepAt(deep(MAX_XML_DEPTH + 1))).toBe(3 * MAX_XML_DEPTH);
  });
});
