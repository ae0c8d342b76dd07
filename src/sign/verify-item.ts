import { verifyMessage } from "./ed25519.js";
import { contentHash, normalizeNewlines } from "./hash-region.js";
import { baseName, formatFor, parseSignatureLine, pathSuffix, type ItemKind, type SignatureInfo } from "./signature-line.js";
import { keyRefusal, KEY_REFUSED_FIX } from "./key-lifecycle.js";
import type { TrustStore } from "./trust-store.js";

/** How a verification ended; every value but `verified` is a failure unless allowed by an option. */
export type VerifyOutcome = "verified" | "unsigned" | "hash_mismatch" | "untrusted" | "bad_signature" | "error";

/** Every check's result, evaluated independently, plus the original's first failure message. */
export interface ItemVerification {
  ok: boolean;
  outcome: VerifyOutcome;
  itemId: string;
  signed: boolean;
  hashMatches: boolean | null;
  trusted: boolean | null;
  signatureValid: boolean | null;
  signature: SignatureInfo | null;
  expectedHash: string | null;
  actualHash: string | null;
  owner: string | null;
  /** What the original `verify_item` returns when it does not raise: the hash, `"unsigned"` or `"unverified"`. */
  result: string | null;
  /** The original's `IntegrityError` text (or `ValueError` text for `error`); empty when verified. */
  message: string;
}

/** Options for `verifyItem`. */
export interface VerifyItemOptions {
  /** Shown in messages; its extension picks the tool/config comment style and its `.ai/<kind>/` part the item id. */
  path?: string;
  /** Accept an unsigned item (the original's `allow_unsigned`); a signed one is still fully checked. */
  allowUnsigned?: boolean;
  /** The original's `RYE_DEV_MODE=1`: integrity failures are reported but the item is usable, result `"unverified"`. */
  devMode?: boolean;
}

const KIND_DIRS: Record<ItemKind, string> = { directive: "directives", tool: "tools", knowledge: "knowledge", config: "config" };

function stem(name: string): string {
  const suffix = pathSuffix(name);
  return suffix ? name.slice(0, -suffix.length) : name;
}

/** The original's best-effort item id: the path below the first `.ai/<kind dir>/`, minus its last suffix, else the file stem. */
export function inferItemId(path: string, kind: ItemKind): string {
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  const typeDir = KIND_DIRS[kind] ?? kind;
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] !== ".ai" || parts[i + 1] !== typeDir) continue;
    const rel = parts.slice(i + 2);
    const last = rel.pop();
    if (last === undefined) break;
    return [...rel, stem(last)].join("/");
  }
  return stem(baseName(path));
}

function fail(base: ItemVerification, outcome: VerifyOutcome, message: string, devMode: boolean): ItemVerification {
  const bypass = devMode && outcome !== "error";
  return { ...base, ok: bypass, outcome, message, result: bypass ? "unverified" : null };
}

/**
 * Verifies a Rye item as the original `verify_item` does: signature present, hash matches, key trusted,
 * Ed25519 signature valid, reporting the first failure with the original's message.
 */
export function verifyItem(text: string, kind: ItemKind, trust: TrustStore, options: VerifyItemOptions = {}): ItemVerification {
  const path = options.path ?? `<${kind}>`;
  const devMode = options.devMode ?? false;
  const itemId = inferItemId(path, kind);
  const base: ItemVerification = {
    ok: false, outcome: "error", itemId, signed: false, hashMatches: null, trusted: null, signatureValid: null,
    signature: null, expectedHash: null, actualHash: null, owner: null, result: null, message: "",
  };
  const content = normalizeNewlines(text);
  const filename = options.path === undefined ? undefined : baseName(path);
  let sig: SignatureInfo | null;
  let actual: string;
  try {
    sig = parseSignatureLine(content, formatFor(kind, filename));
    if (!sig) {
      if (options.allowUnsigned) return { ...base, ok: true, outcome: "unsigned", result: "unsigned" };
      const message = `Unsigned item: ${path}\n  Kind: ${kind}\n  Expected: rye:signed: header\n  Fix: rye sign ${kind}:${itemId}`;
      return fail(base, "unsigned", message, devMode);
    }
    actual = contentHash(content, kind, filename);
  } catch (e) {
    return fail(base, "error", (e as Error).message, devMode);
  }
  const key = trust.get(sig.fingerprint);
  const checked: ItemVerification = {
    ...base,
    signed: true,
    signature: sig,
    expectedHash: sig.hash,
    actualHash: actual,
    hashMatches: actual === sig.hash,
    trusted: key !== undefined,
    // Checked even when the content changed: a valid signature over a stale hash means an unsigned edit, not forgery.
    signatureValid: key ? verifyMessage(sig.hash, sig.signature, key.publicPem) : null,
    owner: key?.owner ?? null,
  };
  const fix = `rye sign ${kind}:${itemId}`;
  const judged = judge(checked, path, trust, { modified: `Re-sign after editing:\n    ${fix}`, untrusted: `Add this key to your trust store, or re-sign:\n    ${fix}` });
  return judged.ok ? judged : fail(judged, judged.outcome, judged.message, devMode);
}

/**
 * How to trust a key: the real command and settings. Build output's messages end with it; a source's
 * message keeps the original's words (the conformance vectors hold them) and rye verify adds it.
 */
export const TRUST_HOW = "Trust the signer's public key: rye keys trust FILE (the user space's trust store), rye verify --trusted-key FILE, or RYE_TRUSTED_KEYS=FILE";

/** What to do about a trust-store entry that is not a regular file of a key. */
export const UNREADABLE_FIX = "remove it, or make it the regular .toml file of a key (rye keys trust FILE writes one)";

/** How to fix a changed or untrusted item, for the messages. */
export interface Fixes {
  modified: string;
  untrusted: string;
}

/** Turns independently evaluated checks into the original's first failure, in its order: hash, trust, signature. */
export function judge(checked: ItemVerification, label: string, trust: TrustStore, fixes: Fixes, note = ""): ItemVerification {
  const sig = checked.signature!;
  const failed = (outcome: VerifyOutcome, message: string): ItemVerification => ({ ...checked, ok: false, outcome, message, result: null });
  // Fail closed: an entry the store could not read may revoke or limit the very key that signed this.
  const unreadable = trust.unreadable?.[0];
  if (unreadable) {
    return failed("error", `Trust store entry cannot be read: ${unreadable.path}: ${unreadable.reason}\n  ${label} is not judged with a store missing an entry (it may revoke the signing key)\n  Fix: ${UNREADABLE_FIX}`);
  }
  if (!checked.hashMatches) {
    return failed(
      "hash_mismatch",
      `Content modified since signing: ${label}${note}\n  Expected hash: ${sig.hash.slice(0, 16)}…\n` +
        `  Actual hash: ${(checked.actualHash ?? "").slice(0, 16)}…\n  Fix: ${fixes.modified}`,
    );
  }
  if (!checked.trusted) {
    const fps = trust.list().filter((k) => k.grants !== false).map((k) => k.fingerprint).join(", ") || "none";
    return failed(
      "untrusted",
      `Untrusted key ${sig.fingerprint} for ${label}\n  Item signed by: ${sig.fingerprint}\n  Trusted keys: ${fps}\n  Fix: ${fixes.untrusted}`,
    );
  }
  const refused = keyRefusal(sig.fingerprint, trust.get(sig.fingerprint)?.limits, trust.now ?? new Date());
  if (refused) return failed("untrusted", `Refused key ${sig.fingerprint} for ${label}\n  ${refused}\n  Fix: ${KEY_REFUSED_FIX}`);
  if (!checked.signatureValid) {
    return failed(
      "bad_signature",
      `Ed25519 signature verification failed: ${label}\n  Signed by: ${sig.fingerprint} (${checked.owner || "unknown"})\n` +
        `  This may indicate the file was tampered with after signing`,
    );
  }
  return { ...checked, ok: true, outcome: "verified", result: checked.actualHash, message: "" };
}
