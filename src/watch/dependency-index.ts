// Who depends on whom, kept by a long-lived build (--watch) between rebuilds. Each cached item
// records every item its analysis looked up (its extends parents, the knowledge in its context, the
// directives and tools it calls); this index turns those records around, so a rebuild finds the
// items a change can affect by walking from the changed sources, and carries every other item over
// without fingerprinting it or its dependencies.
import type { CacheData, ItemRecord } from "../cache/build-cache.js";
import { itemKey } from "../cache/build-cache.js";
import type { SourceFile } from "../model/source.js";

/** What changed between the last committed build and now (see `DependencyIndex.edits`). */
export interface SourceEdits {
  files: [before: SourceFile, after: SourceFile][];
  /** `kind:id` of the items whose files changed. */
  changed: Set<string>;
  /** Those and every item whose analysis looked one of them up. */
  affected: Set<string>;
}

export class DependencyIndex {
  /** `kind:id` of an item → `kind:id` of the items whose analysis looked it up. */
  private readonly dependents = new Map<string, Set<string>>();
  /** The sources and the cache of the last committed build this index describes. */
  private last: { sources: readonly SourceFile[]; cache: CacheData } | null = null;

  /**
   * For a build over `sources` starting from `cache`: a test telling which items are certainly
   * unchanged (neither their own files nor any file of an item they looked up changed), or null
   * when this index does not describe `cache` (then every item is checked by its fingerprints).
   */
  unchangedSince(sources: readonly SourceFile[], cache: CacheData): ((key: string) => boolean) | null {
    if (this.last?.cache !== cache) return null;
    const changed = changedItems(this.last.sources, sources);
    const affected = new Set(changed);
    for (const key of changed) for (const d of this.dependents.get(key) ?? []) affected.add(d);
    return (key) => !affected.has(key);
  }

  /**
   * For a warm rebuild: the files that changed since the last committed build, when every one of
   * them is a new text of the same file (no file added, removed or moved), with the items they
   * belong to and every item that looked one of those up. Null when any file came or went.
   */
  edits(sources: readonly SourceFile[], cache: CacheData): SourceEdits | null {
    const last = this.last;
    if (last?.cache !== cache || last.sources.length !== sources.length) return null;
    const files: [before: SourceFile, after: SourceFile][] = [];
    const changed = new Set<string>();
    for (let i = 0; i < sources.length; i++) {
      const a = last.sources[i]!;
      const b = sources[i]!;
      if (a === b) continue;
      if (a.path !== b.path || a.kind !== b.kind || a.id !== b.id || a.ext !== b.ext || a.space !== b.space) return null;
      files.push([a, b]);
      changed.add(itemKey(a.kind, a.id));
    }
    const affected = new Set(changed);
    for (const key of changed) for (const d of this.dependents.get(key) ?? []) affected.add(d);
    return { files, changed, affected };
  }

  /** Records a committed warm rebuild: the records of `items` were replaced (`before` → the record in `next`). */
  commitEdits(sources: readonly SourceFile[], next: CacheData, items: ReadonlyMap<string, ItemRecord | undefined>): void {
    for (const [key, before] of items) {
      if (before) this.link(key, before, -1);
      const now = next.items[key];
      if (now) this.link(key, now, 1);
    }
    this.last = { sources, cache: next };
  }

  /** Records a committed build: `next` replaced `cache`, built from `sources`. */
  commit(sources: readonly SourceFile[], cache: CacheData, next: CacheData): void {
    if (this.last?.cache !== cache) {
      this.dependents.clear();
      for (const key in next.items) this.link(key, next.items[key]!, 1);
    } else if (next !== cache) {
      for (const key in cache.items) if (next.items[key] !== cache.items[key]) this.link(key, cache.items[key]!, -1);
      for (const key in next.items) if (next.items[key] !== cache.items[key]) this.link(key, next.items[key]!, 1);
    }
    this.last = { sources, cache: next };
  }

  private link(key: string, rec: ItemRecord, sign: 1 | -1): void {
    for (const [kind, id] of rec.deps) {
      const dep = itemKey(kind, id);
      let set = this.dependents.get(dep);
      if (sign < 0) set?.delete(key);
      else {
        if (!set) this.dependents.set(dep, (set = new Set()));
        set.add(key);
      }
    }
  }
}

/**
 * `kind:id` of every item with a file added, removed or changed between two reads. A rereading
 * watcher keeps the objects of unchanged files, so one pass comparing objects finds the changes.
 */
function changedItems(before: readonly SourceFile[], after: readonly SourceFile[]): Set<string> {
  const changed = new Set<string>();
  if (before.length === after.length) {
    for (let i = 0; i < after.length; i++) {
      const a = before[i]!;
      const b = after[i]!;
      if (a === b) continue;
      changed.add(itemKey(a.kind, a.id));
      changed.add(itemKey(b.kind, b.id));
    }
    return changed;
  }
  const kept = new Set(after);
  for (const s of before) if (!kept.has(s)) changed.add(itemKey(s.kind, s.id));
  const was = new Set(before);
  for (const s of after) if (!was.has(s)) changed.add(itemKey(s.kind, s.id));
  return changed;
}
