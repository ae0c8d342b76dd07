// One incremental `rye build` of a project: read the spaces, reuse every item whose sources and
// dependencies are unchanged and whose output is still on disk, compile, sign and write the rest one
// item at a time, then the whole-build files (registry, runtime, signed manifest), then the cache.
// Everything written goes through one OutputTransaction: out/ changes all at once, or not at all.
import { existsSync } from "node:fs";
import { compileItems, defaultJobs, guardedBuild, startWorkersEarly } from "./compile-items.js";
import { ItemCrash } from "./compile-share.js";
import * as d from "../diagnostics/codes.js";
import type { BuildWorkers } from "./worker-pool.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import { VERSION } from "../version.js";
import { sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { Fingerprints, cacheFile, sha256, compilerFingerprint, globalKey, itemKey, loadCache, saveCache, type CacheData, type FileRecord, type ItemRecord } from "../cache/build-cache.js";
import { OutputUpdate } from "../cache/build-cache-write.js";
import { OutputTransaction, outputFailure, type KnownOutput } from "../output/write-output.js";
import { bookkeepingFor } from "../cache/bookkeeping-secret.js";
import { quietIo, type Io } from "../host.js";
import { checkSourceSignatures } from "../sign/check-sources.js";
import type { TrustStore } from "../sign/trust-store.js";
import { readSpaces, type Spaces } from "../project/read-spaces.js";
import { DEFAULT_MAX_FILE_BYTES } from "../project/read-project.js";
import { runtimeFiles } from "../output/runtime-files.js";
import { beginStamp, upToDate } from "../cache/up-to-date.js";
import type { SpacesRead } from "../watch/watch-sources.js";
import { DependencyIndex, type SourceEdits } from "../watch/dependency-index.js";
import { WarmState } from "../watch/warm-state.js";
import { declarationMapFor } from "../emit/declaration-map.js";
import { modulePath, SourceStamps, signingKey, timestampFor } from "./signing.js";
import { LookupLog, moduleSigner } from "./item-hooks.js";
import { ItemRecords } from "./item-records.js";
import { buildInfoOf, writeManifest, type ManifestMemo } from "./write-manifest.js";

export interface ProjectBuildOptions {
  project: string;
  outDir: string;
  spaces: Spaces;
  allowUnsigned?: boolean;
  /** Also write each module's TypeScript source under `ts/`. */
  emitTs?: boolean;
  /** Called after each item (built or reused) with how many are done out of how many. */
  onProgress?: (done: number, total: number) => void;
  /** State kept between builds of one process (--watch): see `BuildMemo`. */
  memo?: BuildMemo;
  /** Reads the spaces (default: readSpaces); --watch passes one that rereads only changed files. */
  read?: () => SpacesRead;
  /** `--verify-sources`: every project item must verify against this store, or nothing is written. */
  sourceTrust?: TrustStore | null;
  /** Threads to compile on (`--jobs`; default RYE_JOBS, else one per core); 1: this thread only. */
  jobs?: number;
  /**
   * Bytes of source text a one-shot build keeps in memory once read (default 64 MiB, ~17k typical
   * items): each thread decodes a text from them where it parses it. Texts beyond are read again
   * from their files there, and a file changed since the first read fails the build (RYE8002).
   */
  keptSourceBytes?: number;
}

/**
 * What a long-lived process (--watch) keeps between builds: the cache as last saved (not re-read),
 * source hashes by path and text (a file whose text is unchanged is not hashed again), and the
 * compiler fingerprint. Output files this process wrote or checked are trusted without a stat;
 * one edited by hand mid-watch is repaired when its item changes or by the next `rye build`.
 */
export interface BuildMemo {
  cache?: CacheData;
  hashes?: Map<string, [text: string, hash: string]>;
  fingerprints?: Map<string, [SourceFile[], string]>;
  compiler?: string;
  /** The manifest of the last build, shard by shard (see write-manifest.ts). */
  manifest?: ManifestMemo;
  /** What out/ held after the last commit, so the next build neither re-reads its record nor scans it. */
  output?: KnownOutput;
  /** The whole-build files of the last build as emitted, signed and hashed, under the cache's global key. */
  shared?: { global: string; files: Map<string, SignedText> };
  /** Who looked up whom in the last build, so a rebuild checks only what a change can affect. */
  deps?: DependencyIndex;
  /** The sources grouped, and what the last committed build carried, so an edit's rebuild visits only what it affects. */
  warm?: WarmState;
  /** Writes the cache file; a long-lived process calls it when idle and before exiting, not after every rebuild. */
  save?: () => void;
}

export interface ProjectBuildResult {
  /**
   * The sources built. After a build that read them itself (no `read`, no `memo`), each text is
   * decoded when asked for from the bytes the build read, or, beyond `keptSourceBytes`, read again
   * from its file, which throws (an OutputError, RYE8002) once that file has changed.
   */
  sources: SourceFile[];
  diagnostics: Diagnostic[];
  compiled: string[];
  /** Project directives found. */
  directives: number;
  /** Items compiled by this build, and items reused from the cache. */
  rebuilt: number;
  reused: number;
  written: number;
  removed: number;
  /** True when `--verify-sources` failed and nothing was written. */
  refused?: boolean;
  /** Every file out/ now holds as this build's output (set when the build committed). */
  produced?: ReadonlySet<string>;
  /** Threads the items were compiled on (1 unless enough items were left to compile: see --jobs). */
  threads?: number;
  /** The source at a path (a warm rebuild keeps them by path; see build-report.ts). */
  sourceAt?: (path: string) => SourceFile | undefined;
}

/** Builds a project into its out/ directory using and updating `<project>/.rye-cache/build.json`. */
export function buildProject(opts: ProjectBuildOptions, io: Io = quietIo()): ProjectBuildResult {
  // A one-shot build (not --watch, which knows what changed) first asks whether anything did.
  const stamped = !opts.memo && !opts.read && !opts.sourceTrust ? { ...opts, env: io.env } : null;
  const hit = stamped ? upToDate(stamped) : null;
  if (hit) return { ...hit, rebuilt: 0, reused: hit.directives, written: 0, removed: 0 };
  const stamp = stamped ? beginStamp(stamped) : null;
  // A first build (no cache) compiles every item: its workers boot while this thread reads the sources.
  const early = stamp?.files && !existsSync(cacheFile(opts.project)) ? startWorkersEarly(opts.jobs ?? defaultJobs(io.env), stamp.files, opts.spaces.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES) : null;
  let result: ProjectBuildResult;
  try {
    result = buildProjectFully(opts, io, early);
  } finally {
    early?.close();
  }
  if (stamp && !result.refused && result.produced) stamp.save(result, result.produced);
  return result;
}

function buildProjectFully(opts: ProjectBuildOptions, io: Io, early: BuildWorkers | null = null): ProjectBuildResult {
  // A build no later build of this process reuses keeps no text as a string: each is decoded from
  // the bytes read (or, past their budget, read again) where it is parsed.
  const { sources, diagnostics: readProblems, hookConfig } = opts.read ? opts.read() : readSpaces(opts.spaces, { rereadTexts: !opts.memo, keptBytes: opts.keptSourceBytes });
  const warm = planWarm(opts, sources);
  const directives = warm ? warm.state.directives : sources.filter((s) => s.kind === "directive" && (s.space ?? "project") === "project").length;
  const none = { sources, compiled: [], directives, rebuilt: 0, reused: 0, written: 0, removed: 0 };
  let signatures: Diagnostic[];
  try {
    signatures = warm ? warm.state.signatureList() : checkSourceSignatures(sources, opts.sourceTrust ?? null);
  } catch (e) {
    // A text read again for its signature that no longer is what the build read (RYE8002).
    return { ...none, diagnostics: [...readProblems, outputFailure(opts.outDir, e)] };
  }
  // Output signed with this machine's key must never vouch for sources that failed verification.
  if (opts.sourceTrust && signatures.some((d) => d.severity === "error")) {
    return { ...none, diagnostics: sortDiagnostics([...readProblems, ...signatures]), refused: true };
  }
  let tx: OutputTransaction;
  try {
    // The journal, lock and cache are acted on only when sealed with the user space's secret (decisions #23).
    tx = OutputTransaction.begin(opts.outDir, { project: opts.project, known: opts.memo?.output, bookkeeping: bookkeepingFor(opts.project, io.env, io.cwd) });
  } catch (e) {
    return { ...none, diagnostics: [...readProblems, ...signatures, outputFailure(opts.outDir, e)] };
  }
  try {
    return buildInto(tx, opts, io, { sources, readProblems, hookConfig, directives, signatures, warm, early });
  } catch (e) {
    // Only writing throws here (a full disk, a permission): out/ stays as it was, or a journal the
    // next build completes; either way the next build of this process reads out/ and the cache afresh.
    if (opts.memo) opts.memo.output = opts.memo.cache = opts.memo.warm = undefined;
    return { ...none, diagnostics: [...readProblems, ...signatures, buildFailure(opts.outDir, e)] };
  } finally {
    tx.abort();
  }
}

/**
 * Why a build stopped: an internal error at the item being compiled then (RYE1010; at the output
 * folder when it came between items), else the write failure (RYE8005/8006/8002).
 */
function buildFailure(outDir: string, e: unknown): Diagnostic {
  if (!(e instanceof ItemCrash)) return outputFailure(outDir, e);
  const at = { offset: 0, line: 1, column: 1 };
  const detail = e.source ? e.detail : `${e.detail}, between items (the tools or the whole-build files)`;
  return d.internalError({ source: e.source ?? outDir, start: at, end: at }, detail);
}

interface ReadResult {
  sources: SourceFile[];
  readProblems: Diagnostic[];
  hookConfig: SpacesRead["hookConfig"];
  directives: number;
  signatures: Diagnostic[];
  warm: WarmPlan | null;
  /** Build workers already started (see startWorkersEarly). */
  early?: BuildWorkers | null;
}

/** A warm rebuild's start: the kept state moved to the sources just read, and what changed since the last commit. */
interface WarmPlan {
  state: WarmState;
  edits: SourceEdits;
}

/** The warm plan of a --watch rebuild after edits to existing files; null when a full build is needed. */
function planWarm(opts: ProjectBuildOptions, sources: SourceFile[]): WarmPlan | null {
  const memo = opts.memo;
  const state = memo?.warm;
  if (!memo || !state || opts.sourceTrust) return null;
  if (!state.advance(sources)) {
    memo.warm = undefined;
    return null;
  }
  const edits = memo.cache === state.cache ? memo.deps?.edits(sources, state.cache) : null;
  return edits ? { state, edits } : null;
}

/** The item a manifest entry names: the project item whose `.js` module is at `path`, with its source's sha256. */
function manifestItemOf(fps: Fingerprints): (k: string, path: string) => { itemId: string; sourceSha256: string } | undefined {
  return (k, path) => {
    const src = fps.projectSource(k);
    return src && path === modulePath(src) ? { itemId: src.id, sourceSha256: fps.hashOf(src) } : undefined;
  };
}

/** A whole-build file: its text as emitted, as signed, and the signed text's sha256. */
type SignedText = [text: string, signed: string, sha256: string];

function signedWithHash(signed: string): [string, string] {
  return [signed, sha256(signed)];
}

/** What every build of these sources shares: the signing key and time, the cache key, and the cache it selects. */
interface BuildContext {
  key: ReturnType<typeof signingKey> | null;
  timestamp: string;
  global: string;
  cache: CacheData;
  path: string;
  /** The cache is the one this process saved last (--watch), so its records need no stat. */
  trusted: boolean;
  stamps: SourceStamps | null;
}

function buildContext(tx: OutputTransaction, opts: ProjectBuildOptions, io: Io, read: ReadResult): BuildContext {
  const { sources, hookConfig } = read;
  const memo = opts.memo;
  const key = opts.allowUnsigned ? null : signingKey(io, opts.outDir);
  const stamps = read.warm ? read.warm.state.stamps : memo ? new SourceStamps(sources) : null;
  const timestamp = stamps ? stamps.timestamp(io) : timestampFor(sources, io);
  const global = globalKey({
    compiler: memo ? (memo.compiler ??= compilerFingerprint()) : compilerFingerprint(),
    version: VERSION,
    hookConfig,
    key: key ? key.fingerprint : "unsigned",
    timestamp,
    outDir: opts.outDir,
    emitTs: opts.emitTs === true,
  });
  const path = cacheFile(opts.project);
  const cache = memo?.cache?.global === global ? memo.cache : loadCache(path, global, tx.bookkeeping);
  return { key, timestamp, global, cache, path, trusted: memo?.cache === cache, stamps };
}

function buildInto(tx: OutputTransaction, opts: ProjectBuildOptions, io: Io, read: ReadResult): ProjectBuildResult {
  const { sources, readProblems, hookConfig, directives, signatures } = read;
  const memo = opts.memo;
  const c = buildContext(tx, opts, io, read);
  if (read.warm && c.trusted && tx.knowsOutput && read.warm.state.cache === c.cache) return buildWarm(tx, opts, io, read, c);
  const { key, timestamp, cache, trusted } = c;
  const fps = new Fingerprints(sources, memo ? (memo.hashes ??= new Map()) : undefined, memo ? (memo.fingerprints ??= new Map()) : undefined);
  const next: CacheData = { format: cache.format, global: c.global, items: {}, shared: [] };
  const isError = (x: Diagnostic) => x.severity === "error";
  const out = new OutputUpdate(tx, trusted);
  const items = new ItemRecords({
    cache,
    next,
    fps,
    out,
    // --watch: items nothing they read has changed since the last build are carried over unchecked.
    carried: memo && trusted ? (memo.deps ??= new DependencyIndex()).unchangedSince(sources, cache) : null,
    sign: moduleSigner(key, timestamp),
    total: sources.filter((s) => (s.space ?? "project") === "project" && s.kind !== "tool").length,
    onProgress: opts.onProgress,
    failed: readProblems.some(isError) || signatures.some(isError),
  });
  const parallel = items.parallel({ jobs: opts.jobs ?? defaultJobs(io.env), workers: read.early, key, timestamp, tx, trusted });
  const options = { hookConfig, emitTs: opts.emitTs, declarationMap: declarationMapFor(opts.project, opts.outDir), items: items.hooks() };
  const result = compileItems(sources, VERSION, options, parallel);
  const { rebuilt, reused } = items;
  const diagnostics = sortDiagnostics([...readProblems, ...signatures, ...result.diagnostics]);
  // A build with errors leaves out/, and the cache describing it, as they were.
  if (diagnostics.some(isError)) {
    tx.abort();
    return { sources, diagnostics, compiled: result.compiled, directives, rebuilt, reused, written: 0, removed: 0, threads: result.threads };
  }
  const committed = commitFull(tx, opts, io, read, c, { fps, next, result, rebuilt, out });
  return { sources, diagnostics, compiled: result.compiled, directives, rebuilt, reused, written: committed.written, removed: committed.removed, produced: tx.produced, threads: result.threads };
}

/**
 * A full build without errors: writes the whole-build files and the manifest, commits out/, and
 * saves the cache (or, in a long-lived process, keeps it and the warm state in the memo).
 */
function commitFull(tx: OutputTransaction, opts: ProjectBuildOptions, io: Io, read: ReadResult, c: BuildContext, made: { fps: Fingerprints; next: CacheData; result: ReturnType<typeof compileItems>; rebuilt: number; out: OutputUpdate }): { written: number; removed: number } {
  const { sources, hookConfig, directives, signatures } = read;
  const { fps, next, result, rebuilt, out } = made;
  const { key, cache, global, path, stamps } = c;
  const memo = opts.memo;
  const sign = moduleSigner(key, c.timestamp);
  const sharedBefore = new Map(cache.shared.map((f) => [f[0], f]));
  next.shared.push(...writeShared(out, result.files, { memo, global, sign, before: sharedBefore }));
  if (key) {
    const itemOf = manifestItemOf(fps);
    const meta = buildInfoOf(sources, hookConfig, opts.spaces, (s) => fps.hashOf(s), io.env, { outDir: opts.outDir, emitTs: opts.emitTs });
    const input = { items: next.items, shared: next.shared, itemOf, version: VERSION, timestamp: c.timestamp, build: meta, global, key, before: (rel: string) => sharedBefore.get(rel) };
    next.shared.push(...writeManifest(out, input, memo));
  }
  // Moves the staged files into out/ and deletes the recorded files of items that are gone.
  const committed = tx.commit();
  if (memo) memo.output = tx.known;
  // A no-op build leaves the cache file alone too, unless a file's stat moved (then it is re-recorded).
  const same = (a: FileRecord[], b: FileRecord[]) => a.length === b.length && a.every((f, i) => f === b[i]);
  const unchanged = rebuilt === 0 && same(next.shared, cache.shared) && Object.keys(next.items).length === Object.keys(cache.items).length &&
    Object.entries(next.items).every(([k, r]) => r === cache.items[k]);
  if (memo) {
    memo.cache = unchanged ? cache : next;
    (memo.deps ??= new DependencyIndex()).commit(sources, cache, memo.cache);
    if (!unchanged) memo.save = () => saveCache(path, next, tx.bookkeeping);
    memo.warm =
      !opts.sourceTrust && result.carried && stamps
        ? new WarmState({ sources, cache: memo.cache, compile: result.carried, compiled: result.compiled, fingerprints: fps.byId, stamps, signatures, directives })
        : undefined;
  } else if (!unchanged) saveCache(path, next, tx.bookkeeping);
  return committed;
}

/**
 * Writes the whole-build files (the compiler's and the runtime) through `out`; returns their records.
 * Cheap, so regenerated every build and written only when they changed.
 */
function writeShared(out: OutputUpdate, files: Map<string, string>, c: { memo?: BuildMemo; global: string; sign: (rel: string, text: string) => string; before: Map<string, FileRecord> }): FileRecord[] {
  const shared = new Map([...files, ...runtimeFiles()]);
  const signedShared = c.memo?.shared?.global === c.global ? c.memo.shared.files : new Map<string, SignedText>();
  const signedNow = new Map<string, SignedText>();
  const records: FileRecord[] = [];
  for (const [rel, text] of shared) {
    // The registries of 10k items are megabytes: unchanged ones are neither signed nor hashed again.
    let s = signedShared.get(rel);
    if (s?.[0] !== text) s = [text, ...signedWithHash(c.sign(rel, text))];
    signedNow.set(rel, s);
    records.push(out.put(rel, s[1], c.before.get(rel), s[2]));
  }
  if (c.memo) c.memo.shared = { global: c.global, files: signedNow };
  return records;
}

/**
 * A --watch rebuild after edits to existing files: only the items the edits affect are compiled,
 * the items with diagnostics are answered from the cache, and every other item is neither visited
 * nor listed: its record stays in the cache, its files stay produced (OutputTransaction.carryKnown),
 * its manifest shard stays as signed. The result is what a full build of the same sources makes.
 */
function buildWarm(tx: OutputTransaction, opts: ProjectBuildOptions, io: Io, read: ReadResult, c: BuildContext): ProjectBuildResult {
  const { sources, readProblems, hookConfig, directives, signatures } = read;
  const { state, edits } = read.warm!;
  const memo = opts.memo!;
  const { key, timestamp, global, cache } = c;
  tx.carryKnown();
  const out = new OutputUpdate(tx, true);
  const fps = new Fingerprints(sources, (memo.hashes ??= new Map()), (memo.fingerprints ??= new Map()), state.fingerprints);
  const sign = moduleSigner(key, timestamp);
  const isError = (x: Diagnostic) => x.severity === "error";
  let failed = readProblems.some(isError) || signatures.some(isError);
  const records = new Map<string, ItemRecord>();
  const lookups = new LookupLog();
  const visit = state.visit(edits.affected);
  const result = guardedBuild(sources, VERSION, {
    hookConfig,
    emitTs: opts.emitTs,
    declarationMap: declarationMapFor(opts.project, opts.outDir),
    warm: { groups: state.groups, visit, compiled: state.compiled, wasCompiled: (s) => state.wasCompiled(s), entries: state.entries, tools: state.tools, shared: state.shared },
    items: {
      failed: () => failed,
      reuse: (src) => {
        const k = itemKey(src.kind, src.id);
        return edits.affected.has(k) ? undefined : cache.items[k];
      },
      onLookup: (from, kind, id) => lookups.add(from, kind, id),
      onItem(src, outcome, files) {
        if (outcome.parseDiagnostics.some(isError) || outcome.diagnostics.some(isError)) failed = true;
        const k = itemKey(src.kind, src.id);
        const before = cache.items[k]?.files ?? [];
        const made = files ? [...files].map(([rel, text]) => out.put(rel, sign(rel, text), before.find((f) => f[0] === rel))) : [];
        for (const f of before) if (!made.some((r) => r[0] === f[0])) tx.drop(f[0]);
        const deps = lookups.take(src).map(([kind, id]): [ItemKind, string, string] => [kind, id, fps.of(kind, id)]);
        records.set(k, Object.assign({}, outcome, { self: fps.of(src.kind, src.id), deps, files: made }));
      },
    },
  });
  state.tools = result.carried?.tools;
  state.shared = result.carried?.shared;
  const rebuilt = records.size;
  const reused = state.groups.order.length - rebuilt;
  const sourceAt = (p: string) => state.sourceAt(p);
  const diagnostics = sortDiagnostics([...readProblems, ...signatures, ...result.diagnostics]);
  if (diagnostics.some(isError)) {
    tx.abort();
    return { sources, diagnostics, compiled: result.compiled, directives, rebuilt, reused, written: 0, removed: 0, threads: 1, sourceAt };
  }
  // The committed records are replaced in place (a write failure from here on drops the memo's cache).
  const replaced = new Map<string, ItemRecord | undefined>();
  for (const [k, rec] of records) {
    replaced.set(k, cache.items[k]);
    cache.items[k] = rec;
  }
  const sharedBefore = new Map(cache.shared.map((f) => [f[0], f]));
  const next: CacheData = { format: cache.format, global, items: cache.items, shared: writeShared(out, result.files, { memo, global, sign, before: sharedBefore }) };
  if (key) {
    const itemOf = manifestItemOf(fps);
    const meta = buildInfoOf(sources, hookConfig, opts.spaces, (s) => fps.hashOf(s), io.env, { outDir: opts.outDir, emitTs: opts.emitTs });
    const input = { items: next.items, changed: replaced, shared: next.shared, itemOf, version: VERSION, timestamp, build: meta, global, key, before: (rel: string) => sharedBefore.get(rel) };
    next.shared.push(...writeManifest(out, input, memo));
  }
  // Whole-build files of the last build this one no longer makes (a tool's module, an emptied folder's shard).
  const sharedNow = new Set(next.shared.map((f) => f[0]));
  for (const f of cache.shared) if (!sharedNow.has(f[0])) tx.drop(f[0]);
  const committed = tx.commit();
  memo.output = tx.known;
  const unchanged = rebuilt === 0 && next.shared.length === cache.shared.length && next.shared.every((f, i) => f === cache.shared[i]);
  const now = unchanged ? cache : next;
  memo.cache = now;
  (memo.deps ??= new DependencyIndex()).commitEdits(sources, now, replaced);
  state.committed(now, records.keys(), result.compiled);
  if (!unchanged) memo.save = () => saveCache(c.path, next, tx.bookkeeping);
  return { sources, diagnostics, compiled: result.compiled, directives, rebuilt, reused, written: committed.written, removed: committed.removed, produced: tx.produced, threads: 1, sourceAt };
}
