/**
 * The build manifest carries its signature in a last `"signature": "rye:signed:TS:HASH:SIG:FP"` field,
 * so the manifest stays one self-contained JSON file. HASH is sha256 of the canonical serialisation
 * without that field (modules sorted by path, fixed key order, 2-space JSON, trailing newline), and the
 * signature covers `TS:HASH` as for modules. Verification also requires the file to be exactly the
 * canonical serialisation, so reformatting, reordering or extra keys are reported, not silently accepted.
 */
import { verifyMessage } from "./ed25519.js";
import { sha256Hex } from "./hash-region.js";
import type { SigningKey } from "./keys.js";
import { moduleSignedMessage, REBUILD, signedField } from "./sign-module.js";
import type { TrustStore } from "./trust-store.js";
import { judge, type ItemVerification } from "./verify-item.js";

/** One generated module: its output path, the item it came from, and sha256 of the source and of the module file. */
export interface ManifestEntry {
  path: string;
  item_id: string;
  source_sha256: string;
  module_sha256: string;
}

/** One signed file of a build (every `.js`, `.ts`, `.d.ts`, `.mjs`): its sha256, and its item where it has one. */
export interface ManifestFile {
  path: string;
  item_id: string | null;
  sha256: string;
}

/**
 * The build manifest. `files`, when present, lists every signed file of the build, so one
 * signature check plus one hash per file verifies the whole output; manifests without it (older
 * builds) vouch only for the item modules in `modules`.
 */
export interface Manifest {
  version: string | number;
  generated_at: string;
  modules: ManifestEntry[];
  files?: ManifestFile[];
}

/** Output paths of one item's files map to its `.js` module path: `ts/directives/a.ts`, `directives/a.d.ts` → `directives/a.js`. */
export function modulePathOf(path: string): string {
  return path.replace(/^ts\//, "").replace(/(?:\.d\.ts|\.ts|\.js|\.mjs)$/, ".js");
}

/** The `files` list of a manifest: every signed output file with its sha256, and the item it belongs to (by `modulePathOf`). */
export function manifestFiles(hashes: Iterable<readonly [path: string, sha256: string]>, itemOf: (modulePath: string) => string | undefined): ManifestFile[] {
  const out: ManifestFile[] = [];
  for (const [path, sha256] of hashes) out.push({ path, item_id: itemOf(modulePathOf(path)) ?? null, sha256 });
  return out;
}

const SIGNED_FIELD = /^rye:signed:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z):([a-f0-9]{64}):([A-Za-z0-9_-]+={0,2}):([a-f0-9]{16})$/;

/** A manifest entry from the source and module texts. */
export function manifestEntry(path: string, itemId: string, source: string, module: string): ManifestEntry {
  return { path, item_id: itemId, source_sha256: sha256Hex(source), module_sha256: sha256Hex(module) };
}

function ordered(m: Manifest): Manifest {
  const modules = m.modules
    .map((e) => ({ path: e.path, item_id: e.item_id, source_sha256: e.source_sha256, module_sha256: e.module_sha256 }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  modules.forEach((e, i) => {
    if (i > 0 && modules[i - 1]!.path === e.path) throw new Error(`Manifest lists ${e.path} twice`);
  });
  if (m.files === undefined) return { version: m.version, generated_at: m.generated_at, modules };
  const files = m.files
    .map((f) => ({ path: f.path, item_id: f.item_id, sha256: f.sha256 }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  files.forEach((e, i) => {
    if (i > 0 && files[i - 1]!.path === e.path) throw new Error(`Manifest lists ${e.path} twice`);
  });
  return { version: m.version, generated_at: m.generated_at, modules, files };
}

/** The canonical unsigned manifest text: sorted by path, fixed key order, 2-space JSON, trailing newline. */
export function serializeManifest(manifest: Manifest): string {
  return JSON.stringify(ordered(manifest), null, 2) + "\n";
}

/** The signed manifest text; the timestamp defaults to `generated_at`. */
export function signManifest(manifest: Manifest, key: SigningKey, timestamp = manifest.generated_at): string {
  // Sorted once: for 10k modules the sort and copy cost as much as the serialisation.
  const sorted = ordered(manifest);
  const signature = signedField(sha256Hex(JSON.stringify(sorted, null, 2) + "\n"), key, timestamp);
  return JSON.stringify({ ...sorted, signature }, null, 2) + "\n";
}

function isManifest(v: unknown): v is Manifest & { signature?: unknown } {
  if (typeof v !== "object" || v === null) return false;
  const m = v as Record<string, unknown>;
  const str = (x: unknown) => typeof x === "string";
  return (
    (str(m.version) || typeof m.version === "number") && str(m.generated_at) && Array.isArray(m.modules) &&
    m.modules.every((e) => typeof e === "object" && e !== null && ["path", "item_id", "source_sha256", "module_sha256"].every((k) => str((e as Record<string, unknown>)[k]))) &&
    (m.files === undefined || (Array.isArray(m.files) && m.files.every((f) => {
      const e = f as Record<string, unknown> | null;
      return typeof e === "object" && e !== null && str(e.path) && str(e.sha256) && (e.item_id === null || str(e.item_id));
    })))
  );
}

/** Verifies a signed manifest; on success `manifest` holds the parsed content. */
export function verifyManifest(text: string, trust: TrustStore, label = "manifest"): ItemVerification & { manifest: Manifest | null } {
  const base = {
    ok: false, outcome: "error" as const, itemId: label, signed: false, hashMatches: null, trusted: null, signatureValid: null,
    signature: null, expectedHash: null, actualHash: null, owner: null, result: null, message: "", manifest: null,
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { ...base, message: `Manifest ${label} is not valid JSON: ${(e as Error).message}` };
  }
  if (!isManifest(parsed)) return { ...base, message: `Manifest ${label} does not have the shape { version, generated_at, modules: [{ path, item_id, source_sha256, module_sha256 }], files?: [{ path, item_id, sha256 }] }` };
  const m = typeof parsed.signature === "string" ? SIGNED_FIELD.exec(parsed.signature) : null;
  if (!m) return { ...base, outcome: "unsigned", message: `Unsigned manifest: ${label}\n  Expected: a "signature": "rye:signed:…" field\n  Fix: rebuild it with rye build` };
  const info = { timestamp: m[1]!, hash: m[2]!, signature: m[3]!, fingerprint: m[4]! };
  let unsigned: string;
  let canonical: string;
  try {
    unsigned = serializeManifest(parsed);
    canonical = JSON.stringify({ ...ordered(parsed), signature: parsed.signature }, null, 2) + "\n";
  } catch (e) {
    return { ...base, message: `Manifest ${label}: ${(e as Error).message}` };
  }
  const actual = sha256Hex(unsigned);
  const key = trust.get(info.fingerprint);
  const checked = {
    ...base, signed: true, signature: info, expectedHash: info.hash, actualHash: actual,
    hashMatches: actual === info.hash && canonical === text, trusted: key !== undefined, owner: key?.owner ?? null,
    signatureValid: key ? verifyMessage(moduleSignedMessage(info.timestamp, info.hash), info.signature, key.publicPem) : null,
  };
  const judged = judge(checked, label, trust, REBUILD, actual === info.hash ? " (not in canonical form)" : "");
  if (!judged.ok) return { ...judged, manifest: null };
  const { signature: _ignored, ...manifest } = parsed;
  return { ...judged, manifest: ordered(manifest) };
}
