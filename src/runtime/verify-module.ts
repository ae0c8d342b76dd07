/**
 * The signature check of one generated module's text, with no dependency beyond node:crypto; the
 * verifier (src/verify/) calls it, compiled modules never do. The format
 * is the one `rye build` writes: line 1 `// rye:signed:TS:HASH:SIG:FP`, HASH = sha256 of everything after
 * that line, SIG = base64url Ed25519 over the ASCII text `TS:HASH`.
 */
import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";

/** Raised when build output, a bundle or a module fails verification; `itemId` names the item (or the file when it has none). */
export class IntegrityError extends Error {
  override name = "IntegrityError";
  constructor(
    readonly itemId: string,
    message: string,
  ) {
    super(message);
  }
}

const LINE = /^\/\/ rye:signed:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z):([a-f0-9]{64}):([A-Za-z0-9_-]+={0,2}):([a-f0-9]{16})\n/;
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

// A PEM, or the raw 32-byte key in base64 / base64url; the fingerprint is always that of the SPKI PEM.
function toKey(value: string): { key: KeyObject; fingerprint: string } | null {
  try {
    const key = value.includes("-----BEGIN")
      ? createPublicKey(value)
      : createPublicKey({ key: Buffer.concat([SPKI_PREFIX, rawBytes(value)]), format: "der", type: "spki" });
    if (key.asymmetricKeyType !== "ed25519") return null;
    const pem = key.export({ type: "spki", format: "pem" }).toString().trim() + "\n";
    return { key, fingerprint: sha256(pem).slice(0, 16) };
  } catch {
    return null;
  }
}

function rawBytes(b64: string): Buffer {
  const bytes = Buffer.from(b64.trim().replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""), "base64url");
  if (bytes.length !== 32) throw new Error("not a 32-byte key");
  return bytes;
}

// Strict: rejects stray characters and non-zero trailing bits, which Buffer's decoder would silently accept.
function signatureBytes(text: string): Buffer | null {
  const bare = text.replace(/=+$/, "");
  if (!/^[A-Za-z0-9_-]{86}$/.test(bare)) return null;
  const bytes = Buffer.from(bare, "base64url");
  return bytes.toString("base64url") === bare ? bytes : null;
}

function guessItemId(text: string): string | undefined {
  return /\b(?:ITEM_ID|itemId|item_id)\b["']?\s*[:=]\s*["']([^"'\n]+)["']/.exec(text)?.[1];
}

/**
 * Throws an `IntegrityError` naming the item unless `text` is a module signed by one of `trustedKeys`
 * (fingerprint → SPKI PEM or raw base64 key) whose hash and signature match; a key whose fingerprint
 * differs from its record key is not trusted.
 */
export function verifyModuleSource(text: string, trustedKeys: Record<string, string>, itemId?: string): void {
  const id = itemId ?? guessItemId(text) ?? "<unknown item>";
  const m = LINE.exec(text);
  if (!m) throw new IntegrityError(id, `Unsigned module: ${id}\n  Expected: // rye:signed: header on line 1`);
  const [line, timestamp, hash, sig, fp] = m as unknown as [string, string, string, string, string];
  const actual = sha256(text.slice(line.length));
  if (actual !== hash) {
    throw new IntegrityError(
      id,
      `Content modified since signing: ${id}\n  Expected hash: ${hash.slice(0, 16)}…\n  Actual hash: ${actual.slice(0, 16)}…`,
    );
  }
  const entry = Object.hasOwn(trustedKeys, fp) ? toKey(trustedKeys[fp]!) : null;
  if (!entry || entry.fingerprint !== fp) {
    const known = Object.keys(trustedKeys).join(", ") || "none";
    throw new IntegrityError(id, `Untrusted key ${fp} for ${id}\n  Item signed by: ${fp}\n  Trusted keys: ${known}`);
  }
  const bytes = signatureBytes(sig);
  let valid = false;
  try {
    valid = bytes !== null && verify(null, Buffer.from(`${timestamp}:${hash}`, "utf8"), entry.key, bytes);
  } catch {
    valid = false;
  }
  if (!valid) {
    throw new IntegrityError(id, `Ed25519 signature verification failed: ${id}\n  Signed by: ${fp}\n  This may indicate the module was tampered with after signing`);
  }
}
