// The metadata XML of nearly every directive is plain: elements, attributes and text, without
// references, CDATA, comments, processing instructions or a declaration. For such input this reads
// the tree grammar/xml.peggy would return, in one pass instead of Peggy's per-character tests;
// anything else, including every error, returns null and the grammar parses it (and reports).
// test/parse/xml-simple.test.ts checks the two agree.

export interface RawText {
  text: string;
  start: number;
}

export interface RawElement {
  name: string;
  attrs: { name: string; value: string; start: number }[];
  children: (RawElement | RawText)[];
  start: number;
  end: number;
  openEnd: number;
}

// The grammar's NameStart and NameChar classes.
const NAME_START = String.raw`:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD`;
const NAME = new RegExp(String.raw`[${NAME_START}][${NAME_START}\-.0-9\u00B7\u0300-\u036F\u203F-\u2040]*`, "y");
const BLANKS = /[ \t\r\n]*/y;
/** The grammar's CharData: no markup, reference, "]]>" or excluded character. */
const PLAIN_TEXT = /(?:[^<&\]\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|\](?!\]>))*/y;
const PLAIN_VALUE = { '"': /[^<&"\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]*/y, "'": /[^<&'\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]*/y };

/** Thrown (and caught below) when the input leaves the simple subset. */
const NOT_SIMPLE = Symbol("not simple");

export function parseSimpleXml(xml: string): RawElement | null {
  let pos = 0;
  // `test` and a slice instead of `exec`: no match array is made for each of the many tokens.
  const run = (re: RegExp): string => {
    re.lastIndex = pos;
    if (!re.test(xml)) return "";
    const from = pos;
    pos = re.lastIndex;
    return xml.slice(from, pos);
  };
  const blanks = (): boolean => {
    BLANKS.lastIndex = pos;
    BLANKS.test(xml);
    const moved = BLANKS.lastIndex !== pos;
    pos = BLANKS.lastIndex;
    return moved;
  };
  const name = (): string => {
    const s = run(NAME);
    if (s === "") throw NOT_SIMPLE;
    return s;
  };
  const expect = (c: string) => {
    if (xml[pos] !== c) throw NOT_SIMPLE;
    pos++;
  };
  const element = (): RawElement => {
    const start = pos;
    expect("<");
    const tag = name();
    const attrs: RawElement["attrs"] = [];
    // Most elements have a few attributes, compared in place; a set only for one with many.
    let seen: Set<string> | null = null;
    for (;;) {
      if (!blanks()) break;
      const c = xml[pos];
      if (c === ">" || c === "/") break;
      const at = pos;
      const attr = name();
      blanks();
      expect("=");
      blanks();
      const quote = xml[pos];
      if (quote !== '"' && quote !== "'") throw NOT_SIMPLE;
      pos++;
      const value = run(PLAIN_VALUE[quote]);
      expect(quote);
      if (attrs.length < 8 ? attrs.some((a) => a.name === attr) : (seen ??= new Set(attrs.map((a) => a.name))).has(attr)) throw NOT_SIMPLE;
      seen?.add(attr);
      attrs.push({ name: attr, value: value.replace(/[\t\n\r]/g, " "), start: at });
    }
    if (xml.startsWith("/>", pos)) {
      pos += 2;
      return { name: tag, attrs, children: [], start, end: pos, openEnd: pos };
    }
    expect(">");
    const openEnd = pos;
    const children: RawElement["children"] = [];
    for (;;) {
      const textStart = pos;
      const text = run(PLAIN_TEXT);
      if (text !== "") children.push({ text, start: textStart });
      if (xml[pos] !== "<") throw NOT_SIMPLE;
      if (xml[pos + 1] === "/") break;
      children.push(element());
    }
    pos += 2;
    if (name() !== tag) throw NOT_SIMPLE;
    blanks();
    expect(">");
    return { name: tag, attrs, children, start, end: pos, openEnd };
  };
  try {
    blanks();
    const root = element();
    blanks();
    return pos === xml.length ? root : null;
  } catch (e) {
    if (e === NOT_SIMPLE) return null;
    throw e;
  }
}
