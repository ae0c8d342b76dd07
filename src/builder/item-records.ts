// A full (not warm) build's bookkeeping per item: which cached items are reused as they are, and
// the cache record of each item compiled here or on a build worker, its files written as it comes.
import type { ItemOutcome } from "../compile/compile-directives.js";
import type { BuildItemHooks } from "../compile/build.js";
import { itemKey, type CacheData, type FileRecord, type Fingerprints, type ItemRecord } from "../cache/build-cache.js";
import type { OutputUpdate } from "../cache/build-cache-write.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import type { ParallelItems } from "./compile-items.js";
import { LookupLog } from "./item-hooks.js";

/** The records of an item the last build did not make: one list for all, so a task posted to build workers carries it once. */
const NO_FILES = Object.freeze([]) as unknown as FileRecord[];

const isError = (x: Diagnostic) => x.severity === "error";

export interface ItemRecordsOptions {
  /** The cache as the last build left it, and the one this build makes. */
  cache: CacheData;
  next: CacheData;
  fps: Fingerprints;
  out: OutputUpdate;
  /** --watch: whether nothing an item read has changed since the last build (it is then carried over unchecked). */
  carried: ((key: string) => boolean) | null;
  sign: (rel: string, text: string) => string;
  /** Project directives and knowledge: what progress counts up to. */
  total: number;
  onProgress?: (done: number, total: number) => void;
  /** An error was reported before any item was compiled (reading, or a source signature). */
  failed: boolean;
}

export class ItemRecords {
  rebuilt = 0;
  reused = 0;
  /** True once the build is known to fail: later items are checked, not emitted. */
  failed: boolean;
  private readonly lookups = new LookupLog();
  /** The records of items built on several threads, made as each arrived (see `arrived`). */
  private readonly made = new Map<SourceFile, ItemRecord>();

  constructor(private readonly o: ItemRecordsOptions) {
    this.failed = o.failed;
  }

  /** The hooks `build` calls for each project item compiled on this thread. */
  hooks(): BuildItemHooks {
    return {
      failed: () => this.failed,
      reuse: (src) => this.reuse(src),
      onLookup: (from, kind, id) => this.lookups.add(from, kind, id),
      onItem: (src, outcome, files) => {
        const before = this.before(src);
        const records = files ? [...files].map(([rel, text]) => this.o.out.put(rel, this.o.sign(rel, text), before.find((f) => f[0] === rel))) : [];
        this.record(src, outcome, records, this.lookups.take(src));
      },
    };
  }

  /** What the build workers report back through (see ParallelItems). */
  parallel(base: Pick<ParallelItems, "jobs" | "workers" | "key" | "timestamp" | "tx" | "trusted">): ParallelItems {
    return {
      ...base,
      before: (src) => this.before(src),
      built: (src, outcome, records, looked) => this.record(src, outcome, records, looked),
      // The record `record` files, made while the threads compile: from what `built` is given for the item.
      arrived: (src, outcome, records, looked) => void this.made.set(src, this.itemRecord(src, outcome, records, looked)),
      progress: (compiled) => this.o.onProgress?.(this.reused + compiled, this.o.total),
    };
  }

  private before(src: SourceFile): FileRecord[] {
    return this.o.cache.items[itemKey(src.kind, src.id)]?.files ?? NO_FILES;
  }

  /** The cached record of an item whose sources and dependencies are unchanged and whose files are intact, else undefined. */
  private reuse(src: SourceFile): ItemRecord | undefined {
    const { cache, fps, out, next } = this.o;
    const k = itemKey(src.kind, src.id);
    const rec = cache.items[k];
    if (!rec || !(this.o.carried?.(k) || (rec.self === fps.of(src.kind, src.id) && rec.deps.every(([kind, id, fp]) => fps.of(kind, id) === fp)))) return undefined;
    // The record itself is carried over when nothing moved, so an unchanged build is cheap to detect.
    let files = rec.files;
    for (let i = 0; i < rec.files.length; i++) {
      const kept = out.intact(rec.files[i]!);
      if (!kept) return undefined;
      if (kept !== rec.files[i]) (files === rec.files ? (files = [...rec.files]) : files)[i] = kept;
    }
    next.items[k] = files === rec.files ? rec : { ...rec, files };
    for (const f of files) out.keep(f[0]);
    this.reused++;
    this.progress();
    return rec;
  }

  /** An item compiled here or on a build worker: its files are written, what it looked up is recorded. */
  private record(src: SourceFile, outcome: ItemOutcome, records: FileRecord[], looked: Iterable<[ItemKind, string]>): void {
    if (outcome.parseDiagnostics.some(isError) || outcome.diagnostics.some(isError)) this.failed = true;
    this.o.next.items[itemKey(src.kind, src.id)] = this.made.get(src) ?? this.itemRecord(src, outcome, records, looked);
    this.rebuilt++;
    this.progress();
  }

  private itemRecord(src: SourceFile, outcome: ItemOutcome, records: FileRecord[], looked: Iterable<[ItemKind, string]>): ItemRecord {
    const { fps } = this.o;
    const deps = [...looked].map(([kind, id]): [ItemKind, string, string] => [kind, id, fps.of(kind, id)]);
    return Object.assign({}, outcome, { self: fps.of(src.kind, src.id), deps, files: records });
  }

  private progress(): void {
    this.o.onProgress?.(this.rebuilt + this.reused, this.o.total);
  }
}
