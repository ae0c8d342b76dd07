import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from "node:fs";
import { readRegularText } from "../project/read-regular.js";
import { homedir } from "node:os";
import { join } from "node:path";
import { toPrivateKey, toPublicKey, type PrivateKeyInput } from "./ed25519.js";
import { sha256Hex } from "./hash-region.js";

/** An Ed25519 key pair as PEM text: PKCS8 private, SPKI public. */
export interface KeyPairPem {
  privatePem: string;
  publicPem: string;
}

/** A private key ready to sign with, and the fingerprint its signatures will carry. */
export interface SigningKey {
  privateKey: KeyObject;
  publicPem: string;
  fingerprint: string;
}

/** Raised when a private key file is readable by group or others. */
export class KeyPermissionError extends Error {
  override name = "KeyPermissionError";
}

/** Raised when a key file would be overwritten without `force`. */
export class KeyExistsError extends Error {
  override name = "KeyExistsError";
}

/** The SPKI PEM of a key (private or public KeyObject or PEM), as the original writes it: `-----BEGIN PUBLIC KEY-----\n…\n-----END PUBLIC KEY-----\n`. */
export function publicKeyPem(key: KeyObject | string): string {
  const pub = typeof key === "string" ? publicFromText(key) : toPublicKey(key);
  return normalizePem(pub.export({ type: "spki", format: "pem" }).toString());
}

// The DER inside the first PUBLIC KEY block, whatever its line width or the text around it: the key is
// what the bytes say, so every spelling of one key reads as that key.
function publicFromText(text: string): KeyObject {
  if (text.includes("PRIVATE KEY")) return toPublicKey(toPrivateKey(text));
  const b64 = /-----BEGIN PUBLIC KEY-----([\s\S]*?)-----END PUBLIC KEY-----/.exec(text)?.[1];
  if (b64 === undefined) return toPublicKey(text);
  return toPublicKey(createPublicKey({ key: Buffer.from(b64.replace(/\s+/g, ""), "base64"), format: "der", type: "spki" }));
}

/** The SPKI PEM of a raw 32-byte Ed25519 public key. */
export function rawPublicKeyPem(raw: Uint8Array): string {
  return publicKeyPem(toPublicKey(raw));
}

/** The PEM normalisation the trust store applies before fingerprinting: trimmed, one trailing newline. */
export function normalizePem(pem: string): string {
  return pem.trim() + "\n";
}

/**
 * The key fingerprint: the first 16 hex digits of sha256 of the key's canonical SPKI PEM (one base64
 * line of the DER, as the original writes it), whatever spelling `publicPem` uses. A key therefore has
 * one fingerprint: a PEM wrapped at another width, or with other text around it, names the same key,
 * so a revocation of one spelling holds for all. Throws when `publicPem` is not an Ed25519 key.
 */
export function fingerprint(publicPem: string): string {
  return sha256Hex(publicKeyPem(publicPem)).slice(0, 16);
}

/** A fresh random Ed25519 key pair. */
export function generateKeyPair(): KeyPairPem {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: normalizePem(publicKey.export({ type: "spki", format: "pem" }).toString()),
  };
}

/** A signing key from a private key (PEM, seed or KeyObject); the public half is derived, never read separately. */
export function signingKeyFrom(key: PrivateKeyInput): SigningKey {
  const privateKey = toPrivateKey(key);
  const publicPem = publicKeyPem(privateKey);
  return { privateKey, publicPem, fingerprint: fingerprint(publicPem) };
}

/** Loads a private key file, refusing one that group or others can read (mode & 0o077). */
export function loadPrivateKey(path: string): SigningKey {
  const mode = statSync(path).mode & 0o777;
  if (process.platform !== "win32" && (mode & 0o077) !== 0) {
    throw new KeyPermissionError(
      `Refusing to use private key ${path}: it is accessible by group or others ` +
        `(mode ${mode.toString(8).padStart(4, "0")}). Run: chmod 600 ${path}`,
    );
  }
  return signingKeyFrom(readRegularText(path, { kind: "key", link: { links: "follow" } }));
}

/** `$USER_SPACE` (with `~` expanded) or the home directory. */
/** A space's trust-store folders, the current location first (the original reads both). */
export const TRUST_DIRS: readonly (readonly string[])[] = [[".ai", "config", "keys", "trusted"], [".ai", "trusted_keys"]];

export function userSpace(env: NodeJS.ProcessEnv): string {
  const space = env.USER_SPACE;
  if (!space) return homedir();
  return space === "~" || space.startsWith("~/") ? join(homedir(), space.slice(1)) : space;
}

/** `$RYE_SIGNING_KEY_DIR`, or `<user space>/.ai/config/keys/signing`. */
export function signingKeyDir(env: NodeJS.ProcessEnv): string {
  return env.RYE_SIGNING_KEY_DIR || join(userSpace(env), ".ai", "config", "keys", "signing");
}

/** Loads `private_key.pem` from a signing key directory. */
export function loadSigningKey(dir: string): SigningKey {
  return loadPrivateKey(join(dir, "private_key.pem"));
}

function writeExclusive(path: string, data: string, mode: number, force: boolean): void {
  if (force) {
    try {
      unlinkSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
  }
  let fd: number;
  try {
    // Created with its final mode, so the key is never briefly readable by others.
    fd = openSync(path, "wx", mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") {
      throw new KeyExistsError(`${path} already exists; refusing to overwrite it (use --force to replace the key pair)`);
    }
    throw e;
  }
  try {
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/** Writes `private_key.pem` (0600) and `public_key.pem` (0644) into `dir` (created 0700), refusing to overwrite unless `force`. */
export function writeKeyPair(dir: string, pair: KeyPairPem, options: { force?: boolean } = {}): void {
  const force = options.force ?? false;
  const paths = [join(dir, "private_key.pem"), join(dir, "public_key.pem")] as const;
  // Checked up front so a refusal never leaves a new private key beside an old public one.
  const existing = paths.find((p) => existsSync(p));
  if (!force && existing) throw new KeyExistsError(`${existing} already exists; refusing to overwrite it (use --force to replace the key pair)`);
  // An existing directory keeps its mode: the key directory may be one the user chose for other things too.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeExclusive(paths[0], pair.privatePem, 0o600, force);
  writeExclusive(paths[1], pair.publicPem, 0o644, force);
}
