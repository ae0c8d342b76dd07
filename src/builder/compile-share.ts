// One thread's share of a parallel build: the items it claims are compiled, signed, hashed and staged
// here; every other item is skipped through the `reuse` hook and parsed only if a claimed item looks
// it up. The main thread and each build worker run this over the same task; claims come in runs of
// consecutive items from a position they share, so a thread that starts late or runs slow simply
// claims fewer. A claim is a share of what is left (half of it over the threads, never fewer than
// `chunk` items): long runs early, where an item's lookups (its parent, the directives it calls,
// mostly its neighbours in id order) fall in the same run and are parsed on one thread only; short
// ones at the end, so the threads finish together. New modules are signed and written a few items at
// a time (SigningBatch).
import { build, type BuildItemHooks } from "../compile/build.js";
import { OutputError } from "../output/output-fs.js";
import type { ItemOutcome } from "../compile/compile-directives.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { FileRecord } from "../cache/build-cache.js";
import { OutputUpdate } from "../cache/build-cache-write.js";
import { StagingWriter } from "../output/write-output.js";
import { LISTED } from "../sign/signed-files.js";
import type { SigningKey } from "../sign/keys.js";
import { dropReadAhead, readAhead, type SharedSources } from "./shared-sources.js";
import { LookupLog, moduleSigner } from "./item-hooks.js";
import { SigningBatch } from "./signing-batch.js";


/** Slots of the Int32Array the threads of one build share: the position in `items` of the first item no thread has claimed. */
export const NEXT_ITEM = 0;
/** Set once any item has an error: the build writes nothing, so no thread emits or stages any more. */
export const FAILED = 1;
/** Bumped (and notified) whenever a worker posts a message for the main thread. */
export const SIGNAL = 2;
export const SHARED_SLOTS = 4;

/** Everything a thread needs to compile its share; posted once to each worker (with SharedSources for `sources`: see WorkerTask). */
export interface ShareTask {
  sources: SourceFile[];
  hookConfig: { path: string; text: string } | null;
  emitTs: boolean;
  version: string;
  /** Indices into `sources` of the items to compile, in the order `compileDirectives` reaches them. */
  items: number[];
  /** For each of `items`: the records the last build made of its files. */
  before: FileRecord[][];
  /** The fewest items claimed at a time. */
  chunk: number;
  /** Threads sharing the items (the main thread and its workers). */
  threads: number;
  key: SigningKey | null;
  timestamp: string;
  outDir: string;
  /** Files earlier builds recorded as their own (see OutputUpdate.put). */
  owned: ReadonlySet<string>;
  /** The records in `before` were made by this process (--watch): no stat needed. */
  trusted: boolean;
}

/** A ShareTask as posted to a build worker: the sources' texts travel in a shared buffer. */
export type WorkerTask = Omit<ShareTask, "sources"> & { sources: SharedSources };

/** What compiling one item produced, for the main thread to merge. */
export interface BuiltItem {
  /** Position in `ShareTask.items`. */
  at: number;
  outcome: ItemOutcome;
  /** Every file of the item as it now is on disk (staged or kept). */
  records: FileRecord[];
  /** The files of `records` this thread staged (the others out/ already holds). */
  staged: string[];
  /** Every item its analysis looked up. */
  lookups: [ItemKind, string][];
}

/**
 * Something other than writing failed while a thread compiled: a stack overflow, a bug in an emitter.
 * `source` is the path of the item being compiled then (null between items: the tools, the
 * whole-build files); the build reports it there (RYE1010) and writes nothing (decisions.md #25).
 */
export class ItemCrash extends Error {
  constructor(readonly source: string | null, readonly detail: string) {
    super(`internal error${source ? ` while compiling ${source}` : ""}: ${detail}`);
  }
}

/** `e` as a one-line reason: its class and message ("RangeError: Maximum call stack size exceeded"). */
export function crashDetail(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message.split("\n")[0]}`;
  return String(e).split("\n")[0]!;
}

/**
 * Runs `compile` with `hooks` wrapped to know the item being compiled (the one `reuse` last left to
 * compile, until `onItem` hands it on), and turns any error but a write failure into an ItemCrash there.
 */
export function guardItems<H extends BuildItemHooks, R>(hooks: H, compile: (hooks: H) => R): R {
  let current = null as SourceFile | null;
  const guarded: H = Object.assign({}, hooks, {
    reuse(src: SourceFile) {
      const r = hooks.reuse?.(src);
      if (!r) current = src;
      return r;
    },
    onItem(src: SourceFile, outcome: ItemOutcome, files: Map<string, string> | null) {
      hooks.onItem(src, outcome, files);
      current = null;
    },
  });
  try {
    return compile(guarded);
  } catch (e) {
    if (e instanceof OutputError || e instanceof ItemCrash) throw e;
    throw new ItemCrash(current?.path ?? null, crashDetail(e));
  }
}

/** Texts read ahead at a time: enough for the reads to run back to back, few enough to hold no memory worth counting. */
const READ_AHEAD = 32;

const SKIPPED: ItemOutcome = { parseDiagnostics: [], diagnostics: [], compiled: false };

/** Compiles the runs of `task.items` this thread claims, handing each item to `onBuilt` as it is done. */
export function compileShare(task: ShareTask, shared: Int32Array, onBuilt: (item: BuiltItem) => void): void {
  // A worker that starts after the other threads claimed every item has nothing to do.
  if (Atomics.load(shared, NEXT_ITEM) >= task.items.length) return;
  const { sources, key, timestamp } = task;
  const position = new Map<SourceFile, number>(task.items.map((i, at) => [sources[i]!, at]));
  const writer = new StagingWriter(task.outDir, task.owned);
  const out = new OutputUpdate(writer, task.trusted);
  const sign = moduleSigner(key, timestamp);
  // Each item is handed on once its files are written, with the ones this thread staged.
  const done = (item: BuiltItem) => {
    item.staged = item.records.filter((r) => writer.staged.has(r[0])).map((r) => r[0]);
    onBuilt(item);
  };
  const batch = key ? new SigningBatch(key, timestamp, (rel, chunks) => writer.writeBytes(rel, chunks), done) : null;
  // A file out/ has never held (a first build): signed in a batch and written as bytes, stat taken from the open file.
  const put = (rel: string, text: string, before: FileRecord[]): FileRecord => {
    const prev = before.find((f) => f[0] === rel);
    if (prev || !batch || !LISTED.test(rel) || task.owned.has(rel)) return out.put(rel, sign(rel, text), prev);
    return batch.file(rel, text);
  };
  const lookups = new LookupLog();
  const isError = (x: Diagnostic) => x.severity === "error";
  let from = 0;
  let to = 0;
  // Items are reached in increasing position, and each claim starts past every earlier one.
  const mine = (at: number) => {
    while (at >= to) [from, to] = claim(shared, task);
    return at >= from;
  };
  // The claimed items' texts are read a few at a time, ahead of their compiling (see shared-sources.ts).
  let readTo = 0;
  const readNext = (at: number) => {
    if (at < readTo) return;
    readTo = Math.min(to, at + READ_AHEAD);
    const next: SourceFile[] = [];
    for (let i = at; i < readTo; i++) next.push(sources[task.items[i]!]!);
    readAhead(next);
  };
  try {
    guardItems(
      {
        wholeBuild: false,
        failed: () => Atomics.load(shared, FAILED) === 1,
        reuse(src) {
          const at = position.get(src);
          if (at === undefined || !mine(at)) return SKIPPED;
          readNext(at);
          return undefined;
        },
        onLookup: (src, kind, id) => lookups.add(src, kind, id),
        onItem(src, outcome, files) {
          if (outcome.parseDiagnostics.some(isError) || outcome.diagnostics.some(isError)) Atomics.store(shared, FAILED, 1);
          const at = position.get(src)!;
          const before = task.before[at]!;
          const records = files ? [...files].map(([rel, text]) => put(rel, text, before)) : [];
          const item = { at, outcome, records, staged: [], lookups: lookups.take(src) };
          if (batch) batch.item(item);
          else done(item);
        },
      },
      (items) => build(sources, task.version, { hookConfig: task.hookConfig, emitTs: task.emitTs, items }),
    );
    batch?.flush();
  } finally {
    dropReadAhead();
  }
}

/** The next run of items for this thread, as [from, to) positions; [∞, ∞) once every item is claimed. */
export function claim(shared: Int32Array, task: Pick<ShareTask, "items" | "chunk" | "threads">): [number, number] {
  const total = task.items.length;
  for (;;) {
    const from = Atomics.load(shared, NEXT_ITEM);
    if (from >= total) return [Infinity, Infinity];
    const to = Math.min(total, from + Math.max(task.chunk, Math.ceil((total - from) / (2 * task.threads))));
    if (Atomics.compareExchange(shared, NEXT_ITEM, from, to) === from) return [from, to];
  }
}
