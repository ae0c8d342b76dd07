// Decision #25, bounded work: every scanner and parser over an item's text works in time linear in
// its length. The input that breaks a scan that is not is an opener repeated without its closer:
// each opener's search for the closer reads on to the end of the text, once per opener. For every
// opener the grammars know, a directive whose repetition fills the file up to the size limit
// (RYE_MAX_FILE_SIZE, 1 MiB) is compiled whole, in this process. Quadratic work at that size takes
// hours, so vitest's timeout is a margin, not a speed bound; speed itself is measured by the bench.
import { describe, expect, test } from "vitest";
import { LineIndex } from "../../src/diagnostics/diagnostic.js";
import { build, type Diagnostic } from "../../src/index.js";
import { scanCalls } from "../../src/parse/scan-calls.js";
import { buildXmlTree } from "../../src/parse/xml-tree.js";
import { source } from "../helpers/compile.js";

/** The documented default size limit of a source file. */
const FILE_LIMIT = 1024 * 1024;

const HEAD = '# t\n\n```xml\n<directive name="t" version="1.0.0">\n  <metadata><description>d</description></metadata>\n';

/** Where a repetition goes: the body, an element's text or an attribute of the metadata, or the preamble. */
const PLACES = {
  body: (r: string) => `${HEAD}</directive>\n\`\`\`\n\n${r}\n`,
  text: (r: string) => `${HEAD}  <notes>${r}</notes>\n</directive>\n\`\`\`\n\nBody.\n`,
  attribute: (r: string) => `${HEAD}  <notes a="${r}"/>\n</directive>\n\`\`\`\n\nBody.\n`,
  preamble: (r: string) => `# t\n${r}\n\n\`\`\`xml\n<directive name="t" version="1.0.0">\n  <metadata><description>d</description></metadata>\n</directive>\n\`\`\`\n\nBody.\n`,
  metadata: (r: string) => `${HEAD}${r}\n</directive>\n\`\`\`\n\nBody.\n`,
};
type Place = keyof typeof PLACES;

/** The directive of `place` holding `unit` repeated between `around`'s two halves as often as the size limit allows (ASCII: bytes are characters). */
function filled(place: Place, unit: string, around: [string, string] = ["", ""]): { text: string; count: number } {
  const room = FILE_LIMIT - PLACES[place](around.join("")).length - 1;
  const count = Math.floor(room / unit.length);
  return { text: PLACES[place](around[0] + unit.repeat(count) + around[1]), count };
}

/** An element declaring `n` namespace prefixes. */
const declaring = (n: number): [string, string] => [`<p${Array.from({ length: n }, (_, i) => ` xmlns:n${i}="u"`).join("")}>`, "</p>"];

/** Codes of the diagnostics about the item, without the project-wide one about a missing hook knowledge item. */
function codes(diagnostics: Diagnostic[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of diagnostics) if (d.code !== "RYE3008") out[d.code] = (out[d.code] ?? 0) + 1;
  return out;
}

/** A count of diagnostics expected: exactly, or within [min, max]. */
type Count = number | [number, number];

interface Row {
  place: Place;
  unit: string;
  around?: [string, string];
  /** The diagnostics expected about the item (code → count), from the count of units. */
  expect: (count: number) => Record<string, Count>;
}

const none = () => ({});
/** `<notes>` or `<p>`: no element the original reads (RYE2015), whatever it holds. */
const oneUnread = () => ({ RYE2015: 1 });
// Near misses of `{input:…}` are reported from windows of 80 characters, each skipped when it holds a
// later `{input:`: only the last window, ending at the body's newline, can be reported, depending
// on where the windows fall.
const lastNearMiss = () => ({ RYE2011: [0, 1] as Count });
const ROWS: Record<string, Row> = {
  "{": { place: "body", unit: "{", expect: none },
  "{input:": { place: "body", unit: "{input:", expect: none },
  "{input:a|": { place: "body", unit: "{input:a|", expect: lastNearMiss },
  "{input:a:": { place: "body", unit: "{input:a:", expect: lastNearMiss },
  "{input:a?": { place: "body", unit: "{input:a?", expect: lastNearMiss },
  "{env:a:": { place: "body", unit: "{env:a:", expect: none },
  "${": { place: "body", unit: "${", expect: none },
  "${A:-": { place: "body", unit: "${A:-", expect: none },
  "${inputs.": { place: "body", unit: "${inputs.", expect: none },
  "${state.": { place: "body", unit: "${state.", expect: none },
  "{param": { place: "body", unit: "{param", expect: none },
  "(": { place: "body", unit: "(", expect: none },
  "[": { place: "body", unit: "[", expect: none },
  "<": { place: "body", unit: "<", expect: none },
  "<!--": { place: "body", unit: "<!--", expect: none },
  "|": { place: "body", unit: "|", expect: none },
  '"': { place: "body", unit: '"', expect: none },
  "'": { place: "body", unit: "'", expect: none },
  "\\": { place: "body", unit: "\\", expect: none },
  "`": { place: "body", unit: "`", expect: none },
  // Each backtick starts a call that does not parse, read up to the next backtick: one warning per
  // two; the last, with no backtick after it, is no call at all when the count is odd.
  "`rye_execute(": { place: "body", unit: "`rye_execute(", expect: (n) => ({ RYE6001: Math.floor(n / 2) }) },
  "`rye_load(": { place: "body", unit: "`rye_load(", expect: (n) => ({ RYE6001: Math.floor(n / 2) }) },
  '`rye_execute(a="': { place: "body", unit: '`rye_execute(a="', expect: (n) => ({ RYE6001: Math.floor(n / 2) }) },
  "`rye_execute(a={": { place: "body", unit: "`rye_execute(a={", expect: (n) => ({ RYE6001: Math.floor(n / 2) }) },
  "`rye_execute(a=[": { place: "body", unit: "`rye_execute(a=[", expect: (n) => ({ RYE6001: Math.floor(n / 2) }) },
  "`rye_execute(a=<": { place: "body", unit: "`rye_execute(a=<", expect: (n) => ({ RYE6001: Math.floor(n / 2) }) },
  "`rye_execute(a={input:": { place: "body", unit: "`rye_execute(a={input:", expect: (n) => ({ RYE6001: Math.floor(n / 2), ...lastNearMiss() }) },
  "```": { place: "body", unit: "```\n", expect: none },
  // The first opener's fence runs to the directive's closing fence and holds the other openers: not XML.
  "```xml in the preamble": { place: "preamble", unit: "```xml\n", expect: () => ({ RYE1002: 1 }) },
  "```` in the preamble": { place: "preamble", unit: "````\n", expect: none },
  "<!-- rye: in the preamble": { place: "preamble", unit: "<!-- rye:x\n", expect: none },
  "& in metadata text": { place: "text", unit: "&amp;", expect: oneUnread },
  "]] in metadata text": { place: "text", unit: "]]", expect: oneUnread },
  "<![CDATA[ in metadata text": { place: "text", unit: "<![CDATA[", expect: () => ({ RYE1002: 1 }) },
  "<!-- in metadata text": { place: "text", unit: "<!--", expect: () => ({ RYE1002: 1 }) },
  "<?x in metadata text": { place: "text", unit: "<?x ", expect: () => ({ RYE1002: 1 }) },
  "< in metadata text": { place: "text", unit: "<", expect: () => ({ RYE1002: 1 }) },
  "attribute value": { place: "attribute", unit: "a b ", expect: oneUnread },
  "<template> sections": { place: "metadata", unit: "<template>", expect: () => ({ RYE1006: 1 }) },
  "<template unclosed": { place: "metadata", unit: "<template", expect: () => ({ RYE1002: 1 }) },
  "<template></template>": { place: "metadata", unit: "<template></template>", expect: (n) => ({ RYE2015: n }) },
  "namespace declarations": { place: "metadata", unit: '<b xmlns:c="u"/>', expect: (n) => ({ RYE2015: n }) },
  // Each child declaring a prefix under an element that declares many.
  "namespace declarations under many": { place: "metadata", unit: '<b xmlns:c="u"/>', around: declaring(30_000), expect: oneUnread },
};

describe("a directive filled to the size limit with one opener compiles in linear time", () => {
  test.each(Object.keys(ROWS))("%s", (name) => {
    const row = ROWS[name]!;
    const { text, count } = filled(row.place, row.unit, row.around);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(FILE_LIMIT);
    const result = build([source("t", text)], "test");
    const got = codes(result.diagnostics);
    const expected = row.expect(count);
    for (const code of Object.keys(got)) expect(Object.keys(expected), `unexpected ${code}`).toContain(code);
    for (const [code, n] of Object.entries(expected)) {
      if (Array.isArray(n)) expect(got[code] ?? 0, code).toSatisfy((k: number) => k >= n[0] && k <= n[1]);
      else expect(got[code] ?? 0, code).toBe(n);
    }
    if (!result.diagnostics.some((d) => d.severity === "error")) expect(result.compiled).toContain("t");
  }, 120_000);
});

/** A knowledge item whose YAML metadata holds `unit` repeated on one line, as often as the size limit allows. */
function knowledge(unit: string): string {
  const [head, tail] = ["```yaml\nname: k\nextra: ", "\n```\n\nBody.\n"];
  return head + unit.repeat(Math.floor((FILE_LIMIT - head.length - tail.length) / unit.length)) + tail;
}

// Each of these is one error of YAML (RYE3002) or one collection nested too deep (RYE1009), reported
// once; the YAML package finds one error per repetition, and a view of the line for each cost the
// line's length.
const KNOWLEDGE: Record<string, string> = { "&a ": "RYE3002", "*a ": "RYE3002", "!t ": "RYE3002", "- ": "RYE3002", "[": "RYE1009", "{a: ": "RYE1009", "? ": "RYE1009" };

describe("a knowledge item filled to the size limit with one YAML opener on a line is read in linear time", () => {
  test.each(Object.keys(KNOWLEDGE))("%s", (unit) => {
    const result = build([{ kind: "knowledge", id: "k", path: ".ai/knowledge/k.md", text: knowledge(unit) }], "test");
    expect(codes(result.diagnostics)).toEqual({ [KNOWLEDGE[unit]!]: 1 });
  }, 120_000);
});

/**
 * The generated parsers test each character against a class with RegExp.prototype.test: counting
 * those calls measures their work without a clock. Doubling the repetition must at most double it
 * (with 10 % for the fixed parts); a quadratic reader quadruples it.
 */
function classTests(read: () => unknown): number {
  const original = RegExp.prototype.test;
  let count = 0;
  RegExp.prototype.test = function (this: RegExp, text: string) {
    count++;
    return original.call(this, text);
  };
  try {
    read();
  } catch {
    // Malformed metadata is reported by throwing: the work is what was counted until then.
  } finally {
    RegExp.prototype.test = original;
  }
  return count;
}

const xmlTree = (xml: string) => () => buildXmlTree({ xml, source: "x.md", lines: new LineIndex(xml), toFile: (o) => o });

const WORK: Record<string, (n: number) => () => unknown> = {
  "`rye_execute(a={input:": (n) => () => scanCalls("`rye_execute(a={input:".repeat(n)),
  "`rye_execute(a={input: closed at the end": (n) => () => scanCalls(`${"`rye_execute(a={input:".repeat(n)}}`),
  '`rye_execute(a="\\`': (n) => () => scanCalls('`rye_execute(a="\\`'.repeat(n)),
  "`rye_execute(a=[1, ": (n) => () => scanCalls("`rye_execute(a=[1, ".repeat(n)),
  "&amp; in metadata": (n) => xmlTree(`<r>${"&amp;".repeat(n)}</r>`),
  "<!-- in metadata": (n) => xmlTree(`<r>${"<!--".repeat(n)}</r>`),
  "<![CDATA[ in metadata": (n) => xmlTree(`<r>${"<![CDATA[".repeat(n)}</r>`),
  "<?x in metadata": (n) => xmlTree(`<r>${"<?x ".repeat(n)}</r>`),
  "attribute with references": (n) => xmlTree(`<r a="${"&lt;x".repeat(n)}"/>`),
};

describe("the generated parsers' work doubles at most when the repetition doubles", () => {
  test.each(Object.keys(WORK))("%s", (name) => {
    const n = 2000;
    const once = classTests(WORK[name]!(n));
    const twice = classTests(WORK[name]!(2 * n));
    expect(once).toBeGreaterThan(0);
    expect(twice / once).toBeLessThanOrEqual(2.2);
  });
});
