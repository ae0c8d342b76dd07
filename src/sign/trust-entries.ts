/**
 * The one reader of a space's trusted-key entries, for verification and the loader (trust-store.ts
 * `loadTrustStore`), the signer's own check (machine-key-state.ts) and `rye keys list | revoke |
 * expire | rotate`; and the one writer of their lifecycle fields. An edited entry is rewritten from
 * its parsed form, re-signed with this machine's key when there is one (so a later hand edit shows),
 * and read back through the same reader before the edit counts as done.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { TRUST_DIRS, type SigningKey } from "./keys.js";
import { signItem } from "./sign-item.js";
import { formatFor, removeSignatureLine } from "./signature-line.js";
import {
  authenticate,
  judgeEntryText,
  readTrustEntry,
  withFields,
  type LifecycleField,
  type SpaceRoot,
  type TrustedKey,
  type TrustEntry,
} from "./trust-entry.js";
import { writeEntryFile } from "./trust-entry-write.js";

export { withFields, type LifecycleField, type TrustEntry };

function entryFiles(root: string): string[] {
  return TRUST_DIRS.flatMap((d) => {
    const dir = join(root, ...d);
    try {
      return readdirSync(dir).filter((n) => n.endsWith(".toml")).sort().map((n) => join(dir, n));
    } catch {
      return [];
    }
  });
}

/**
 * Every entry of the given spaces (in order; within each, the current location first), read, parsed
 * and authenticated; a signature line naming a key of any of these spaces is checked with it.
 */
export function readTrustEntries(spaces: ReadonlyArray<string | SpaceRoot>, warnings: string[] = []): TrustEntry[] {
  const read: TrustEntry[] = [];
  spaces.forEach((space, i) => {
    const { root, label } = typeof space === "string" ? { root: space, label: undefined } : space;
    for (const path of entryFiles(root)) {
      let text: string;
      try {
        text = readTrustEntry(path, root);
      } catch (e) {
        read.push({ path, key: null, problem: `cannot be read: ${(e as Error).message}`, unreadable: true });
        continue;
      }
      read.push(...judgeEntryText(text, path, label ?? `space ${i + 1}`));
    }
  });
  const candidates = new Map<string, TrustedKey>();
  for (const e of read) if (e.key && e.key.grants !== false && !candidates.has(e.key.fingerprint)) candidates.set(e.key.fingerprint, e.key);
  return read.map((e) => authenticate(e, candidates, warnings));
}

/** Every entry file of a space's trust folders (current location first), judged. */
export function trustEntries(space: string): TrustEntry[] {
  return readTrustEntries([space]);
}

/** The limits every entry of `entries` sets on `fp` (refusals of entries that do not parse or authenticate included). */
export function limitsOf(entries: readonly TrustEntry[], fp: string): TrustedKey["limits"] {
  return entries.flatMap((e) => (e.key?.fingerprint === fp ? (e.key.limits ?? []) : []));
}

/** The entry of `fp` (a full fingerprint or a unique prefix of at least 8 hex digits) in `space`. */
export function findTrustEntry(space: string, fp: string): TrustEntry | string {
  const want = fp.toLowerCase();
  if (!/^[a-f0-9]{8,16}$/.test(want)) return `${fp} is not a key fingerprint (8 to 16 hex digits)`;
  const hits = trustEntries(space).filter((e) => e.key?.fingerprint.startsWith(want) && e.key.publicPem !== "");
  const keys = new Set(hits.map((h) => h.key!.fingerprint));
  if (keys.size === 0) return `No trust entry for ${fp} in ${join(space, ...TRUST_DIRS[0]!)}: give the key's public .pem file instead, or trust it first (rye keys trust FILE)`;
  if (keys.size > 1) return `${fp} names several keys (${[...keys].join(", ")}): give more of the fingerprint`;
  return hits[0]!;
}

/** Rewrites the entry at `path` with `fields`, re-signed with `signer` when given; returns the new text. */
export function setEntryFields(path: string, fields: Partial<Record<LifecycleField, string | null>>, signer: SigningKey | undefined, timestamp: string): string {
  const format = formatFor("config", "key.toml");
  // Only an entry trustEntries() read is rewritten, so it is a regular file; its folder bounds the read.
  const bare = removeSignatureLine(readTrustEntry(path, dirname(path)), format);
  let text = withFields(bare, fields);
  if (signer) text = signItem(text, "config", signer, timestamp, "key.toml");
  const [judged] = judgeEntryText(text, path, "trust entry");
  if (!judged?.key || judged.problem) throw new Error(`the rewritten entry ${path} would not read back (${judged?.problem ?? "no key"}); it was left as it was`);
  writeEntryFile(path, text);
  return text;
}

/**
 * Confirms, through the reader every verifier uses, that the key of the entry at `path` in `space` is
 * now in the state an edit meant: refused (revoke) or carrying `expires` (expire, rotate). Throws otherwise.
 */
export function confirmEntryState(space: string, path: string, fp: string, want: { revoked?: boolean; expires?: string }): void {
  const entries = trustEntries(space);
  const own = entries.find((e) => e.path === path);
  if (!own?.key || own.problem || own.key.fingerprint !== fp) {
    throw new Error(`the entry ${path} does not read back as the entry of ${fp}${own?.problem ? ` (${own.problem})` : ""}: the key's state is unchanged, check the file`);
  }
  if (want.revoked && !own.key.limits?.some((l) => l.kind === "revoked")) {
    throw new Error(`the entry ${path} was written but ${fp} does not read back as revoked: it is still trusted, check the file`);
  }
  if (want.expires && !own.key.limits?.some((l) => l.kind === "expires" && l.at === want.expires)) {
    throw new Error(`the entry ${path} was written but does not read back with expires = ${want.expires}: check the file`);
  }
}
