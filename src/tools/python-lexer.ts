/** One Python token; `start`/`end` are offsets into the source text. */
export interface PyToken {
  type: "name" | "number" | "string" | "op";
  text: string;
  start: number;
  end: number;
}

/** A logical line (brackets and backslashes joined) with the column of its first token. */
export interface PyLogicalLine {
  indent: number;
  tokens: PyToken[];
}

/** A tokenizer failure, which the original reports as a SyntaxError for the whole file. */
export class PyLexError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const OPERATORS = [
  "**=", "//=", ">>=", "<<=", "...",
  "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":=",
  "+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=",
];
const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
const NAME_RE = /[\p{ID_Start}_][\p{ID_Continue}]*/uy;
const STRING_PREFIX_RE = /(?:[rR][bBfF]?|[bBfF][rR]?|[uU])?(?=['"])/y;
const DIGITS = String.raw`[0-9](?:_?[0-9])*`;
const EXPONENT = String.raw`[eE][+-]?${DIGITS}`;
const FLOAT = String.raw`(?:(?:${DIGITS})?\.${DIGITS}(?:${EXPONENT})?|${DIGITS}\.(?:${EXPONENT})?|${DIGITS}${EXPONENT})`;
const NUMBER_RE = new RegExp(
  String.raw`(?:(?:${FLOAT}|${DIGITS})[jJ]|${FLOAT}|0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|[1-9](?:_?[0-9])*|0+(?:_?0)*)`,
  "y",
);

/** Splits Python source into logical lines of tokens, dropping comments and blank lines. */
export function tokenizePython(src: string): PyLogicalLine[] {
  const lines: PyLogicalLine[] = [];
  const brackets: string[] = [];
  let current: PyLogicalLine | undefined;
  let lineStart = true;
  let column = 0;
  let i = 0;
  const endLine = () => {
    if (current) lines.push(current);
    current = undefined;
    lineStart = true;
    column = 0;
  };
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === "\n" || ch === "\r") {
      i += ch === "\r" && src[i + 1] === "\n" ? 2 : 1;
      if (brackets.length === 0) endLine();
      continue;
    }
    if (ch === " " || ch === "\t" || ch === "\f") {
      if (lineStart) column = ch === "\t" ? (Math.floor(column / 8) + 1) * 8 : column + 1;
      i++;
      continue;
    }
    if (ch === "#") {
      while (i < src.length && src[i] !== "\n" && src[i] !== "\r") i++;
      continue;
    }
    if (ch === "\\") {
      const next = src[i + 1];
      if (next !== "\n" && next !== "\r") throw new PyLexError("unexpected character after line continuation character", i);
      i += next === "\r" && src[i + 2] === "\n" ? 3 : 2;
      lineStart = false;
      continue;
    }
    if (lineStart && brackets.length === 0) current = { indent: column, tokens: [] };
    lineStart = false;
    current ??= { indent: column, tokens: [] };
    const token = readToken(src, i);
    if (token.type === "op") {
      if ("([{".includes(token.text)) brackets.push(token.text);
      else if (token.text in CLOSERS) {
        if (brackets.pop() !== CLOSERS[token.text]) throw new PyLexError(`unmatched '${token.text}'`, i);
      }
    }
    current.tokens.push(token);
    i = token.end;
  }
  if (brackets.length > 0) throw new PyLexError(`'${brackets.at(-1)}' was never closed`, src.length);
  endLine();
  return lines;
}

function readToken(src: string, i: number): PyToken {
  STRING_PREFIX_RE.lastIndex = i;
  const prefix = STRING_PREFIX_RE.exec(src);
  if (prefix) return readString(src, i, prefix[0].length);
  NAME_RE.lastIndex = i;
  const name = NAME_RE.exec(src);
  if (name) return { type: "name", text: name[0], start: i, end: i + name[0].length };
  if (/[0-9]/.test(src[i]!) || (src[i] === "." && /[0-9]/.test(src[i + 1] ?? ""))) return readNumber(src, i);
  const op = OPERATORS.find((o) => src.startsWith(o, i));
  if (op) return { type: "op", text: op, start: i, end: i + op.length };
  const cp = src.codePointAt(i)!;
  throw new PyLexError(`invalid character '${String.fromCodePoint(cp)}' (U+${cp.toString(16).toUpperCase().padStart(4, "0")})`, i);
}

function readNumber(src: string, i: number): PyToken {
  NUMBER_RE.lastIndex = i;
  const m = NUMBER_RE.exec(src);
  const end = i + (m?.[0].length ?? 0);
  // Python rejects a number glued to more identifier characters (`0777`, `1__0`, `12abc`).
  if (!m || /[\p{ID_Continue}]/u.test(src[end] ?? "")) throw new PyLexError("invalid decimal literal", i);
  return { type: "number", text: m[0], start: i, end };
}

function readString(src: string, start: number, prefixLength: number): PyToken {
  let i = start + prefixLength;
  const quote = src[i]!;
  const triple = src.startsWith(quote.repeat(3), i);
  const closer = triple ? quote.repeat(3) : quote;
  i += closer.length;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === "\\") {
      i += src[i + 1] === "\r" && src[i + 2] === "\n" ? 3 : 2;
      continue;
    }
    if (!triple && (ch === "\n" || ch === "\r")) break;
    if (src.startsWith(closer, i)) {
      const end = i + closer.length;
      return { type: "string", text: src.slice(start, end), start, end };
    }
    i++;
  }
  throw new PyLexError(triple ? "unterminated triple-quoted string literal" : "unterminated string literal", start);
}
