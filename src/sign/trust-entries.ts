/**
 * Editing a space's trusted-key entries for `rye keys revoke | expire | rotate | list`. An entry stays
 * the original's TOML (decisions.md #14: `version`, `category`, `fingerprint`, `owner`, `attestation`,
 * `[public_key] pem`); the lifecycle fields (`revoked`, `expires`, `not_before`, `replaced_by`, see
 * key-lifecycle.ts) are top-level string keys the original ignores. An edited entry is re-signed
 * with this machine's key when there is one, so a later hand edit shows (and rejects the entry).
 */
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { TRUST_DIRS, type SigningKey } from "./keys.js";
import { signItem } from "./sign-item.js";
import { formatFor, removeSignatureLine } from "./signature-line.js";
import { parseTrustedKeyToml, readTrustEntry, type TrustedKey } from "./trust-store.js";

const LIFECYCLE = ["revoked", "expires", "not_before", "replaced_by"] as const;
export type LifecycleField = (typeof LIFECYCLE)[number];

/** One entry file of a space, parsed, or why it could not be. */
export interface TrustEntry {
  path: string;
  key: TrustedKey | null;
  problem?: string;
  /** The file itself could not be read (not a regular file, too large, a link out of the space), as opposed to not parsing. */
  unreadable?: boolean;
}

/** Every entry file of a space's trust folders (current location first). */
export function trustEntries(space: string): TrustEntry[] {
  const out: TrustEntry[] = [];
  for (const d of TRUST_DIRS) {
    const dir = join(space, ...d);
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".toml")).sort();
    } catch {
      continue;
    }
    for (const n of names) {
      const path = join(dir, n);
      let text: string;
      try {
        text = readTrustEntry(path, space);
      } catch (e) {
        out.push({ path, key: null, problem: (e as Error).message, unreadable: true });
        continue;
      }
      try {
        out.push({ path, key: parseTrustedKeyToml(text, "trust entry", path) });
      } catch (e) {
        out.push({ path, key: null, problem: (e as Error).message });
      }
    }
  }
  return out;
}

/** The entry of `fp` (a full fingerprint or a unique prefix of at least 8 hex digits) in `space`. */
export function findTrustEntry(space: string, fp: string): TrustEntry | string {
  const want = fp.toLowerCase();
  if (!/^[a-f0-9]{8,16}$/.test(want)) return `${fp} is not a key fingerprint (8 to 16 hex digits)`;
  const hits = trustEntries(space).filter((e) => e.key?.fingerprint.startsWith(want));
  const keys = new Set(hits.map((h) => h.key!.fingerprint));
  if (keys.size === 0) return `No trust entry for ${fp} in ${join(space, ...TRUST_DIRS[0]!)}: give the key's public .pem file instead, or trust it first (rye keys trust FILE)`;
  if (keys.size > 1) return `${fp} names several keys (${[...keys].join(", ")}): give more of the fingerprint`;
  return hits[0]!;
}

/** `text` (an entry without its signature line) with each field set (a string) or removed (null); top-level keys go before `[public_key]`. */
export function withFields(text: string, fields: Partial<Record<LifecycleField, string | null>>): string {
  const names = Object.keys(fields) as LifecycleField[];
  const lines = text.split("\n").filter((l) => !names.some((n) => new RegExp(`^\\s*${n}\\s*=`).test(l)));
  const add = names.filter((n) => fields[n] !== null).map((n) => `${n} = ${JSON.stringify(fields[n])}`);
  const table = lines.findIndex((l) => /^\s*\[/.test(l));
  const at = table < 0 ? lines.length : table > 0 && lines[table - 1] === "" ? table - 1 : table;
  lines.splice(at, 0, ...add);
  return lines.join("\n");
}

/** Rewrites the entry at `path` with `fields`, re-signed with `signer` when given; returns the new text. */
export function setEntryFields(path: string, fields: Partial<Record<LifecycleField, string | null>>, signer: SigningKey | undefined, timestamp: string): string {
  const format = formatFor("config", "key.toml");
  // Only an entry trustEntries() read is rewritten, so it is a regular file; its folder bounds the read.
  const bare = removeSignatureLine(readTrustEntry(path, dirname(path)), format);
  let text = withFields(bare, fields);
  if (signer) text = signItem(text, "config", signer, timestamp, "key.toml");
  // Parsed before it is written: an entry this writes must read back with the same key.
  parseTrustedKeyToml(text, "trust entry", path);
  writeFileSync(path, text);
  return text;
}
