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

/** `SOURCE_DATE_EPOCH` as a signature timestamp, or null when unset or not a number. */
export function timestampFromEnv(env: NodeJS.ProcessEnv): string | null {
  const raw = env.SOURCE_DATE_EPOCH;
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return null;
  return formatTimestamp(Number(raw.trim()));
}

/** The timestamp of the `rye:signed:` line a source starts with (any comment style, after a shebang), or null. */
export function sourceTimestamp(text: string): string | null {
  return /^(?:#![^\n]*\n)?(?:<!--|#|\/\/) rye:signed:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z):/.exec(text)?.[1] ?? null;
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
