/**
 * Signatures for generated modules, our own format (decisions.md #15): the first line is
 * `// rye:signed:TS:HASH:SIG:FP`, HASH is sha256 of every byte after that line (no newline
 * normalisation: modules are verified byte for byte), and SIG is unpadded base64url Ed25519 over the
 * ASCII text `TS:HASH`. Unlike the original's items, the timestamp is signed too, so no byte of a
 * module can change unnoticed, and a signature over a bare item hash can never be replayed onto a module.
 */
import { createHash } from "node:crypto";
import { signMessage, verifyMessage } from "./ed25519.js";
import { sha256Hex } from "./hash-region.js";
import type { SigningKey } from "./keys.js";
import { checkTimestamp } from "./sign-item.js";
import { isDeclaration } from "./signed-files.js";
import type { SignatureInfo } from "./signature-line.js";
import type { TrustStore } from "./trust-store.js";
import { judge, TRUST_HOW, type Fixes, type ItemVerification } from "./verify-item.js";

const MODULE_LINE = /^\/\/ rye:signed:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z):([a-f0-9]{64}):([A-Za-z0-9_-]+={0,2}):([a-f0-9]{16})\n/;
const ANY_SIGNATURE_LINE = /^\/\/ rye:signed:[^\n]*\n/;
/** The fixes a generated file's messages suggest: `command` is what writes it (`rye build`, or `rye bundle` for a bundle). */
export const rebuildFixes = (command = "rye build"): Fixes => ({ modified: `rebuild it with ${command}`, untrusted: `${TRUST_HOW}; or rebuild it with ${command} and a trusted key` });
export const REBUILD: Fixes = rebuildFixes();

/** The message a module or manifest signature covers. */
export function moduleSignedMessage(timestamp: string, hash: string): string {
  return `${timestamp}:${hash}`;
}

/** Builds `rye:signed:TS:HASH:SIG:FP` for a hash, signing `TS:HASH`. */
export function signedField(hash: string, key: SigningKey, timestamp: string): string {
  const sig = signMessage(moduleSignedMessage(checkTimestamp(timestamp), hash), key.privateKey);
  return `rye:signed:${timestamp}:${hash}:${sig}:${key.fingerprint}`;
}

/** Signs a generated module; the timestamp comes from the caller (SOURCE_DATE_EPOCH or the source) so output is reproducible. */
export function signModule(text: string, key: SigningKey, timestamp: string): string {
  const body = text.replace(ANY_SIGNATURE_LINE, "");
  return `// ${signedField(sha256Hex(body), key, timestamp)}\n${body}`;
}

/** A module's bytes as written: its signature line, its body, and the sha256 of both. */
export interface SignedModuleBytes {
  line: Buffer;
  body: Buffer;
  sha256: string;
}

/** A module before its signature line: the body as UTF-8 and the body's sha256, which the line names. */
export interface ModuleBody {
  body: Buffer;
  hash: string;
}

/**
 * `signModule` for a file about to be written, in two halves so that a build thread can sign many
 * bodies back to back (SigningBatch). This half: the body to sign (an old signature line dropped),
 * encoded to UTF-8 once and hashed.
 */
export function moduleBody(text: string): ModuleBody {
  const body = Buffer.from(text.replace(ANY_SIGNATURE_LINE, ""), "utf8");
  return { body, hash: sha256Hex(body) };
}

/**
 * The other half: the signature line for a body, and the sha256 of the whole file. Line and body,
 * written one after the other, are exactly `signModule`'s text; the body is encoded once and hashed
 * twice (alone, then after the line), where the text form encodes it for each hash and again to write it.
 */
export function signBody({ body, hash }: ModuleBody, key: SigningKey, timestamp: string): SignedModuleBytes {
  const line = Buffer.from(`// ${signedField(hash, key, timestamp)}\n`, "latin1");
  return { line, body, sha256: createHash("sha256").update(line).update(body).digest("hex") };
}

/** Splits a module into its signature fields and the signed body, or null when line 1 is not a module signature. */
export function parseModuleSignature(text: string): { info: SignatureInfo; body: string } | null {
  const m = MODULE_LINE.exec(text);
  if (!m) return null;
  return { info: { timestamp: m[1]!, hash: m[2]!, signature: m[3]!, fingerprint: m[4]! }, body: text.slice(m[0].length) };
}

/** Options for `verifyModule`: the name messages use. */
export interface VerifyModuleOptions {
  path?: string;
  itemId?: string;
  /** The command that writes this module, named in the fix: `rye build` (default), or `rye bundle` for a bundle. */
  writtenBy?: string;
}

/** Checks a signed module's hash, key and signature, reporting like `verifyItem` with module-specific fixes. */
export function verifyModule(text: string, trust: TrustStore, options: VerifyModuleOptions = {}): ItemVerification {
  const label = options.path ?? options.itemId ?? "<module>";
  const base: ItemVerification = {
    ok: false, outcome: "unsigned", itemId: options.itemId ?? label, signed: false, hashMatches: null, trusted: null,
    signatureValid: null, signature: null, expectedHash: null, actualHash: null, owner: null, result: null, message: "",
  };
  const parsed = parseModuleSignature(text);
  if (!parsed) {
    // A declaration never has a line of its own (carriesSignatureLine): only its folder's manifest can vouch for it.
    const message = isDeclaration(label)
      ? `No signature of its own: ${label}\n  A declaration (.d.ts) is vouched for only by the signed manifest of the output folder it was built into\n  Fix: verify that folder (rye verify out/)`
      : `Unsigned module: ${label}\n  Expected: // rye:signed: header on line 1\n  Fix: rebuild it with ${options.writtenBy ?? "rye build"}`;
    return { ...base, message };
  }
  const { info, body } = parsed;
  const actual = sha256Hex(body);
  const key = trust.get(info.fingerprint);
  const checked: ItemVerification = {
    ...base,
    signed: true,
    signature: info,
    expectedHash: info.hash,
    actualHash: actual,
    hashMatches: actual === info.hash,
    trusted: key !== undefined,
    signatureValid: key ? verifyMessage(moduleSignedMessage(info.timestamp, info.hash), info.signature, key.publicPem) : null,
    owner: key?.owner ?? null,
  };
  return judge(checked, label, trust, options.writtenBy ? rebuildFixes(options.writtenBy) : REBUILD);
}
