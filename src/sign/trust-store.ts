import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { readRegularText, Unreadable } from "../project/read-regular.js";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { verifyMessage } from "./ed25519.js";
import { contentHash } from "./hash-region.js";
import { parseLimits, type KeyLimit } from "./key-lifecycle.js";
import { fingerprint, normalizePem, TRUST_DIRS, type SigningKey } from "./keys.js";
import { formatTimestamp, signItem } from "./sign-item.js";
import { formatFor, parseSignatureLine } from "./signature-line.js";

/** A public key the user has chosen to trust, with where it came from. */
export interface TrustedKey {
  fingerprint: string;
  owner: string;
  publicPem: string;
  attestation?: string;
  source: string;
  path?: string;
  /** Revocation, expiry and not-before limits from every entry naming this key (see key-lifecycle.ts). */
  limits?: KeyLimit[];
}

/** Trusted keys by fingerprint, plus the reasons any key file was skipped. */
export interface TrustStore {
  get(fingerprint: string): TrustedKey | undefined;
  list(): TrustedKey[];
  readonly warnings: readonly string[];
  /** The time keys' limits are judged at (default: the clock when checked). */
  readonly now?: Date;
  /**
   * Entries of a store that could not be read at all (a link out of the space, a FIFO, a device, a
   * folder, an oversized file). A store with one judges no signature (verify-item.ts `judge`): the
   * entry it cannot read may be the revocation of a key it would otherwise accept.
   */
  readonly unreadable: readonly UnreadableEntry[];
}

/** A trust-store entry rye would not read, and why. */
export interface UnreadableEntry {
  path: string;
  reason: string;
}

/** A space root (the directory holding `.ai/`) and the label its keys are reported with. */
export interface SpaceRoot {
  root: string;
  label?: string;
}

// The current location first, then the 2026-02 one, within each space.
const TOML_FORMAT = formatFor("config", "key.toml");

/**
 * A trust store over the given keys; the first key for a fingerprint wins, but the limits of every
 * entry for it (a revocation in any store, the earliest expiry) all apply.
 */
export function createTrustStore(keys: Iterable<TrustedKey>, warnings: string[] = [], now?: Date, unreadable: readonly UnreadableEntry[] = []): TrustStore {
  const byFp = new Map<string, TrustedKey>();
  for (const key of keys) {
    const first = byFp.get(key.fingerprint);
    if (!first) byFp.set(key.fingerprint, key);
    else if (key.limits?.length) byFp.set(key.fingerprint, { ...first, limits: [...(first.limits ?? []), ...key.limits.filter((l) => !first.limits?.includes(l))] });
  }
  return { get: (fp) => byFp.get(fp), list: () => [...byFp.values()], warnings, unreadable, ...(now ? { now } : {}) };
}

/** A trust store from a fingerprint → PEM map; entries whose fingerprint does not match their key are skipped. */
export function trustStoreFromPems(pems: Record<string, string>, owner = "unknown", source = "inline"): TrustStore {
  const keys: TrustedKey[] = [];
  const warnings: string[] = [];
  for (const [fp, pem] of Object.entries(pems)) {
    const actual = fingerprint(pem);
    if (actual === fp) keys.push({ fingerprint: fp, owner, publicPem: normalizePem(pem), source });
    else warnings.push(`Trusted key ${fp} skipped: its public key has fingerprint ${actual}`);
  }
  return createTrustStore(keys, warnings);
}

/** Parses a trusted-key TOML document; the fingerprint is recomputed from the PEM, never taken on trust. */
export function parseTrustedKeyToml(text: string, source: string, path?: string): TrustedKey {
  const raw = parseToml(text) as Record<string, unknown>;
  const pk = raw.public_key as Record<string, unknown> | undefined;
  const pem = typeof pk?.pem === "string" ? pk.pem : "";
  if (!pem.includes("BEGIN PUBLIC KEY")) throw new Error("no [public_key] pem");
  const publicPem = normalizePem(pem);
  const fp = fingerprint(publicPem);
  if (typeof raw.fingerprint === "string" && raw.fingerprint !== fp) {
    throw new Error(`declares fingerprint ${raw.fingerprint} but its public key has fingerprint ${fp}`);
  }
  const key: TrustedKey = { fingerprint: fp, owner: typeof raw.owner === "string" ? raw.owner : "unknown", publicPem, source };
  if (typeof raw.attestation === "string" && raw.attestation !== "") key.attestation = raw.attestation;
  if (path !== undefined) key.path = path;
  const limits = parseLimits(raw, path ?? source);
  if (limits.length > 0) key.limits = limits;
  return key;
}

function listToml(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".toml")).sort().map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/**
 * Checks a key file's own `# rye:signed:` line, as the original does on load: a changed file or a bad
 * self- or cross-signature rejects the key. An unsigned file, or one signed by a key absent from every
 * space, is accepted with a warning: the bundles ship `6ea18199041a1ea8` signed by `4b987fd4e40303ac`, which
 * no bundle trusts, and the original would therefore reject the very key that signed seed 004.
 */
function keyFileProblem(text: string, key: TrustedKey, candidates: Map<string, TrustedKey>, warnings: string[]): string | null {
  const sig = parseSignatureLine(text, TOML_FORMAT);
  if (!sig) return null;
  const actual = contentHash(text, "config", "key.toml");
  if (actual !== sig.hash) return `content tampered (expected ${sig.hash.slice(0, 16)}…, got ${actual.slice(0, 16)}…)`;
  const signer = sig.fingerprint === key.fingerprint ? key : candidates.get(sig.fingerprint);
  if (!signer) {
    warnings.push(`Trusted key ${key.fingerprint} (${key.path}) is signed by ${sig.fingerprint}, which no space trusts; its file signature was not checked`);
    return null;
  }
  return verifyMessage(sig.hash, sig.signature, signer.publicPem) ? null : `Ed25519 signature by ${sig.fingerprint} invalid`;
}

/**
 * Reads `.ai/config/keys/trusted/*.toml` and `.ai/trusted_keys/*.toml` of each space root in order
 * (project → user → system); the first file whose recomputed fingerprint matches wins.
 */
export function loadTrustStore(spaces: Array<string | SpaceRoot>): TrustStore {
  const warnings: string[] = [];
  const unreadable: UnreadableEntry[] = [];
  const loaded: Array<{ key: TrustedKey; text: string }> = [];
  spaces.forEach((space, i) => {
    const { root, label } = typeof space === "string" ? { root: space, label: undefined } : space;
    for (const path of TRUST_DIRS.flatMap((d) => listToml(join(root, ...d)))) {
      let text: string;
      try {
        text = readTrustEntry(path, root);
      } catch (e) {
        const reason = (e as Error).message;
        unreadable.push({ path, reason });
        warnings.push(`Trusted key file ${path} cannot be read: ${reason}`);
        continue;
      }
      try {
        loaded.push({ key: parseTrustedKeyToml(text, label ?? `space ${i + 1}`, path), text });
      } catch (e) {
        warnings.push(`Trusted key file ${path} skipped: ${(e as Error).message}`);
      }
    }
  });
  const candidates = new Map<string, TrustedKey>();
  for (const { key } of loaded) if (!candidates.has(key.fingerprint)) candidates.set(key.fingerprint, key);
  const accepted: TrustedKey[] = [];
  for (const { key, text } of loaded) {
    const problem = keyFileProblem(text, key, candidates, warnings);
    if (problem) warnings.push(`Trusted key file ${key.path} rejected: ${problem}`);
    else accepted.push(key);
  }
  return createTrustStore(accepted, warnings, undefined, unreadable);
}

/**
 * The text of a trust entry of the space at `root`: a regular file of at most a key's size, a link
 * followed only to a file inside the space (a checkout's entry linking to /dev/zero or to a file
 * elsewhere on the machine is refused). Throws Unreadable.
 */
export function readTrustEntry(path: string, root: string): string {
  return readRegularText(path, { kind: "key", link: { links: "inside", root } }).replace(/\r\n?/g, "\n");
}

export { Unreadable };

function tomlString(value: string): string {
  return JSON.stringify(value).replace(/[\u007f]/g, "\\u007f");
}

/** The trusted-key TOML document the original writes (before its signature line). */
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
    publicPem.trim(),
    '"""',
    "",
  ].join("\n");
}

/** Writes `<space>/.ai/config/keys/trusted/<fp>.toml`, signed with `signer` when one is given; returns the path. */
export function writeTrustedKey(
  spaceRoot: string,
  publicPem: string,
  options: { owner?: string; attestation?: string; signer?: SigningKey; timestamp?: string } = {},
): string {
  const dir = join(spaceRoot, ...TRUST_DIRS[0]!);
  mkdirSync(dir, { recursive: true });
  let text = formatTrustedKeyToml(publicPem, options);
  if (options.signer) text = signItem(text, "config", options.signer, options.timestamp ?? formatTimestamp(new Date()), "key.toml");
  const path = join(dir, `${fingerprint(publicPem)}.toml`);
  writeFileSync(path, text);
  return path;
}
