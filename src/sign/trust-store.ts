import { join } from "node:path";
import type { KeyLimit } from "./key-lifecycle.js";
import { fingerprint, publicKeyPem, TRUST_DIRS, type SigningKey } from "./keys.js";
import { formatTimestamp, signItem } from "./sign-item.js";
import { readTrustEntries } from "./trust-entries.js";
import { writeEntryFile } from "./trust-entry-write.js";
import type { SpaceRoot, TrustedKey, UnreadableEntry } from "./trust-entry.js";

export { parseTrustedKeyToml, readTrustEntry, Unreadable, type SpaceRoot, type TrustedKey, type UnreadableEntry } from "./trust-entry.js";

/** Trusted keys by fingerprint, plus the reasons any key file was skipped. */
export interface TrustStore {
  /** The key that vouches for `fingerprint`, with every limit on it; never a record that only limits. */
  get(fingerprint: string): TrustedKey | undefined;
  /** Every record, those that only limit a key (`grants: false`) included, so a store rebuilt from it keeps their limits. */
  list(): TrustedKey[];
  readonly warnings: readonly string[];
  /** The time keys' limits are judged at (default: the clock when checked). */
  readonly now?: Date;
  /**
   * Entries of a store that could not be read at all (a link out of the space, a FIFO, a device, a
   * folder, an oversized file), or that do not say which key they are about. A store with one judges
   * no signature (verify-item.ts `judge`): the entry may be the revocation of a key it would accept.
   */
  readonly unreadable: readonly UnreadableEntry[];
}

const limitId = (l: KeyLimit) => [l.kind, l.at, l.replacedBy ?? "", l.entry, l.reason ?? ""].join("\0");

/**
 * A trust store over the given keys; the first key that grants trust for a fingerprint wins, but the
 * limits of every record for it (a revocation in any store, the earliest expiry, an entry that does
 * not parse or authenticate) all apply. Records that only limit (`grants: false`) never make a key
 * trusted.
 */
export function createTrustStore(keys: Iterable<TrustedKey>, warnings: string[] = [], now?: Date, unreadable: readonly UnreadableEntry[] = []): TrustStore {
  const first = new Map<string, TrustedKey>();
  const limits = new Map<string, Map<string, KeyLimit>>();
  for (const key of keys) {
    const known = first.get(key.fingerprint);
    if (!known || (known.grants === false && key.grants !== false)) first.set(key.fingerprint, key);
    const set = limits.get(key.fingerprint) ?? new Map<string, KeyLimit>();
    for (const l of key.limits ?? []) if (!set.has(limitId(l))) set.set(limitId(l), l);
    limits.set(key.fingerprint, set);
  }
  const merged = new Map<string, TrustedKey>();
  for (const [fp, key] of first) {
    const all = [...limits.get(fp)!.values()];
    const { limits: _own, ...rest } = key;
    merged.set(fp, all.length > 0 ? { ...rest, limits: all } : rest);
  }
  const get = (fp: string) => {
    const key = merged.get(fp);
    return key && key.grants !== false ? key : undefined;
  };
  return { get, list: () => [...merged.values()], warnings, unreadable, ...(now ? { now } : {}) };
}

/** A trust store from a fingerprint → PEM map; entries whose fingerprint does not match their key are skipped. */
export function trustStoreFromPems(pems: Record<string, string>, owner = "unknown", source = "inline"): TrustStore {
  const keys: TrustedKey[] = [];
  const warnings: string[] = [];
  for (const [fp, pem] of Object.entries(pems)) {
    const actual = fingerprint(pem);
    if (actual === fp) keys.push({ fingerprint: fp, owner, publicPem: publicKeyPem(pem), source });
    else warnings.push(`Trusted key ${fp} skipped: its public key has fingerprint ${actual}`);
  }
  return createTrustStore(keys, warnings);
}

/**
 * Reads `.ai/config/keys/trusted/*.toml` and `.ai/trusted_keys/*.toml` of each space root in order
 * (project → user → system) through the one entry reader (trust-entries.ts): the first entry that
 * grants a key wins; an entry that names a key but does not parse or authenticate refuses it; an
 * entry that cannot be read, or names no key, leaves the store unable to judge anything.
 */
export function loadTrustStore(spaces: Array<string | SpaceRoot>): TrustStore {
  const warnings: string[] = [];
  const unreadable: UnreadableEntry[] = [];
  const keys: TrustedKey[] = [];
  for (const entry of readTrustEntries(spaces, warnings)) {
    if (entry.unreadable) {
      unreadable.push({ path: entry.path, reason: (entry.problem ?? "").replace(/^cannot be read: /, "") });
      warnings.push(`Trusted key file ${entry.path} ${entry.problem}`);
      continue;
    }
    if (entry.problem) warnings.push(`Trusted key file ${entry.path} refuses key ${entry.key!.fingerprint}: it ${entry.problem}`);
    if (entry.key) keys.push(entry.key);
  }
  return createTrustStore(keys, warnings, undefined, unreadable);
}

function tomlString(value: string): string {
  return JSON.stringify(value).replace(/[\u007f]/g, "\\u007f");
}

/** The trusted-key TOML document the original writes (before its signature line), with the key's canonical PEM. */
export function formatTrustedKeyToml(publicPem: string, options: { owner?: string; attestation?: string; version?: string } = {}): string {
  return [
    `version = ${tomlString(options.version ?? "1.0.0")}`,
    `category = "keys/trusted"`,
    `fingerprint = "${fingerprint(publicPem)}"`,
    `owner = ${tomlString(options.owner ?? "local")}`,
    `attestation = ${tomlString(options.attestation ?? "")}`,
    "",
    "[public_key]",
    'pem = """',
    publicKeyPem(publicPem).trim(),
    '"""',
    "",
  ].join("\n");
}

/** Writes `<space>/.ai/config/keys/trusted/<fp>.toml` through the one entry writer, signed with `signer` when one is given; returns the path. */
export function writeTrustedKey(
  spaceRoot: string,
  publicPem: string,
  options: { owner?: string; attestation?: string; signer?: SigningKey; timestamp?: string } = {},
): string {
  const dir = join(spaceRoot, ...TRUST_DIRS[0]!);
  let text = formatTrustedKeyToml(publicPem, options);
  if (options.signer) text = signItem(text, "config", options.signer, options.timestamp ?? formatTimestamp(new Date()), "key.toml");
  const path = join(dir, `${fingerprint(publicPem)}.toml`);
  // Never through a link the space (often a checkout: `--space .`) carries; see trust-entry-write.ts.
  writeEntryFile(path, text);
  return path;
}
