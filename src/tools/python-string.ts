import type { PyToken } from "./python-lexer.js";

/** A decoded Python string token: `str`, `bytes` (as a Latin-1 string) or an f-string (never a literal). */
export type PyStringValue =
  | { kind: "str" | "bytes"; value: string }
  | { kind: "fstring" }
  | { kind: "invalid"; problem: string };

const SIMPLE_ESCAPES: Record<string, string> = {
  "\n": "",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

/** Decodes one string token (prefix, quotes and body) the way Python's compiler does. */
export function decodePyString(token: string): PyStringValue {
  const prefix = /^[a-zA-Z]*/.exec(token)![0].toLowerCase();
  if (prefix.includes("f")) return { kind: "fstring" };
  const quoteLength = token.startsWith(token[prefix.length]!.repeat(3), prefix.length) && token.length - prefix.length >= 6 ? 3 : 1;
  // Python reads every newline form of the source as "\n", inside string literals too.
  const body = token.slice(prefix.length + quoteLength, token.length - quoteLength).replace(/\r\n?/g, "\n");
  const bytes = prefix.includes("b");
  if (bytes && /[^\x00-\x7f]/.test(body)) return { kind: "invalid", problem: "bytes can only contain ASCII literal characters" };
  if (prefix.includes("r")) return { kind: bytes ? "bytes" : "str", value: body };
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = body[i + 1] ?? "";
    if (next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next];
      i++;
      continue;
    }
    const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      const code = parseInt(octal[0], 8);
      if (bytes && code > 0xff) return { kind: "invalid", problem: `octal escape \\${octal[0]} is out of range for bytes` };
      out += String.fromCharCode(code);
      i += octal[0].length;
      continue;
    }
    const width = next === "x" ? 2 : bytes ? 0 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (width > 0) {
      const hex = body.slice(i + 2, i + 2 + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) {
        return { kind: "invalid", problem: `truncated \\${next}${"X".repeat(width)} escape` };
      }
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) return { kind: "invalid", problem: `illegal Unicode character \\${next}${hex}` };
      out += String.fromCodePoint(code);
      i += 1 + width;
      continue;
    }
    if (next === "N" && !bytes) {
      // Resolving \N{NAME} needs the Unicode name table, which the JavaScript runtime does not carry.
      return { kind: "invalid", problem: "\\N{...} escapes are not supported; write the character or a \\u escape" };
    }
    out += "\\";
  }
  return { kind: bytes ? "bytes" : "str", value: out };
}

/** The value of a statement that is a docstring: one `str` constant, possibly parenthesised or concatenated. */
export function pyDocstringValue(tokens: PyToken[]): string | undefined {
  let from = 0;
  let to = tokens.length;
  while (to - from >= 2 && tokens[from]!.text === "(" && tokens[to - 1]!.text === ")") [from, to] = [from + 1, to - 1];
  const inner = tokens.slice(from, to);
  if (inner.length === 0 || inner.some((t) => t.type !== "string")) return undefined;
  let value = "";
  for (const t of inner) {
    const decoded = decodePyString(t.text);
    if (decoded.kind !== "str") return undefined;
    value += decoded.value;
  }
  return value;
}
