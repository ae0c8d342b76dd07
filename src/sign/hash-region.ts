import * as crypto from "node:crypto";
import { createHash } from "node:crypto";
import {
  formatFor,
  removeSignatureLine,
  stripShebang,
  type ItemKind,
  type SignatureFormat,
} from "./signature-line.js";

/** Raised when a directive has no `<directive …>…</directive>` to hash, with the original's wording. */
export class NoDirectiveError extends Error {
  override name = "ValueError";
  constructor() {
    super("No XML directive found in content");
  }
}

/** Python's text-mode reading: CRLF and lone CR become LF. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

// Python's str.strip() set differs from String.prototype.trim(): it includes \x1c-\x1f and \x85 but not \ufeff.
const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g");

/** Python's `str.strip()` with no arguments. */
export function pyStrip(text: string): string {
  return text.replace(PY_STRIP, "");
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string | Uint8Array): string {
  return oneShot ? oneShot("sha256", text, "hex") : createHash("sha256").update(text).digest("hex");
}

/**
 * `crypto.hash` (Node 20.12 and later): no Hash object per call, which a build makes tens of
 * thousands of (each one memory outside the heap until a collection).
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "hex") => string }).hash;

function directiveRegion(text: string): string {
  const start = /<directive[^>]*>/.exec(text);
  if (!start) throw new NoDirectiveError();
  const endTag = "</directive>";
  const end = text.lastIndexOf(endTag);
  if (end === -1 || end < start.index) throw new NoDirectiveError();
  return pyStrip(text.slice(start.index, end + endTag.length));
}

function knowledgeRegion(text: string, format: SignatureFormat): string {
  const rest = removeSignatureLine(text, format);
  if (!rest.startsWith("---")) return rest;
  const close = rest.indexOf("---", 3);
  return close === -1 ? rest : pyStrip(rest.slice(close + 3));
}

/**
 * The exact text the original hashes for an item: a directive's first `<directive…>` to its last
 * `</directive>` (stripped), a knowledge file minus its signature line (only the text after a closing
 * `---` when it starts with `---`), and a tool or config file minus its shebang and signature line.
 */
export function hashRegion(text: string, kind: ItemKind, filename?: string): string {
  const normalized = normalizeNewlines(text);
  const format = formatFor(kind, filename);
  switch (kind) {
    case "directive":
      return directiveRegion(normalized);
    case "knowledge":
      return knowledgeRegion(normalized, format);
    case "tool":
    case "config":
      return stripShebang(removeSignatureLine(normalized, format));
  }
}

/** The content hash the original stores in an item's signature line. */
export function contentHash(text: string, kind: ItemKind, filename?: string): string {
  return sha256Hex(hashRegion(text, kind, filename));
}
