import { signMessage } from "./ed25519.js";
import { contentHash, normalizeNewlines } from "./hash-region.js";
import type { SigningKey } from "./keys.js";
import { formatFor, formatSignatureLine, insertSignatureLine, type ItemKind } from "./signature-line.js";

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Formats a Date or epoch seconds as the signature timestamp `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds). */
export function formatTimestamp(when: Date | number): string {
  const date = typeof when === "number" ? new Date(when * 1000) : when;
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid timestamp: ${String(when)}`);
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Checks that a caller-supplied timestamp has the exact shape the signature line requires. */
export function checkTimestamp(timestamp: string): string {
  if (!TIMESTAMP.test(timestamp)) throw new Error(`Signature timestamp must look like 2026-01-01T00:00:00Z, got ${JSON.stringify(timestamp)}`);
  return timestamp;
}

/**
 * Signs a Rye item in the original's format: hashes the kind's region, signs the ASCII hex hash and
 * puts the line first (after a shebang where the format allows), replacing any previous signature line.
 */
export function signItem(text: string, kind: ItemKind, key: SigningKey, timestamp: string, filename?: string): string {
  const normalized = normalizeNewlines(text);
  const format = formatFor(kind, filename);
  const hash = contentHash(normalized, kind, filename);
  const line = formatSignatureLine(format, {
    timestamp: checkTimestamp(timestamp),
    hash,
    signature: signMessage(hash, key.privateKey),
    fingerprint: key.fingerprint,
  });
  return insertSignatureLine(normalized, line, format);
}
