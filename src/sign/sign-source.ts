// Signing one source item's text as the original's sign tool does (its per-kind line format and
// hash region), keeping what a checkout cares about: a file written with CRLF throughout stays CRLF
// (the hash is over the LF text either way). Data in, data out: the caller reads and writes files.
import { verifyMessage } from "./ed25519.js";
import { contentHash, normalizeNewlines } from "./hash-region.js";
import type { SigningKey } from "./keys.js";
import { signItem } from "./sign-item.js";
import { formatFor, parseSignatureLine, type ItemKind, type SignatureInfo } from "./signature-line.js";

export interface SignedSource {
  /** The text to write back (equal to the input when `status` is "unchanged"). */
  text: string;
  /** "signed": it had no signature; "re-signed": its line was replaced (stale, or another key's); "unchanged": already signed by this key over this content. */
  status: "signed" | "re-signed" | "unchanged";
  /** The signature line found before, if any. */
  previous: SignatureInfo | null;
}

/** True when every line break of `text` is CRLF (and there is at least one). */
function allCrlf(text: string): boolean {
  return text.includes("\r\n") && !/(?:^|[^\r])\n/.test(text) && !/\r(?!\n)/.test(text);
}

/**
 * Signs `text`, an item of `kind` named `filename`, with `key` at `timestamp`, replacing any
 * signature line it has. Throws the original's errors (a directive without `<directive>`, an
 * extension the kind has no signature format for).
 */
export function signSource(text: string, kind: ItemKind, filename: string, key: SigningKey, timestamp: string): SignedSource {
  const lf = normalizeNewlines(text);
  const format = formatFor(kind, filename);
  const previous = parseSignatureLine(lf, format);
  const hash = contentHash(lf, kind, filename);
  if (previous && previous.fingerprint === key.fingerprint && previous.hash === hash && verifyMessage(hash, previous.signature, key.publicPem)) {
    return { text, status: "unchanged", previous };
  }
  const signed = signItem(lf, kind, key, timestamp, filename);
  return { text: allCrlf(text) ? signed.replace(/\n/g, "\r\n") : signed, status: previous ? "re-signed" : "signed", previous };
}
