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

/** The call starting with the backtick at `at`, and the offset after its closing backtick; null when the grammar must decide. */
export function parseSimpleCall(text: string, at: number): { call: SimpleCall; end: number } | null {
  let pos = at;
  const match = (re: RegExp): string | null => {
    re.lastIndex = pos;
    if (!re.test(text)) return null;
    const from = pos;
    pos = re.lastIndex;
    return text.slice(from, pos);
  };
  const blanks = () => {
    BLANKS.lastIndex = pos;
    BLANKS.test(text);
    pos = BLANKS.lastIndex;
  };
  const char = (c: string): boolean => {
    if (text[pos] !== c) return false;
    pos++;
    return true;
  };
  // A separator and what follows it, or nothing (the position restored) when either is missing.
  const more = <T>(item: () => T | typeof FAIL): T | typeof FAIL => {
    const back = pos;
    blanks();
    if (char(",")) {
      blanks();
      const x = item();
      if (x !== FAIL) return x;
    }
    pos = back;
    return FAIL;
  };
  const trailingComma = () => {
    const back = pos;
    blanks();
    if (!char(",")) pos = back;
  };
  // `head (_ "," _ item)* (_ ",")?`, the head already read.
  const list = <T>(head: T, item: () => T | typeof FAIL): T[] => {
    const out = [head];
    for (let x = more(item); x !== FAIL; x = more(item)) out.push(x);
    trailingComma();
    return out;
  };

  const string = (): { kind: "str"; value: string; start: number; end: number } | typeof FAIL => {
    const start = pos;
    const quote = text[pos];
    if (quote !== '"' && quote !== "'") return FAIL;
    pos++;
    let value = "";
    for (;;) {
      value += match(PLAIN[quote])!;
      const c = text[pos];
      if (c === quote) break;
      if (c !== "\\") return (pos = start), FAIL;
      const e = text[pos + 1];
      if (e === undefined) return (pos = start), FAIL;
      pos += 2;
      if (e === "n") value += "\n";
      else if (e === "t") value += "\t";
      else if (e === "r") value += "\r";
      else if (e === "\\" || e === "'" || e === '"') value += e;
      else if (e === "u" && match(HEX4) !== null) value += String.fromCharCode(parseInt(text.slice(pos - 4, pos), 16));
      else value += `\\${e}`;
    }
    pos++;
    return { kind: "str", value, start, end: pos };
  };

  const value = (depth: number): unknown => {
    const start = pos;
    const c = text[pos];
    if (c === '"' || c === "'") return string();
    if (c === "{") {
      const raw = match(INPUT);
      if (raw !== null) return { kind: "input", value: raw, start };
      return depth < MAX_DEPTH ? dict(depth + 1) : FAIL;
    }
    if (c === "[") return depth < MAX_DEPTH ? array(depth + 1) : FAIL;
    const n = match(NUMBER);
    if (n !== null) return { kind: "num", value: Number(n), start };
    CONSTANT.lastIndex = pos;
    const k = CONSTANT.exec(text);
    if (k) {
      pos = CONSTANT.lastIndex;
      return { kind: "const", value: k[1] ? true : k[2] ? false : null, start };
    }
    const prose = match(PROSE);
    return prose !== null ? { kind: "prose", value: prose, start } : FAIL;
  };

  const pair = (depth: number) => (): { key: string; value: unknown; start: number; end: number } | typeof FAIL => {
    const back = pos;
    const key = string();
    if (key === FAIL) return FAIL;
    blanks();
    if (char(":")) {
      blanks();
      const v = value(depth);
      if (v !== FAIL) return { key: key.value, value: v, start: key.start, end: key.end };
    }
    pos = back;
    return FAIL;
  };

  // `open _ (item (_ "," _ item)* (_ ",")?)? _ close`
  const bracketed = <T>(open: string, close: string, item: () => T | typeof FAIL): T[] | typeof FAIL => {
    const back = pos;
    if (!char(open)) return FAIL;
    blanks();
    const head = item();
    const items = head === FAIL ? [] : list(head, item);
    blanks();
    if (char(close)) return items;
    pos = back;
    return FAIL;
  };

  const dict = (depth: number) => {
    const start = pos;
    const entries = bracketed("{", "}", pair(depth));
    return entries === FAIL ? FAIL : { kind: "dict", entries, start };
  };

  const array = (depth: number) => {
    const start = pos;
    const items = bracketed("[", "]", () => value(depth));
    return items === FAIL ? FAIL : { kind: "list", items, start };
  };

  const arg = (): SimpleCall["args"][number] | typeof FAIL => {
    const back = pos;
    const key = match(IDENT);
    if (key === null) return FAIL;
    blanks();
    if (char("=")) {
      blanks();
      const v = value(0);
      if (v !== FAIL) return { key, value: v, start: back, end: pos };
    }
    pos = back;
    return FAIL;
  };

  if (!char("`")) return null;
  blanks();
  const name = match(CALLEE);
  if (name === null) return null;
  blanks();
  if (!char("(")) return null;
  blanks();
  const head = arg();
  const args = head === FAIL ? [] : list(head, arg);
  blanks();
  if (!char(")")) return null;
  blanks();
  if (!char("`")) return null;
  return { call: { type: "call", name, args, start: at, end: pos }, end: pos };
}
