import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";

const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** A private key as a KeyObject, a PKCS8 PEM string, or a raw 32-byte seed. */
export type PrivateKeyInput = KeyObject | string | Uint8Array;
/** A public key as a KeyObject, an SPKI PEM string, or raw 32 bytes. */
export type PublicKeyInput = KeyObject | string | Uint8Array;

/** Unpadded base64url, the encoding signatures are written in. */
export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

/**
 * Strict base64url decoding that accepts trailing `=` padding, as the Rust verifier does; unlike Buffer's
 * lenient decoder it rejects stray characters and non-zero trailing bits, so no two texts decode alike.
 */
export function decodeBase64Url(text: string): Uint8Array | null {
  const bare = text.replace(/=+$/, "");
  if (!/^[A-Za-z0-9_-]*$/.test(bare) || bare.length % 4 === 1) return null;
  const bytes = Buffer.from(bare, "base64url");
  return bytes.toString("base64url") === bare ? new Uint8Array(bytes) : null;
}

/** An Ed25519 private KeyObject from any accepted input. */
export function toPrivateKey(key: PrivateKeyInput): KeyObject {
  if (typeof key === "string") return checkEd25519(privateKeyFromPem(key));
  if (key instanceof Uint8Array) {
    if (key.length !== 32) throw new Error(`An Ed25519 seed is 32 bytes, got ${key.length}`);
    return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, key]), format: "der", type: "pkcs8" });
  }
  return checkEd25519(key);
}

// Trust stores hand keys around as PEM text; parsing one costs as much as a verification, so each
// PEM is parsed once per process (KeyObjects are immutable, sharing them is safe).
const publicKeys = new Map<string, KeyObject>();

/** An Ed25519 public KeyObject from any accepted input. */
export function toPublicKey(key: PublicKeyInput): KeyObject {
  if (typeof key === "string") {
    let parsed = publicKeys.get(key);
    if (!parsed) {
      parsed = checkEd25519(createPublicKey(key));
      if (publicKeys.size < 1024) publicKeys.set(key, parsed);
    }
    return parsed;
  }
  if (key instanceof Uint8Array) {
    if (key.length !== 32) throw new Error(`An Ed25519 public key is 32 bytes, got ${key.length}`);
    return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, key]), format: "der", type: "spki" });
  }
  return checkEd25519(key.type === "private" ? createPublicKey(key) : key);
}

// OpenSSL 3.0 rejects PKCS8 v2 (with the public key appended), which ed25519-dalek, and so the
// original's Rust signer, writes; the seed sits at the same place in both versions.
function privateKeyFromPem(pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch (e) {
    const b64 = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(pem)?.[1];
    const der = b64 === undefined ? undefined : Buffer.from(b64.replace(/\s+/g, ""), "base64");
    const v2 = Buffer.from("020101300506032b657004220420", "hex");
    if (!der || der[0] !== 0x30 || der.indexOf(v2) !== 2 || der.length < 2 + v2.length + 32) throw e;
    const seedEnd = 2 + v2.length + 32;
    const key = toPrivateKey(new Uint8Array(der.subarray(2 + v2.length, seedEnd)));
    const stated = der.subarray(seedEnd + 3, seedEnd + 35);
    const derived = createPublicKey(key).export({ type: "spki", format: "der" }).subarray(SPKI_PREFIX.length);
    if (der[seedEnd] === 0x81 && !derived.equals(stated)) throw new Error("PKCS8 v2 key: the stored public key does not match the private key");
    return key;
  }
}

function checkEd25519(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== "ed25519") {
    throw new Error(`Expected an Ed25519 key, got ${key.asymmetricKeyType ?? key.type}`);
  }
  return key;
}

/** Signs the UTF-8 bytes of `message` (for items, the 64-char hex hash) and returns unpadded base64url. */
export function signMessage(message: string, key: PrivateKeyInput): string {
  return encodeBase64Url(sign(null, Buffer.from(message, "utf8"), toPrivateKey(key)));
}

/** True when `signature` (base64url, padded or not) is a valid Ed25519 signature of `message`; never throws. */
export function verifyMessage(message: string, signature: string, key: PublicKeyInput): boolean {
  const bytes = decodeBase64Url(signature);
  if (!bytes || bytes.length !== 64) return false;
  try {
    return verify(null, Buffer.from(message, "utf8"), toPublicKey(key), bytes);
  } catch {
    return false;
  }
}
