/**
 * The build manifest, split by folder (format 2). The root `manifest.json` is small and signed: the
 * build's version and timestamp, the sha256 of every file directly in out/, and the sha256 of one
 * shard per other folder. A shard (`manifest/<folder, "/" written %2F>.json`) lists its folder's
 * files with their sha256 and the items whose modules live there (item id, sha256 of the source).
 * Shards are not signed: the signed root binds each one by its sha256 to its folder, so one signature
 * vouches for every byte, and a rebuild re-serialises only the shards whose folder changed.
 *
 * The root carries its signature in a last `"signature": "rye:signed:TS:HASH:SIG:FP"` field; HASH is
 * sha256 of the canonical text without that field (keys sorted, 1-space JSON, trailing newline) and the
 * signature covers `TS:HASH` as for modules. The root must be exactly its canonical text.
 */
import { compilerIdentity, type CompilerIdentity, type OutputOptions } from "./compiler-identity.js";
import { verifyMessage } from "./ed25519.js";
import { sha256Hex } from "./hash-region.js";
import type { SigningKey } from "./keys.js";
import { SOURCES_LIST, sourceListText } from "./source-tree.js";
import { moduleSignedMessage, REBUILD, signedField } from "./sign-module.js";
import type { TrustStore } from "./trust-store.js";
import { judge, type ItemVerification } from "./verify-item.js";

/** The root manifest's name in out/. */
export const MANIFEST = "manifest.json";
/** The folder of out/ holding the shards. */
export const SHARD_DIR = "manifest";
/**
 * Bumped when the manifest layout changes; a manifest of another format is refused with "rebuild".
 * Format 3 added `build`; format 4 added the compiler's identity and the output options to it.
 */
export const MANIFEST_FORMAT = 4;
/**
 * The one older format still read: its signature and files verify as before, but it does not say
 * which compiler made it, so `rye verify --current` refuses it (a rebuild writes format 4).
 */
export const LEGACY_FORMAT = 3;

/**
 * The build's authenticated freshness metadata (decisions.md #26), signed with the root: `counter`
 * (RYE_BUILD_COUNTER, else 0), `sources`, the sha256 of the source list out/manifest/sources.txt
 * (see source-tree.ts), `compiler`, the identity of the compiler that made it, and `options`, the
 * build options that change its bytes (compiler-identity.ts). The build time is the root's
 * `generated_at`. A format 3 root has neither `compiler` nor `options`.
 */
export interface BuildInfo {
  counter: number;
  sources: string;
  compiler?: CompilerIdentity;
  options?: OutputOptions;
}

/** The signed root (without its signature field). Keys are output paths; values sha256 hex. */
export interface Manifest {
  format: number;
  version: string | number;
  generated_at: string;
  build: BuildInfo;
  /** Files directly in out/ (the registries): name → sha256. */
  files: Record<string, string>;
  /** Output folder (`directives/bench/g0`) → sha256 of its shard file. */
  shards: Record<string, string>;
}

/** One folder's shard: its files by name, and the items whose `.js` module is there. */
export interface Shard {
  folder: string;
  /** File name → sha256. */
  files: Record<string, string>;
  /** Module file name (`task_0.js`) → [item id, sha256 of the item's source]. */
  items: Record<string, [itemId: string, sourceSha256: string]>;
}

/** An item behind a module, for the manifest. */
export interface ManifestItem {
  itemId: string;
  sourceSha256: string;
}

/** Where the shard of `folder` lives: one flat folder, `%` never appears in an item id, so names cannot collide. */
export function shardPath(folder: string): string {
  return `${SHARD_DIR}/${folder.split("/").join("%2F")}.json`;
}

/** Output paths of one item's files map to its `.js` module path: `ts/directives/a.ts`, `directives/a.d.ts` → `directives/a.js`. */
export function modulePathOf(path: string): string {
  return path.replace(/^ts\//, "").replace(/(?:\.d\.ts|\.ts|\.js|\.mjs)$/, ".js");
}

/** `dir/name` → [dir, name]; a file directly in out/ has dir "". */
export function splitPath(path: string): [folder: string, name: string] {
  const at = path.lastIndexOf("/");
  return at < 0 ? ["", path] : [path.slice(0, at), path.slice(at + 1)];
}

const byKey = <T>(a: [string, T], b: [string, T]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
const sorted = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(o).sort(byKey));

/** The canonical text of a shard: keys sorted, 1-space JSON, trailing newline. */
export function serializeShard(shard: Shard): string {
  // A list of keys orders every object JSON.stringify writes: the shard's own three, then the file
  // names, of which the items' names are some. A shard's files are modules and declarations, so no
  // name is one of the three. Sorting the entries into new objects instead cost ~3× as much.
  const names = [...new Set([...Object.keys(shard.files), ...Object.keys(shard.items)])].sort();
  return `${JSON.stringify({ folder: shard.folder, files: shard.files, items: shard.items }, ["folder", "files", "items", ...names], 1)}\n`;
}

/** `build` with its fields in their one order; a format 3 root has only the first two. */
function canonicalBuild(b: BuildInfo): BuildInfo {
  if (b.compiler === undefined || b.options === undefined) return { counter: b.counter, sources: b.sources };
  const compiler = { version: b.compiler.version, code: b.compiler.code, runtime: b.compiler.runtime };
  return { counter: b.counter, sources: b.sources, compiler, options: { emitTs: b.options.emitTs, sourceRoot: b.options.sourceRoot } };
}

function canonicalRoot(m: Manifest): Manifest {
  return { format: m.format, version: m.version, generated_at: m.generated_at, build: canonicalBuild(m.build), files: sorted(m.files), shards: sorted(m.shards) };
}

/** The canonical unsigned root text. */
export function serializeManifest(manifest: Manifest): string {
  return rootText(canonicalRoot(manifest));
}

/** The text of a root manifest's fields, as signed and as written. */
function rootText(root: object): string {
  return `${JSON.stringify(root, null, 1)}\n`;
}

/** The signed root text; the timestamp defaults to `generated_at`. */
export function signManifest(manifest: Manifest, key: SigningKey, timestamp = manifest.generated_at): string {
  const root = canonicalRoot(manifest);
  const signature = signedField(sha256Hex(rootText(root)), key, timestamp);
  return `${JSON.stringify({ ...root, signature }, null, 1)}\n`;
}

/**
 * Groups a build's signed files (path → sha256) and its items (module path → item) into shards by
 * folder; files directly in out/ go to the root. The texts are canonical, so the same build gives the same bytes.
 */
export function shardsOf(files: Iterable<readonly [path: string, sha256: string]>, items: (modulePath: string) => ManifestItem | undefined): { root: Record<string, string>; shards: Map<string, Shard> } {
  const root: Record<string, string> = {};
  const shards = new Map<string, Shard>();
  for (const [path, sha] of files) {
    const [folder, name] = splitPath(path);
    if (folder === "") {
      root[name] = sha;
      continue;
    }
    let shard = shards.get(folder);
    if (!shard) shards.set(folder, (shard = { folder, files: {}, items: {} }));
    shard.files[name] = sha;
    const item = path.endsWith(".js") ? items(path) : undefined;
    if (item) shard.items[name] = [item.itemId, item.sourceSha256];
  }
  return { root, shards };
}

/**
 * What a whole manifest says besides its files: `build` defaults to counter 0 and the given (or an
 * empty) source list; its compiler to this one, its options to those of out/ in the project.
 */
export interface ManifestHeader {
  version: string | number;
  generated_at: string;
  build?: BuildInfo;
  /** The source list (source-tree.ts), written to out/manifest/sources.txt; its sha256 must be `build.sources` when both are given. */
  sourceList?: string;
}

/** A whole signed manifest: root and shards, by output path (for builds that are not incremental). */
export function manifestFiles(files: Iterable<readonly [path: string, sha256: string]>, items: (modulePath: string) => ManifestItem | undefined, header: ManifestHeader, key: SigningKey): Map<string, string> {
  const { root, shards } = shardsOf(files, items);
  const out = new Map<string, string>();
  // Without a source list, the list of no sources: the root must still bind one.
  const list = header.sourceList ?? (header.build ? undefined : sourceListText([]));
  if (list !== undefined) out.set(SOURCES_LIST, list);
  const given = header.build ?? { counter: 0, sources: sha256Hex(list!) };
  const build = { ...given, compiler: given.compiler ?? compilerIdentity(), options: given.options ?? DEFAULT_OPTIONS };
  const hashes: Record<string, string> = {};
  for (const [folder, shard] of shards) {
    const text = serializeShard(shard);
    out.set(shardPath(folder), text);
    hashes[folder] = sha256Hex(text);
  }
  out.set(MANIFEST, signManifest({ format: MANIFEST_FORMAT, version: header.version, generated_at: header.generated_at, build, files: root, shards: hashes }, key));
  return out;
}

/** The options of a build into out/ directly in the project, without --emit-ts. */
export const DEFAULT_OPTIONS: OutputOptions = { emitTs: false, sourceRoot: "../" };

const SIGNED_FIELD = /^rye:signed:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z):([a-f0-9]{64}):([A-Za-z0-9_-]+={0,2}):([a-f0-9]{16})$/;
const SHA = /^[a-f0-9]{64}$/;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const hashes = (v: unknown, key: (k: string) => boolean) => isRecord(v) && Object.entries(v).every(([k, h]) => key(k) && typeof h === "string" && SHA.test(h));
const plainName = (n: string) => n !== "" && n !== "." && n !== ".." && !n.includes("/") && !n.includes("\\") && !n.includes("\0");
const plainFolder = (f: string) => f.split("/").every(plainName);

/** True for a rye manifest of any format (so an older one is reported as such, not ignored). */
export function looksLikeManifest(v: unknown): boolean {
  return isRecord(v) && typeof v.generated_at === "string" && (Array.isArray(v.modules) || isRecord(v.shards));
}

const sameKeys = (v: Record<string, unknown>, keys: string[]) => Object.keys(v).length === keys.length && keys.every((k) => k in v);
const isCompiler = (c: unknown): c is CompilerIdentity =>
  isRecord(c) && sameKeys(c, ["version", "code", "runtime"]) && typeof c.version === "string" && c.version.length <= 64 && typeof c.code === "string" && SHA.test(c.code) && typeof c.runtime === "string" && SHA.test(c.runtime);
const isOptions = (o: unknown): o is OutputOptions =>
  isRecord(o) && sameKeys(o, ["emitTs", "sourceRoot"]) && typeof o.emitTs === "boolean" && (o.sourceRoot === null || (typeof o.sourceRoot === "string" && /^(?:\.\.\/){1,64}$/.test(o.sourceRoot)));

/** A format 4 `build` holds the compiler and options; a format 3 one only counter and sources. */
function isBuildInfo(b: unknown, format: unknown): b is BuildInfo {
  if (!isRecord(b) || !Number.isSafeInteger(b.counter) || (b.counter as number) < 0 || typeof b.sources !== "string" || !SHA.test(b.sources)) return false;
  return format === LEGACY_FORMAT ? sameKeys(b, ["counter", "sources"]) : sameKeys(b, ["counter", "sources", "compiler", "options"]) && isCompiler(b.compiler) && isOptions(b.options);
}

function isManifest(v: unknown): v is Manifest & { signature?: unknown } {
  return isRecord(v) && (v.format === MANIFEST_FORMAT || v.format === LEGACY_FORMAT) && (typeof v.version === "string" || typeof v.version === "number") && typeof v.generated_at === "string" && isBuildInfo(v.build, v.format) &&
    hashes(v.files, plainName) && hashes(v.shards, plainFolder) && Object.keys(v).every((k) => ["format", "version", "generated_at", "build", "files", "shards", "signature"].includes(k));
}

/** Verifies the signed root; on success `manifest` holds the parsed content. */
export function verifyManifest(text: string, trust: TrustStore, label = MANIFEST): ItemVerification & { manifest: Manifest | null } {
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
  const format = (parsed as { format?: unknown } | null)?.format;
  if (looksLikeManifest(parsed) && format !== MANIFEST_FORMAT && format !== LEGACY_FORMAT) {
    return { ...base, message: `Manifest ${label} is in an older format than this rye reads (format ${LEGACY_FORMAT} or ${MANIFEST_FORMAT}: split by folder, with signed build metadata)\n  Fix: rebuild with rye build` };
  }
  if (!isManifest(parsed)) return { ...base, message: `Manifest ${label} does not have the shape { format: ${MANIFEST_FORMAT}, version, generated_at, build: { counter, sources, compiler: { version, code, runtime }, options: { emitTs, sourceRoot } }, files: { name: sha256 }, shards: { folder: sha256 }, signature }` };
  const m = typeof parsed.signature === "string" ? SIGNED_FIELD.exec(parsed.signature) : null;
  if (!m) return { ...base, outcome: "unsigned", message: `Unsigned manifest: ${label}\n  Expected: a "signature": "rye:signed:…" field\n  Fix: rebuild it with rye build` };
  const info = { timestamp: m[1]!, hash: m[2]!, signature: m[3]!, fingerprint: m[4]! };
  const root = canonicalRoot(parsed);
  const actual = sha256Hex(rootText(root));
  const canonical = `${JSON.stringify({ ...root, signature: parsed.signature }, null, 1)}\n`;
  const key = trust.get(info.fingerprint);
  const checked = {
    ...base, signed: true, signature: info, expectedHash: info.hash, actualHash: actual,
    hashMatches: actual === info.hash && canonical === text, trusted: key !== undefined, owner: key?.owner ?? null,
    signatureValid: key ? verifyMessage(moduleSignedMessage(info.timestamp, info.hash), info.signature, key.publicPem) : null,
  };
  const judged = judge(checked, label, trust, REBUILD, actual === info.hash ? " (not in canonical form)" : "");
  if (!judged.ok) return { ...judged, manifest: null };
  return { ...judged, manifest: root };
}

/**
 * Reads a shard whose bytes already matched the root's sha256 for `folder`. The bytes are vouched
 * for; the shape is still checked, so a file listed there can never name a path outside its folder.
 */
export function parseShard(text: string, folder: string): Shard | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `not valid JSON: ${(e as Error).message}`;
  }
  if (!isRecord(v) || v.folder !== folder) return `does not describe the folder ${folder}`;
  // The bytes matched the signed root, so only the shape is checked, and cheaply: a shard lists ~100 files.
  const sha = (h: unknown) => typeof h === "string" && h.length === 64;
  if (!isRecord(v.files) || !Object.entries(v.files).every(([k, h]) => plainName(k) && sha(h))) return "its files are not { name: sha256 }";
  const items = v.items;
  if (!isRecord(items) || !Object.entries(items).every(([k, e]) => plainName(k) && Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && sha(e[1]))) {
    return "its items are not { module: [item id, source sha256] }";
  }
  return { folder, files: v.files as Record<string, string>, items: items as Shard["items"] };
}
