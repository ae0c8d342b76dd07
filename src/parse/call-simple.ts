// The backtick calls directives write are short and regular. For a call that parses, this reads what
// the Call rule of grammar/calls.peggy returns (the same objects, their keys in the same order), in
// one pass with a few sticky regular expressions; anything it does not accept returns null, and the
// grammar parses it (and, for a broken call, reports it). Each Peggy parse of a call made a closure
// for every rule of the grammar, and the generated parser's largest functions cost the optimising
// compiler more than any other part of a build. test/parse/call-simple.test.ts checks the two agree.

/** What the Call rule returns for one call. */
export interface SimpleCall {
  type: "call";
  name: string;
  args: { key: string; value: unknown; start: number; end: number }[];
  start: number;
  end: number;
}

const BLANKS = /[ \t\n\r]*/y;
const CALLEE = /rye_(?:execute|search|load|fetch|sign)(?![A-Za-z0-9_])/y;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const INPUT = /\{input:[^}]+\}/y;
const PROSE = /<[^>`]+>/y;
const NUMBER = /-?[0-9]+(?:\.[0-9]+)?/y;
const CONSTANT = /(?:(True|true)|(False|false)|None|null)(?![A-Za-z0-9_])/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
/** Runs of string characters that need no escape handling, for each quote. */
const PLAIN = { '"': /[^"\\`\n]*/y, "'": /[^'\\`\n]*/y };
/** Dicts and lists nested deeper than this are left to the grammar (whose limit is the stack's). */
const MAX_DEPTH = 32;

/** Not a call this reads (the grammar decides). */
const FAIL = Symbol("fail");

type Str = { kind: "str"; value: string; start: number; end: number };
type Arg = SimpleCall["args"][number];

/** The call starting with the backtick at `at`, and the offset after its closing backtick; null when the grammar must decide. */
export function parseSimpleCall(text: string, at: number): { call: SimpleCall; end: number } | null {
  return new CallReader(text, at).call();
}

/** One pass over one call: each method reads one rule of the grammar at `pos`, or restores it and fails. */
class CallReader {
  private pos: number;

  constructor(
    private readonly text: string,
    private readonly at: number,
  ) {
    this.pos = at;
  }

  call(): { call: SimpleCall; end: number } | null {
    if (!this.char("`")) return null;
    this.blanks();
    const name = this.match(CALLEE);
    if (name === null) return null;
    this.blanks();
    if (!this.char("(")) return null;
    this.blanks();
    const head = this.arg();
    const args = head === FAIL ? [] : this.list(head, () => this.arg());
    this.blanks();
    if (!this.char(")")) return null;
    this.blanks();
    if (!this.char("`")) return null;
    return { call: { type: "call", name, args, start: this.at, end: this.pos }, end: this.pos };
  }

  private match(re: RegExp): string | null {
    re.lastIndex = this.pos;
    if (!re.test(this.text)) return null;
    const from = this.pos;
    this.pos = re.lastIndex;
    return this.text.slice(from, this.pos);
  }

  private blanks(): void {
    BLANKS.lastIndex = this.pos;
    BLANKS.test(this.text);
    this.pos = BLANKS.lastIndex;
  }

  private char(c: string): boolean {
    if (this.text[this.pos] !== c) return false;
    this.pos++;
    return true;
  }

  /** A separator and what follows it, or nothing (the position restored) when either is missing. */
  private more<T>(item: () => T | typeof FAIL): T | typeof FAIL {
    const back = this.pos;
    this.blanks();
    if (this.char(",")) {
      this.blanks();
      const x = item();
      if (x !== FAIL) return x;
    }
    this.pos = back;
    return FAIL;
  }

  /** `head (_ "," _ item)* (_ ",")?`, the head already read. */
  private list<T>(head: T, item: () => T | typeof FAIL): T[] {
    const out = [head];
    for (let x = this.more(item); x !== FAIL; x = this.more(item)) out.push(x);
    const back = this.pos;
    this.blanks();
    if (!this.char(",")) this.pos = back;
    return out;
  }

  private string(): Str | typeof FAIL {
    const start = this.pos;
    const quote = this.text[this.pos];
    if (quote !== '"' && quote !== "'") return FAIL;
    this.pos++;
    let value = "";
    for (;;) {
      value += this.match(PLAIN[quote])!;
      const c = this.text[this.pos];
      if (c === quote) break;
      const escaped = c === "\\" ? this.escape() : null;
      if (escaped === null) return (this.pos = start), FAIL;
      value += escaped;
    }
    this.pos++;
    return { kind: "str", value, start, end: this.pos };
  }

  /** The text of the escape at `pos` (a backslash), past it; null at the end of the text. */
  private escape(): string | null {
    const e = this.text[this.pos + 1];
    if (e === undefined) return null;
    this.pos += 2;
    if (e === "n") return "\n";
    if (e === "t") return "\t";
    if (e === "r") return "\r";
    if (e === "\\" || e === "'" || e === '"') return e;
    if (e === "u" && this.match(HEX4) !== null) return String.fromCharCode(parseInt(this.text.slice(this.pos - 4, this.pos), 16));
    return `\\${e}`;
  }

  private value(depth: number): unknown {
    const start = this.pos;
    const c = this.text[this.pos];
    if (c === '"' || c === "'") return this.string();
    if (c === "{") {
      const raw = this.match(INPUT);
      if (raw !== null) return { kind: "input", value: raw, start };
      return depth < MAX_DEPTH ? this.dict(depth + 1) : FAIL;
    }
    if (c === "[") return depth < MAX_DEPTH ? this.array(depth + 1) : FAIL;
    const n = this.match(NUMBER);
    if (n !== null) return { kind: "num", value: Number(n), start };
    CONSTANT.lastIndex = this.pos;
    const k = CONSTANT.exec(this.text);
    if (k) {
      this.pos = CONSTANT.lastIndex;
      return { kind: "const", value: k[1] ? true : k[2] ? false : null, start };
    }
    const prose = this.match(PROSE);
    return prose !== null ? { kind: "prose", value: prose, start } : FAIL;
  }

  private pair(depth: number): Arg | typeof FAIL {
    const back = this.pos;
    const key = this.string();
    if (key === FAIL) return FAIL;
    this.blanks();
    if (this.char(":")) {
      this.blanks();
      const v = this.value(depth);
      if (v !== FAIL) return { key: key.value, value: v, start: key.start, end: key.end };
    }
    this.pos = back;
    return FAIL;
  }

  /** `open _ (item (_ "," _ item)* (_ ",")?)? _ close` */
  private bracketed<T>(open: string, close: string, item: () => T | typeof FAIL): T[] | typeof FAIL {
    const back = this.pos;
    if (!this.char(open)) return FAIL;
    this.blanks();
    const head = item();
    const items = head === FAIL ? [] : this.list(head, item);
    this.blanks();
    if (this.char(close)) return items;
    this.pos = back;
    return FAIL;
  }

  private dict(depth: number) {
    const start = this.pos;
    const entries = this.bracketed("{", "}", () => this.pair(depth));
    return entries === FAIL ? FAIL : { kind: "dict", entries, start };
  }

  private array(depth: number) {
    const start = this.pos;
    const items = this.bracketed("[", "]", () => this.value(depth));
    return items === FAIL ? FAIL : { kind: "list", items, start };
  }

  private arg(): Arg | typeof FAIL {
    const back = this.pos;
    const key = this.match(IDENT);
    if (key === null) return FAIL;
    this.blanks();
    if (this.char("=")) {
      this.blanks();
      const v = this.value(0);
      if (v !== FAIL) return { key, value: v, start: back, end: this.pos };
    }
    this.pos = back;
    return FAIL;
  }
}
