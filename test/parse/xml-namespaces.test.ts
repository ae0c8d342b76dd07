import { describe, expect, test } from "vitest";
import { LineIndex } from "../../src/diagnostics/diagnostic.js";
import type { XmlElement } from "../../src/parse/ast.js";
import { XmlSyntaxError, buildXmlTree } from "../../src/parse/xml-tree.js";

// ElementTree names an element or attribute in a namespace `{uri}local`. A declaration holds for
// the element that makes it and everything inside, a nearer one hides a farther one of the same
// prefix, `xmlns=""` undoes a default namespace, default namespaces never apply to attributes, and
// a prefix declared nowhere above is expat's "unbound prefix".
const tree = (xml: string) => buildXmlTree({ xml, source: "x.md", lines: new LineIndex(xml), toFile: (o) => o });

/** Each element's tag and attribute names, depth first. */
function names(el: XmlElement): string[] {
  return [`${el.tag}${Object.keys(el.attrib).map((a) => ` @${a}`).join("")}`, ...el.children.flatMap(names)];
}

describe("namespace declarations in metadata", () => {
  test("hold inside the declaring element, nearest first, and end with it", () => {
    const xml = '<a xmlns="u" xmlns:p="1"><b p:x="1" y="2"/><p:c xmlns:p="2"><p:d/><e xmlns=""/></p:c><p:f/></a>';
    expect(names(tree(xml))).toEqual(["{u}a", "{u}b @{1}x @y", "{2}c", "{2}d", "e", "{1}f"]);
  });

  test("siblings each declaring a prefix see their own and their parent's, not each other's", () => {
    const many = Array.from({ length: 50 }, (_, i) => ` xmlns:n${i}="p${i}"`).join("");
    const xml = `<r${many}><b xmlns:c="c1"><c:x/><n7:y/></b><b xmlns:c="c2"><c:x/><n49:y/></b></r>`;
    expect(names(tree(xml))).toEqual(["r", "b", "{c1}x", "{p7}y", "b", "{c2}x", "{p49}y"]);
  });

  test("a prefix declared only by a sibling is unbound", () => {
    expect(() => tree('<r><a xmlns:c="u"/><c:b/></r>')).toThrow(XmlSyntaxError);
    expect(() => tree('<r><a xmlns:c="u"/><c:b/></r>')).toThrow("unbound prefix");
  });
});
