/**
 * Verifies a bundle's exact bytes: its `// rye:signed:` first line (a hash of everything after it,
 * signed with the timestamp) against the trust anchors, and, when one is given, the detached
 * signature `bundle.mjs.sig`: raw Ed25519 over the whole file, which `openssl pkeyutl -verify`
 * checks too. Both must name a key the anchors hold.
 */
import { createPublicKey, verify as ed25519Verify } from "node:crypto";
import { verifyModule } from "../sign/sign-module.js";
import type { TrustStore } from "../sign/trust-store.js";
import type { ItemVerification } from "../sign/verify-item.js";

/** The outcome of checking a bundle's bytes. */
export interface BundleVerification {
  ok: boolean;
  inline: ItemVerification;
  /** null: no detached signature was given; otherwise whether it verifies with the inline line's key. */
  detached: boolean | null;
  problems: string[];
}

/** Checks `bytes` (and `signature`, the detached .sig, when given) against `trust`. */
export function verifyBundleBytes(bytes: Uint8Array, trust: TrustStore, label: string, signature: Uint8Array | null = null): BundleVerification {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString("utf8");
  const problems: string[] = [];
  // The signature covers the decoded text; bytes that are not UTF-8 would decode to something else.
  if (!Buffer.from(text, "utf8").equals(buffer)) problems.push(`${label} is not valid UTF-8: it cannot be the file rye bundle wrote`);
  const inline = verifyModule(text, trust, { path: label, writtenBy: "rye bundle" });
  if (!inline.ok) problems.push(inline.message);
  let detached: boolean | null = null;
  if (signature !== null) {
    const key = inline.signature ? trust.get(inline.signature.fingerprint) : undefined;
    detached = false;
    if (signature.length !== 64) problems.push(`${label}.sig is not a 64-byte Ed25519 signature (${signature.length} bytes)`);
    else if (!key) problems.push(`${label}.sig cannot be checked: the bundle's signing key is not trusted`);
    else {
      try {
        detached = ed25519Verify(null, buffer, createPublicKey(key.publicPem), signature);
      } catch {
        detached = false;
      }
      if (!detached) problems.push(`${label}.sig does not verify with key ${key.fingerprint}: the bundle or its signature was changed`);
    }
  }
  return { ok: problems.length === 0, inline, detached, problems };
}
