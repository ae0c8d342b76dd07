import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LineIndex } from "../../src/diagnostics/diagnostic.js";
import type { XmlElement } from "../../src/parse/ast.js";
import { XmlSyntaxError, XmlTooDeepError, buildXmlTree } from "../../src/parse/xml-tree.js";

// Differential test of the metadata XML parser against the original's: Python's ElementTree on
// expat. Random well-formed and broken XML goes to one python3 process; for each document both
// must agree on whether it is well-formed and, when it is, on the tree (tag, attributes, text,
// tail). Error messages and positions are compared and counted but not required to match: expat
// tokenizes a whole start tag before it checks the tag's attribute values and prefixes, so on a
// document with several errors it may name a later one first.
// Skipped, with the reason printed, where python3 is not installed.
const RUNS = Number(process.env.RYE_FUZZ_RUNS ?? 150) * 2;
const python = spawnSync("python3", ["-c", "import xml.etree.ElementTree"], { encoding: "utf8" });
const noPython = python.status !== 0 ? "python3 with xml.etree is not available, so there is no expat to compare with" : "";

const PY = `
import sys, json, xml.etree.ElementTree as ET
def conv(e):
    return {"tag": e.tag, "attrib": e.attrib, "text": e.text, "tail": e.tail, "children": [conv(c) for c in e]}
out = []
for line in sys.stdin:
    try:
        out.append({"ok": conv(ET.fromstring(json.loads(line)))})
    except ET.ParseError as err:
        out.append({"error": str(err)})
print(json.dumps(out))
`;

type Tree = { tag: string; attrib: Record<string, string>; text: string | null; tail: string | null; children: Tree[] };

const GOOD_TEXT = ["a", "word", " ", "\n", "\t", "&amp;", "&lt;", "&#x41;", "&#65;", ">", "]]", "<![CDATA[x<y]]>", "<!-- c -->", "<?pi data?>", "\u007f", "\u0085", "é", "😀", "{input:x}", '"', "'"];
const BAD_TEXT = ["&#0;", "&#xD800;", "&bogus;", "&", "<", "]]>", "<!-- a--b -->", "\u0001", "\u000b", "\ufffe"];
const TEXT_PIECE = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...GOOD_TEXT) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_TEXT) });
// No namespace prefixes: expat reports an unbound prefix at its start tag, before any later error,
// while this parser resolves prefixes after the whole document parsed, so a document with both
// an unbound prefix and a later error gets the later error's message (still RYE1002).
const NAMES = ["a", "b", "input", "_n", "n-1", "é", "a", "b", "input", "_n", "n-1", "é", "1bad"];

const attr = fc.tuple(fc.constantFrom(...NAMES), fc.array(TEXT_PIECE, { maxLength: 3 }), fc.constantFrom('"', "'")).map(([n, v, q]) => ` ${n}=${q}${v.join("").split(q).join(q === '"' ? "&quot;" : "&apos;")}${q}`);

const element: fc.Arbitrary<string> = fc.letrec<{ el: string }>((tie) => ({
  el: fc
    .tuple(fc.constantFrom(...NAMES), fc.array(attr, { maxLength: 2 }), fc.array(fc.oneof({ weight: 3, arbitrary: TEXT_PIECE }, { weight: 1, arbitrary: tie("el") }), { maxLength: 4 }), fc.boolean())
    .map(([n, attrs, content, selfClose]) => (selfClose && content.length === 0 ? `<${n}${attrs.join("")}/>` : `<${n}${attrs.join("")}>${content.join("")}</${n}>`)),
})).el;

const documentText = fc
  .tuple(element, fc.oneof(fc.constant([] as [number, string][]), fc.array(fc.tuple(fc.nat(), fc.constantFrom("<", ">", "&", "/", '"', "</a>", "<a>", "\u0002", "]]>", "x", " ")), { maxLength: 2 })))
  .map(([xml, edits]) => {
    // Splice by code point: a lone surrogate cannot be UTF-8 and never reaches the parser from disk.
    const t = Array.from(xml);
    for (const [at, s] of edits) t.splice(at % (t.length + 1), 0, s);
    return t.join("");
  });

function ours(xml: string): { ok: Tree } | { error: string } {
  const lines = new LineIndex(xml);
  try {
    return { ok: plain(buildXmlTree({ xml, source: "x.xml", lines, toFile: (o) => o })) };
  } catch (e) {
    if (e instanceof XmlTooDeepError) return { error: "too deep" };
    if (!(e instanceof XmlSyntaxError)) throw e;
    const at = lines.position(e.offset);
    return { error: `${e.message}: line ${at.line}, column ${at.column - 1}` };
  }
}

function plain(e: XmlElement): Tree {
  return { tag: e.tag, attrib: { ...e.attrib }, text: e.text, tail: e.tail, children: e.children.map(plain) };
}

describe("metadata XML against expat", () => {
  test.skipIf(Boolean(noPython))(`random XML: same tree or same error as Python's ElementTree${noPython ? ` (skipped: ${noPython})` : ""}`, () => {
    const docs = fc.sample(documentText, { numRuns: RUNS, seed: process.env.RYE_FUZZ_SEED ? Number(process.env.RYE_FUZZ_SEED) : 42 });
    const r = spawnSync("python3", ["-c", PY], { input: docs.map((d) => JSON.stringify(d)).join("\n"), encoding: "utf8", maxBuffer: 1 << 28 });
    expect(r.status, r.stderr).toBe(0);
    const theirs = JSON.parse(r.stdout) as ({ ok: Tree } | { error: string })[];
    const pairs = docs.map((d, i) => ({ d, mine: ours(d), theirs: theirs[i]! }));
    const disagreements = pairs.filter((x) => ("ok" in x.mine) !== ("ok" in x.theirs) || ("ok" in x.mine && JSON.stringify(x.mine) !== JSON.stringify(x.theirs)));
    expect(disagreements.slice(0, 5)).toEqual([]);
    const errors = pairs.filter((x) => "error" in x.theirs);
    const sameError = errors.filter((x) => JSON.stringify(x.mine) === JSON.stringify(x.theirs)).length;
    console.log(`XML vs expat: ${docs.length} documents, ${docs.length - errors.length} well-formed with identical trees, ${errors.length} rejected by both, ${sameError} with expat's exact message and position`);
    // Both outcomes must be exercised, or the comparison proves little.
    expect(theirs.filter((t) => "ok" in t).length).toBeGreaterThan(RUNS / 10);
    expect(theirs.filter((t) => "error" in t).length).toBeGreaterThan(RUNS / 10);
  });
});
