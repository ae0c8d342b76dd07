// The manifest of an incremental build: one shard per output folder plus the signed root (see
// src/sign/sign-manifest.ts). A long-lived process (--watch) keeps each shard's text with the file
// records it was made from; a rebuild re-serialises only the shards whose records changed, and
// re-signs the root only when a shard's or a top-level file's hash did. It also keeps the items'
// records grouped by folder, so a warm rebuild that names the items it changed regroups only those.
import type { FileRecord, ItemRecord } from "../cache/build-cache.js";
import type { OutputUpdate } from "../cache/build-cache-write.js";
import { sha256Hex } from "../sign/hash-region.js";
import type { SigningKey } from "../sign/keys.js";
import { compilerIdentity, outputOptions } from "../sign/compiler-identity.js";
import { DEFAULT_OPTIONS, MANIFEST, MANIFEST_FORMAT, serializeShard, shardPath, signManifest, splitPath, type ManifestItem, type Shard } from "../sign/sign-manifest.js";
import { LISTED } from "../sign/signed-files.js";
import { buildCounter, buildMetadata, sourceListOf, SOURCES_LIST, type BuildMetadata } from "../sign/source-tree.js";
import { spacesInOrder, type Spaces } from "../project/read-spaces.js";
import type { SourceFile } from "../model/source.js";


interface ShardMemo {
  /** What the shard was made from: each file's record, its item's key and its item's record (a rebuilt item's is new). */
  refs: unknown[];
  text: string;
  sha256: string;
}

/** What a long-lived process keeps of the last manifest it wrote. */
export interface ManifestMemo {
  /** The cache's global key: another key, timestamp or compiler makes every shard anew. */
  global: string;
  shards: Map<string, ShardMemo>;
  root: { key: string; text: string };
  /** The items' file records by folder, as [record, item key, item record] triples ("" for top-level files). */
  items: Map<string, unknown[]>;
}

export interface ManifestInput {
  /** Every item's record by `kind:id`, and the whole-build files: what the manifest lists (unsigned files skipped). */
  items: Record<string, ItemRecord>;
  shared: readonly FileRecord[];
  /** The item `kind:id` as the manifest names it, when `path` is its module; asked only for shards that changed. */
  itemOf: (key: string, path: string) => ManifestItem | undefined;
  version: string;
  timestamp: string;
  /** The build's counter and source tree (decisions.md #26), signed with the root; default: counter 0, no sources. */
  build?: BuildMetadata;
  global: string;
  key: SigningKey;
  /** What the last build recorded at an output path, so unchanged files are neither written nor read. */
  before: (rel: string) => FileRecord | undefined;
  /**
   * A warm rebuild: the only items whose records changed since the manifest in the memo (`kind:id` →
   * the record before, if any; `items` holds the new one). The others are not looked at.
   */
  changed?: ReadonlyMap<string, ItemRecord | undefined>;
}

// Records of unchanged files are the same objects build after build: their folder is looked up once.
const folders = new WeakMap<FileRecord, string | null>();
function folderOf(rec: FileRecord): string | null {
  let folder = folders.get(rec);
  if (folder === undefined) folders.set(rec, (folder = LISTED.test(rec[0]) ? splitPath(rec[0])[0] : null));
  return folder;
}

const same = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The build options that change the output's bytes: where out/ lies in the project, and --emit-ts. */
export interface OutputChoice {
  outDir: string;
  emitTs?: boolean;
}

/**
 * The metadata a build signs (decisions.md #26): every source it read, by space, path and sha256,
 * the hook configuration, RYE_BUILD_COUNTER, this compiler's identity and the output options
 * (default: out/ in the project, no --emit-ts). `rye verify --current` recomputes all of it.
 */
export function buildInfoOf(sources: readonly SourceFile[], hookConfig: { path: string; text: string } | null, spaces: Spaces, hashOf: (s: SourceFile) => string, env: NodeJS.ProcessEnv, choice?: OutputChoice): BuildMetadata {
  const meta = buildMetadata(sourceListOf(sources, rootsOf(spaces), hashOf, hookConfig), buildCounter(env));
  const options = choice ? outputOptions(spaces.project, choice.outDir, choice.emitTs) : DEFAULT_OPTIONS;
  return { ...meta, compiler: compilerIdentity(), options };
}

// The same roots object for the same spaces, so the kept lines of sourceListOf stay valid across rebuilds.
let lastRoots: { key: string; roots: ReadonlyMap<string, string> } | undefined;
function rootsOf(spaces: Spaces): ReadonlyMap<string, string> {
  const list = spacesInOrder(spaces);
  const key = JSON.stringify(list);
  if (lastRoots?.key !== key) lastRoots = { key, roots: new Map(list) };
  return lastRoots.roots;
}

/** Writes the shards and root through `out`; returns their records. `memo.manifest` is read and updated when given. */
export function writeManifest(out: OutputUpdate, input: ManifestInput, memo?: { manifest?: ManifestMemo }): FileRecord[] {
  const prev = memo?.manifest?.global === input.global ? memo.manifest : undefined;
  const items = prev && input.changed ? regroupItems(prev.items, input.changed, input.items) : groupItems(input.items);
  const rootFiles: Record<string, string> = {};
  for (let i = 0, top = items.get("") ?? []; i < top.length; i += 3) rootFiles[(top[i] as FileRecord)[0]] = (top[i] as FileRecord)[1];
  // Tools are compiled every build, so their modules are whole-build files; a tool's source hash marks its change.
  const shared = new Map<string, unknown[]>();
  for (const rec of input.shared) {
    const folder = folderOf(rec);
    if (folder === null) continue;
    if (folder === "") {
      rootFiles[rec[0]] = rec[1];
      continue;
    }
    const tool = /^tools\/(.+)\.js$/.exec(rec[0]);
    const key = tool ? `tool:${tool[1]}` : undefined;
    let refs = shared.get(folder);
    if (!refs) shared.set(folder, (refs = []));
    refs.push(rec, key, key && input.itemOf(key, rec[0])?.sourceSha256);
  }
  const folders = [...new Set([...items.keys(), ...shared.keys()])].filter((f) => f !== "").sort((a, b) => (a < b ? -1 : 1));
  const shards = new Map<string, ShardMemo>();
  const written: FileRecord[] = [];
  const hashes: Record<string, string> = {};
  for (const folder of folders) {
    const own = items.get(folder);
    const more = shared.get(folder);
    const refs = own && more ? [...own, ...more] : (own ?? more)!;
    const kept = prev?.shards.get(folder);
    // A folder no changed item touched holds the very array its shard was made from.
    const shard = kept && (kept.refs === refs || same(kept.refs, refs)) ? kept : makeShard(folder, refs, input.itemOf);
    shards.set(folder, shard);
    hashes[folder] = shard.sha256;
    const rel = shardPath(folder);
    written.push(out.put(rel, shard.text, input.before(rel), shard.sha256));
  }
  // The source list is bound by its sha256 in the root, like a shard; it changes whenever a source does.
  const meta = input.build ?? buildMetadata([], 0);
  written.push(out.put(SOURCES_LIST, meta.list, input.before(SOURCES_LIST), meta.sources));
  const build = { counter: meta.counter, sources: meta.sources, compiler: meta.compiler ?? compilerIdentity(), options: meta.options ?? DEFAULT_OPTIONS };
  const key = JSON.stringify([rootFiles, hashes, input.version, input.timestamp, build]);
  const text = prev?.root.key === key ? prev.root.text : signManifest({ format: MANIFEST_FORMAT, version: input.version, generated_at: input.timestamp, build, files: rootFiles, shards: hashes }, input.key, input.timestamp);
  written.push(out.put(MANIFEST, text, input.before(MANIFEST)));
  if (memo) memo.manifest = { global: input.global, shards, root: { key, text }, items };
  return written;
}

/** Every item's signed files by folder. */
function groupItems(records: Record<string, ItemRecord>): Map<string, unknown[]> {
  const groups = new Map<string, unknown[]>();
  for (const key in records) {
    const item = records[key]!;
    for (const rec of item.files) {
      const folder = folderOf(rec);
      if (folder === null) continue;
      let refs = groups.get(folder);
      if (!refs) groups.set(folder, (refs = []));
      refs.push(rec, key, item);
    }
  }
  return groups;
}

/** `groupItems` of the records now, from the grouping before and the items that changed: only their folders are made anew. */
function regroupItems(before: Map<string, unknown[]>, changed: ReadonlyMap<string, ItemRecord | undefined>, records: Record<string, ItemRecord>): Map<string, unknown[]> {
  const dirty = new Set<string>();
  for (const [key, was] of changed) {
    for (const rec of [...(was?.files ?? []), ...(records[key]?.files ?? [])]) {
      const folder = folderOf(rec);
      if (folder !== null) dirty.add(folder);
    }
  }
  const groups = new Map(before);
  for (const folder of dirty) {
    const refs: unknown[] = [];
    const old = before.get(folder) ?? [];
    for (let i = 0; i < old.length; i += 3) if (!changed.has(old[i + 1] as string)) refs.push(old[i], old[i + 1], old[i + 2]);
    for (const key of changed.keys()) {
      const item = records[key];
      for (const rec of item?.files ?? []) if (folderOf(rec) === folder) refs.push(rec, key, item);
    }
    if (refs.length > 0) groups.set(folder, refs);
    else groups.delete(folder);
  }
  return groups;
}

function makeShard(folder: string, refs: unknown[], itemOf: ManifestInput["itemOf"]): ShardMemo {
  const shard: Shard = { folder, files: {}, items: {} };
  for (let i = 0; i < refs.length; i += 3) {
    const [path, sha] = refs[i] as FileRecord;
    const name = splitPath(path)[1];
    shard.files[name] = sha;
    const item = refs[i + 1] === undefined || !path.endsWith(".js") ? undefined : itemOf(refs[i + 1] as string, path);
    if (item) shard.items[name] = [item.itemId, item.sourceSha256];
  }
  const text = serializeShard(shard);
  return { refs, text, sha256: sha256Hex(text) };
}
