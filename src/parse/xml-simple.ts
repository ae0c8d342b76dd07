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
  const reader = new XmlReader(xml);
  try {
    return reader.document();
  } catch (e) {
    if (e === NOT_SIMPLE) return null;
    throw e;
  }
}

/** One pass over the XML: each method reads one rule of the grammar at `pos`, or throws NOT_SIMPLE. */
class XmlReader {
  private pos = 0;

  constructor(private readonly xml: string) {}

  document(): RawElement | null {
    this.blanks();
    const root = this.element();
    this.blanks();
    return this.pos === this.xml.length ? root : null;
  }

  // `test` and a slice instead of `exec`: no match array is made for each of the many tokens.
  private run(re: RegExp): string {
    re.lastIndex = this.pos;
    if (!re.test(this.xml)) return "";
    const from = this.pos;
    this.pos = re.lastIndex;
    return this.xml.slice(from, this.pos);
  }

  private blanks(): boolean {
    BLANKS.lastIndex = this.pos;
    BLANKS.test(this.xml);
    const moved = BLANKS.lastIndex !== this.pos;
    this.pos = BLANKS.lastIndex;
    return moved;
  }

  private name(): string {
    const s = this.run(NAME);
    if (s === "") throw NOT_SIMPLE;
    return s;
  }

  private expect(c: string): void {
    if (this.xml[this.pos] !== c) throw NOT_SIMPLE;
    this.pos++;
  }

  private element(): RawElement {
    const start = this.pos;
    this.expect("<");
    const tag = this.name();
    const attrs = this.attributes();
    if (this.xml.startsWith("/>", this.pos)) {
      this.pos += 2;
      return { name: tag, attrs, children: [], start, end: this.pos, openEnd: this.pos };
    }
    this.expect(">");
    const openEnd = this.pos;
    const children = this.children();
    this.pos += 2;
    if (this.name() !== tag) throw NOT_SIMPLE;
    this.blanks();
    this.expect(">");
    return { name: tag, attrs, children, start, end: this.pos, openEnd };
  }

  private attributes(): RawElement["attrs"] {
    const attrs: RawElement["attrs"] = [];
    // Most elements have a few attributes, compared in place; a set only for one with many.
    let seen: Set<string> | null = null;
    for (;;) {
      if (!this.blanks()) break;
      const c = this.xml[this.pos];
      if (c === ">" || c === "/") break;
      const at = this.pos;
      const attr = this.name();
      this.blanks();
      this.expect("=");
      this.blanks();
      const quote = this.xml[this.pos];
      if (quote !== '"' && quote !== "'") throw NOT_SIMPLE;
      this.pos++;
      const value = this.run(PLAIN_VALUE[quote]);
      this.expect(quote);
      if (attrs.length < 8 ? attrs.some((a) => a.name === attr) : (seen ??= new Set(attrs.map((a) => a.name))).has(attr)) throw NOT_SIMPLE;
      seen?.add(attr);
      attrs.push({ name: attr, value: value.replace(/[\t\n\r]/g, " "), start: at });
    }
    return attrs;
  }

  /** Text and elements up to the `</` of the end tag (left at it). */
  private children(): RawElement["children"] {
    const children: RawElement["children"] = [];
    for (;;) {
      const textStart = this.pos;
      const text = this.run(PLAIN_TEXT);
      if (text !== "") children.push({ text, start: textStart });
      if (this.xml[this.pos] !== "<") throw NOT_SIMPLE;
      if (this.xml[this.pos + 1] === "/") return children;
      children.push(this.element());
    }
  }
}
