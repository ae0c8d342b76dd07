// The item loop of a build, on one thread or on several. The main thread makes every reuse decision
// first (the cache, the output on disk); the items left to compile are shared among itself and build
// workers (worker-pool.ts), which compile, sign, hash and stage them; then the compiler runs once
// more on the main thread with every item answered by `reuse` (from the cache, or with what a worker
// built), so the diagnostics, the compiled list and the whole-build files are assembled exactly as a
// single-threaded build assembles them, in the same order.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { build, type BuildItemHooks, type BuildOptions, type BuildResult } from "../compile/build.js";
import { groupSources, type ItemOutcome } from "../compile/compile-directives.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import type { FileRecord } from "../cache/build-cache.js";
import type { OutputTransaction } from "../output/write-output.js";
import type { SigningKey } from "../sign/keys.js";
import { BuildWorkers, compileInParallel } from "./worker-pool.js";
import { factsOf } from "../project/source-facts.js";
import { guardItems, type BuiltItem, type ShareTask } from "./compile-share.js";

/**
 * Items to compile below which a build stays on one thread: starting a worker (loading the compiler,
 * warming it up) costs about as much as compiling a few hundred items (see docs/performance.md).
 */
export const PARALLEL_FROM = 500;
/** The fewest items a thread claims at a time (see compile-share.ts). */
const CHUNK = 32;

/** The build worker next to this module when it runs compiled (dist/); none under a TypeScript runner or in a bundle. */
const WORKER = ((url: URL) => (url.protocol === "file:" && url.pathname.endsWith(".js") && existsSync(url) ? url : null))(new URL("./build-worker.js", import.meta.url));

/** Threads a build may use: `--jobs`, else RYE_JOBS, else one per core. */
export function defaultJobs(env: Record<string, string | undefined>): number {
  const n = Number(env.RYE_JOBS);
  return Number.isInteger(n) && n >= 1 ? n : availableParallelism();
}

/**
 * How many workers a build that will compile `files.count` items on up to `jobs` threads needs,
 * and what sizes their heaps: the largest file counts at most `maxFileBytes`, since a larger one
 * is reported (RYE1005), not read. Null when it would stay on one thread.
 */
export function earlyWorkers(jobs: number, files: { count: number; largest: number }, maxFileBytes: number): { workers: number; sources: number; largest: number } | null {
  if (jobs <= 1 || files.count < PARALLEL_FROM) return null;
  return { workers: Math.min(jobs, Math.ceil(files.count / CHUNK)) - 1, sources: files.count, largest: Math.min(files.largest, maxFileBytes) };
}

/** The workers of `earlyWorkers`, started now so that they boot while this thread reads the sources. */
export function startWorkersEarly(jobs: number, files: { count: number; largest: number }, maxFileBytes: number): BuildWorkers | null {
  const early = WORKER ? earlyWorkers(jobs, files, maxFileBytes) : null;
  return early && new BuildWorkers(early.workers, WORKER!, early.sources, early.largest);
}

export interface ParallelItems {
  jobs: number;
  /** Workers started ahead of the task (startWorkersEarly): used when their number is the one needed. */
  workers?: BuildWorkers | null;
  key: SigningKey | null;
  timestamp: string;
  tx: OutputTransaction;
  /** The output records were made by this process (--watch). */
  trusted: boolean;
  /** The records the last build made of an item's files. */
  before(src: SourceFile): FileRecord[];
  /** Called while the threads compile, with how many items they have compiled so far. */
  progress?(compiled: number): void;
  /** Records an item a worker built, as `onItem` records one built here (its files are written). */
  built(src: SourceFile, outcome: ItemOutcome, records: FileRecord[], lookups: [ItemKind, string][]): void;
  /**
   * Called for each item as soon as a thread has built it, with what `built` will be given, in no
   * fixed order, while the threads still compile: what `built` needs that does not depend on the
   * order can be worked out here, where the work is shared with the compiling instead of added after it.
   */
  arrived?(src: SourceFile, outcome: ItemOutcome, records: FileRecord[], lookups: [ItemKind, string][]): void;
}

/** `build` with item hooks, compiling the items `reuse` does not answer for on up to `parallel.jobs` threads. */
export function compileItems(sources: readonly SourceFile[], version: string, options: BuildOptions & { items: BuildItemHooks }, parallel: ParallelItems): BuildResult & { threads: number } {
  // A rebuild in a warm process (--watch) compiles what one change touched: deciding every item twice
  // to count them would cost it more than a worker could save.
  // Workers started early that this build will not use are stopped before it compiles.
  const early = parallel.workers;
  if (parallel.jobs <= 1 || !WORKER || parallel.trusted) return early?.close(), { ...guardedBuild(sources, version, options), threads: 1 };
  const hooks = options.items;
  const decided = new Map<SourceFile, ItemOutcome | undefined>();
  const pending: SourceFile[] = [];
  // Grouped once, for the decisions here and for the pass that assembles the result.
  const groups = groupSources(sources);
  for (const src of groups.order) {
    const reused = hooks.reuse?.(src);
    decided.set(src, reused);
    if (!reused) pending.push(src);
  }
  const reuse = (src: SourceFile) => (decided.has(src) ? decided.get(src) : hooks.reuse?.(src));
  // Every thread gets at least a chunk to claim.
  const threads = pending.length < PARALLEL_FROM ? 1 : Math.min(parallel.jobs, Math.ceil(pending.length / CHUNK));
  if (threads <= 1) return early?.close(), { ...guardedBuild(sources, version, { ...options, items: { ...hooks, reuse } }), threads: 1 };

  const index = new Map(sources.map((s, i) => [s, i]));
  const task: ShareTask = {
    sources: [...sources],
    hookConfig: options.hookConfig ?? null,
    emitTs: options.emitTs === true,
    version,
    items: pending.map((s) => index.get(s)!),
    before: pending.map((s) => parallel.before(s)),
    chunk: CHUNK,
    threads,
    key: parallel.key,
    timestamp: parallel.timestamp,
    outDir: parallel.tx.outDir,
    owned: parallel.tx.owned,
    trusted: parallel.trusted,
  };
  const workers = early?.count === threads - 1 ? early : threads - 1;
  if (workers !== early) early?.close();
  const arrived = parallel.arrived;
  const onArrived = arrived && ((b: BuiltItem) => arrived(pending[b.at]!, b.outcome, b.records, b.lookups));
  const built = compileInParallel(task, workers, WORKER, hooks.failed?.() === true, parallel.progress, factsOf, onArrived);
  const byItem = new Map(built.map((b) => [pending[b.at]!, b]));
  const result = guardedBuild(sources, version, {
    ...options,
    groups,
    items: {
      ...hooks,
      reuse(src) {
        if (!decided.has(src) || decided.get(src)) return reuse(src);
        const b = byItem.get(src);
        if (!b) throw new Error(`no thread compiled ${src.path}`);
        const staged = new Set(b.staged);
        for (const [rel] of b.records) {
          if (staged.has(rel)) parallel.tx.adopt(rel);
          else parallel.tx.keep(rel);
        }
        parallel.built(src, b.outcome, b.records, b.lookups);
        return b.outcome;
      },
    },
  });
  return { ...result, threads };
}

/** `build` where an error other than a write failure is an ItemCrash naming the item compiled then (RYE1010). */
export function guardedBuild(sources: readonly SourceFile[], version: string, options: BuildOptions & { items: BuildItemHooks }): BuildResult {
  return guardItems(options.items, (items) => build(sources, version, { ...options, items }));
}
