/**
 * One trusted-key entry (decisions.md #14: `version`, `category`, `fingerprint`, `owner`,
 * `attestation`, `[public_key] pem`, plus the lifecycle fields of key-lifecycle.ts): read, judged and
 * written back. Every consumer (verification, the loader, the signer's own check, `rye keys`) reads
 * entries through `judgeEntryText`, so they cannot disagree about what an entry says.
 *
 * Only the grant of trust needs an entry to parse and authenticate. An entry that names a key but does
 * not parse, has a field that does not parse, or fails its own `# rye:signed:` check grants nothing and
 * refuses its key (a `refused` limit, which applies whichever anchor brings the key): it may be a
 * revocation whose text was damaged. An entry that does not even say which key it is about is
 * `unreadable`, and a store holding one judges no signature at all.
 */
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { readRegularText, Unreadable } from "../project/read-regular.js";
import { verifyMessage } from "./ed25519.js";
import { contentHash, sha256Hex } from "./hash-region.js";
import { parseLimits, type KeyLimit } from "./key-lifecycle.js";
import { fingerprint, normalizePem, publicKeyPem } from "./keys.js";
import { formatFor, parseSignatureLine } from "./signature-line.js";

/** A public key the user has chosen to trust, with where it came from. */
export interface TrustedKey {
  fingerprint: string;
  owner: string;
  /** The key's canonical SPKI PEM (whatever spelling its entry used). */
  publicPem: string;
  attestation?: string;
  source: string;
  path?: string;
  /** Revocation, expiry and not-before limits from every entry naming this key (see key-lifecycle.ts). */
  limits?: KeyLimit[];
  /** False for a record that only limits its key (an entry that does not parse or authenticate): it never makes the key trusted. */
  grants?: false;
}

/** A trust-store entry rye would not read (or cannot tell the key of), and why. */
export interface UnreadableEntry {
  path: string;
  reason: string;
}

/** A space root (the directory holding `.ai/`) and the label its keys are reported with. */
export interface SpaceRoot {
  root: string;
  label?: string;
}

/** One entry file, judged: `key` is what it names (limits included); `problem` says why it grants nothing. */
export interface TrustEntry {
  path: string;
  key: TrustedKey | null;
  problem?: string;
  /** The file could not be read, or does not say which key it is about: the whole store fails closed. */
  unreadable?: boolean;
  /** The entry's text, when it could be read. */
  text?: string;
}

const TOML_FORMAT = formatFor("config", "key.toml");
const FP = /^[a-f0-9]{16}$/;

/**
 * The text of a trust entry of the space at `root`: a regular file of at most a key's size, a link
 * followed only to a file inside the space (a checkout's entry linking to /dev/zero or to a file
 * elsewhere on the machine is refused). Throws Unreadable.
 */
export function readTrustEntry(path: string, root: string): string {
  return readRegularText(path, { kind: "key", link: { links: "inside", root } }).replace(/\r\n?/g, "\n");
}

export { Unreadable };

/** The fingerprint the original gives the PEM text as written (sha256 of the text): accepted as a declared label only. */
function textFingerprint(pem: string): string {
  return sha256Hex(normalizePem(pem)).slice(0, 16);
}

/**
 * Parses a trusted-key TOML document, strictly: throws on anything that does not parse. The key is
 * taken from the PEM and fingerprinted from its canonical bytes; a declared `fingerprint` must name
 * the same key (its canonical fingerprint, or the hash of the PEM text as the original computed it).
 */
export function parseTrustedKeyToml(text: string, source: string, path?: string): TrustedKey {
  const raw = parseToml(text) as Record<string, unknown>;
  const pk = raw.public_key as Record<string, unknown> | undefined;
  const pem = typeof pk?.pem === "string" ? pk.pem : "";
  if (!pem.includes("BEGIN PUBLIC KEY")) throw new Error("no [public_key] pem");
  let publicPem: string;
  try {
    publicPem = publicKeyPem(pem);
  } catch (e) {
    throw new Error(`[public_key] pem is not an Ed25519 public key (${(e as Error).message})`);
  }
  const fp = fingerprint(publicPem);
  if (typeof raw.fingerprint === "string" && raw.fingerprint !== fp && raw.fingerprint !== textFingerprint(pem)) {
    throw new Error(`declares fingerprint ${raw.fingerprint} but its public key has fingerprint ${fp}`);
  }
  const key: TrustedKey = { fingerprint: fp, owner: typeof raw.owner === "string" ? raw.owner : "unknown", publicPem, source };
  if (typeof raw.attestation === "string" && raw.attestation !== "") key.attestation = raw.attestation;
  if (path !== undefined) key.path = path;
  const limits = parseLimits(raw, path ?? source);
  if (limits.length > 0) key.limits = limits;
  return key;
}

/** The fingerprints an entry that does not parse still names (its PEM's key, a declared fingerprint), for refusing them. */
function namedFingerprints(text: string): string[] {
  const out = new Set<string>();
  let raw: Record<string, unknown> | null = null;
  try {
    raw = parseToml(text) as Record<string, unknown>;
  } catch {
    // Not TOML at all: what it says about which key cannot be told.
  }
  if (raw) {
    const pem = (raw.public_key as Record<string, unknown> | undefined)?.pem;
    if (typeof pem === "string") {
      try {
        out.add(fingerprint(pem));
      } catch {
        // No key in it: only the declared fingerprint remains.
      }
    }
    if (typeof raw.fingerprint === "string" && FP.test(raw.fingerprint)) out.add(raw.fingerprint);
  }
  return [...out];
}

/** A record that only refuses `fp`, naming the entry and what is wrong with it. */
function refusal(fp: string, path: string, source: string, reason: string, base?: TrustedKey): TrustedKey {
  const limit: KeyLimit = { kind: "refused", at: null, entry: path, reason };
  return { ...(base ?? { fingerprint: fp, owner: "unknown", publicPem: "", source }), path, limits: [...(base?.limits ?? []), limit], grants: false };
}

/**
 * An entry's text judged on its own (not yet its signature line: see `authenticate`). Never throws:
 * what does not parse refuses the keys it names, or is unreadable when it names none.
 */
export function judgeEntryText(text: string, path: string, source: string): TrustEntry[] {
  try {
    return [{ path, text, key: parseTrustedKeyToml(text, source, path) }];
  } catch (e) {
    const problem = `does not parse: ${(e as Error).message}`;
    const fps = namedFingerprints(text);
    if (fps.length === 0) return [{ path, text, key: null, problem: `${problem}; it names no key it could be about`, unreadable: true }];
    return fps.map((fp) => ({ path, text, key: refusal(fp, path, source, problem), problem }));
  }
}

/**
 * Checks an entry's own `# rye:signed:` line, as the original does on load: a changed file or a bad
 * self- or cross-signature means the entry is not what its signer wrote, so it grants nothing and
 * refuses its key. An unsigned entry, or one signed by a key no space holds, is accepted with a warning:
 * the bundles ship `6ea18199041a1ea8` signed by `4b987fd4e40303ac`, which no bundle trusts.
 */
export function authenticate(entry: TrustEntry, candidates: ReadonlyMap<string, TrustedKey>, warnings: string[]): TrustEntry {
  const key = entry.key;
  if (!key || key.grants === false || entry.text === undefined) return entry;
  const sig = parseSignatureLine(entry.text, TOML_FORMAT);
  if (!sig) return entry;
  let problem: string | null = null;
  const actual = contentHash(entry.text, "config", "key.toml");
  if (actual !== sig.hash) problem = `does not authenticate: content changed after signing (expected ${sig.hash.slice(0, 16)}…, got ${actual.slice(0, 16)}…)`;
  else {
    const signer = sig.fingerprint === key.fingerprint ? key : candidates.get(sig.fingerprint);
    if (!signer) {
      warnings.push(`Trusted key ${key.fingerprint} (${entry.path}) is signed by ${sig.fingerprint}, which no space trusts; its file signature was not checked`);
      return entry;
    }
    if (!verifyMessage(sig.hash, sig.signature, signer.publicPem)) problem = `does not authenticate: Ed25519 signature by ${sig.fingerprint} invalid`;
  }
  return problem ? { ...entry, key: refusal(key.fingerprint, entry.path, key.source, problem, key), problem } : entry;
}

/** The lifecycle fields `rye keys` sets; top-level strings the original ignores. */
export const LIFECYCLE = ["revoked", "expires", "not_before", "replaced_by"] as const;
export type LifecycleField = (typeof LIFECYCLE)[number];

const tomlString = (value: string) => JSON.stringify(value).replace(/[\u007f]/g, "\\u007f");

/**
 * `text` (an entry, without its signature line) rewritten from its parsed form with each field set (a
 * string) or removed (null). The known fields are written in the original's order; any other
 * top-level field is kept, serialized by the TOML writer, so no value can land inside another.
 */
export function withFields(text: string, fields: Partial<Record<LifecycleField, string | null>>): string {
  const raw = { ...(parseToml(text) as Record<string, unknown>) };
  const pem = (raw.public_key as Record<string, unknown> | undefined)?.pem;
  if (typeof pem !== "string") throw new Error("the entry has no [public_key] pem to keep");
  const publicPem = publicKeyPem(pem);
  for (const [name, value] of Object.entries(fields)) raw[name] = value ?? undefined;
  const str = (name: string, fallback: string) => tomlString(typeof raw[name] === "string" ? (raw[name] as string) : fallback);
  const head = [
    `version = ${str("version", "1.0.0")}`,
    `category = "keys/trusted"`,
    `fingerprint = "${fingerprint(publicPem)}"`,
    `owner = ${str("owner", "local")}`,
    `attestation = ${str("attestation", "")}`,
  ];
  const known = new Set(["version", "category", "fingerprint", "owner", "attestation", "public_key"]);
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) if (!known.has(name) && value !== undefined) rest[name] = value;
  const extra = stringifyToml(rest).trim();
  return [...head, ...(extra ? [extra] : []), "", "[public_key]", 'pem = """', publicPem.trim(), '"""', ""].join("\n");
}
