import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parse as xmlGrammar } from "../../src/parse/generated/xml.js";
import { parseSimpleXml } from "../../src/parse/xml-simple.js";

// Whenever the simple reader accepts a text, grammar/xml.peggy must accept it with the same tree;
// texts it declines (null) are left to the grammar, so only acceptance is checked.
function grammarTree(xml: string): unknown {
  try {
    return xmlGrammar(xml);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const PIECES = [
  "<a>", "</a>", "<b>", "</b>", "<a/>", "<b />", "<a x=\"1\">", "<a x='1' y=\"2\">", "<b x=\"1\" x=\"2\">", "<a\tx = \"v\n\"\r>", "<é:ü-1.x>", "</é:ü-1.x>",
  " ", "\n", "\t", "text", "]", "]]", "]]>", "]>", "&amp;", "&", "<", ">", "/", "=", "\"", "'", "<!-- c -->", "<?pi x?>", "<?xml version=\"1.0\"?>",
  "<![CDATA[x]]>", "\u0001", "\ufffe", "😀", "<a x=\"<\">", "<a x=\"&lt;\">", "<1a>", "<a x>", "<a x=1>", "<a/ >", "</a >",
];
const doc = fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 3 }) }), { maxLength: 25 }).map((a) => a.join(""));

/** Mostly well-formed trees, so that acceptance is exercised often. */
const tree: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc
    .tuple(
      fc.constantFrom("a", "b", "x:y", "é"),
      fc.array(fc.tuple(fc.constantFrom("n", "m", "type", "é"), fc.constantFrom("", "v", "a b", "t\tn\nr\r", "x>y", "]]>", "'", '"')), { maxLength: 3 }),
      fc.array(fc.oneof({ maxDepth: 3, depthIdentifier: "t" }, fc.constantFrom("", " ", "\n  ", "text ] more", "a]]b", "]]", "\u2028"), tie("node")), { maxLength: 3 }),
      fc.constantFrom(" ", "", "\n"),
    )
    .map(([name, attrs, children, blank]) => {
      const a = attrs.map(([k, v]) => ` ${k}=${v.includes('"') ? `'${v}'` : `"${v}"`}`).join("");
      return children.length === 0 && blank === "" ? `<${name}${a}/>` : `<${name}${a}${blank}>${children.join("")}</${name}${blank}>`;
    }),
})).node;

describe("the simple XML reader agrees with grammar/xml.peggy", () => {
  test("accepts a typical metadata block with the grammar's tree", () => {
    const xml = '\n<directive name="x" version="1.0.0">\n  <metadata>\n    <description>Do [one] thing.</description>\n    <model tier="fast" />\n  </metadata>\n  <inputs><input name="a" type="string" required="true">The a.</input></inputs>\n</directive>\n';
    const simple = parseSimpleXml(xml);
    expect(simple).not.toBeNull();
    expect(simple).toEqual(xmlGrammar(xml));
  });

  test("declines what it does not read: references, comments, CDATA, declarations, errors", () => {
    for (const xml of ["<a>&amp;</a>", "<a><!-- c --></a>", "<a><![CDATA[x]]></a>", '<?xml version="1.0"?><a/>', "<a></b>", '<a x="1" x="2"/>', "<a>]]></a>", "<a>", "<a/><b/>"]) {
      expect(parseSimpleXml(xml)).toBeNull();
    }
  });

  test("on generated trees and fragments", () => {
    fc.assert(
      fc.property(fc.oneof(tree, doc, fc.tuple(doc, tree, doc).map((p) => p.join(""))), (xml) => {
        const simple = parseSimpleXml(xml);
        if (simple !== null) expect(simple).toEqual(grammarTree(xml));
      }),
      { numRuns: 1500 },
    );
  });

  test("generated trees are mostly accepted", () => {
    const samples = fc.sample(tree, { numRuns: 300, seed: 7 });
    const accepted = samples.filter((x) => parseSimpleXml(x) !== null).length;
    expect(accepted).toBeGreaterThan(150);
  });
});

describe("attributes, few or many", () => {
  // An element with many attributes keeps them in a set; with a few they are compared in place.
  const element = (names: string[]) => `<a ${names.map((n, i) => `${n}="${i}"`).join(" ")}/>`;
  const many = Array.from({ length: 12 }, (_, i) => `n${i}`);

  test("distinct names are read as the grammar reads them, however many", () => {
    for (const names of [many.slice(0, 3), many.slice(0, 8), many.slice(0, 9), many]) {
      const xml = element(names);
      expect(parseSimpleXml(xml)).toEqual(xmlGrammar(xml));
    }
  });

  test("a repeated name is declined (left to the grammar, which reports it) wherever it comes", () => {
    for (const at of [1, 3, 7, 8, 9, 11]) {
      const names = [...many.slice(0, at), "n0", ...many.slice(at)];
      expect(parseSimpleXml(element(names))).toBeNull();
      expect(() => xmlGrammar(element(names))).toThrow();
    }
    // A name repeated after the set was made (the 9th attribute on) is in it too.
    for (const names of [[...many.slice(0, 9), "n8"], [...many, "n10"]]) expect(parseSimpleXml(element(names))).toBeNull();
  });
});
