// The main thread's heap in a parallel build. V8 lets a heap grow between full collections by a
// factor tied to its limit, 4× with node's default limit, and the main thread's limit cannot be set
// from inside the process (workers get theirs: workerOldGenerationMb). In about one cold 10k build
// in five, the main thread's heap grew to ~200 MB committed before V8 collected it, at the end of
// the parallel phase, where the process peaks (docs/performance.md, "Peak RSS"). The main thread
// instead collects when its heap has doubled since the last collection, looked at between items:
// once or twice in a cold 10k build. It collects once more when the workers are done: their heaps
// are given back as they exit, and what the main thread makes next (the registry, the manifest and
// the cache, ~60 MB of large strings at 10k) then starts from a heap holding only what is live
// instead of raising the peak by another 10–25 MB.
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Below this much used heap the main thread leaves collection to V8. */
const FLOOR_BYTES = 48 * 1024 * 1024;
/** Items between two looks at the heap (a look costs a few microseconds). */
const EVERY = 32;

export interface HeapBudgetHooks {
  /** Bytes of heap in use. */
  used(): number;
  /** A full collection; none when the process cannot ask for one. */
  collect: (() => void) | null;
}

export interface HeapBudget {
  /** Call after each item this thread builds: collects when the heap has doubled since the last collection. */
  item(): void;
  /** Call when the other threads are done: collects now. */
  settle(): void;
}

/** The main thread's heap budget for one parallel phase (see above). */
export function heapBudget(hooks: HeapBudgetHooks = { used: usedHeap, collect: fullCollection() }): HeapBudget {
  const collect = hooks.collect;
  if (!collect) return { item: () => {}, settle: () => {} };
  let base = Math.max(hooks.used(), FLOOR_BYTES);
  let items = 0;
  const now = () => {
    collect();
    base = Math.max(hooks.used(), FLOOR_BYTES);
  };
  return {
    item: () => {
      if (++items % EVERY === 0 && hooks.used() > 2 * base) now();
    },
    settle: now,
  };
}

function usedHeap(): number {
  return getHeapStatistics().used_heap_size;
}

let found: (() => void) | null | undefined;

/**
 * V8's full collection, as `gc` of a context made while `--expose-gc` is set; the flag is cleared at
 * once, so no context or worker made later gets a `gc` global (one node started with it keeps its own).
 */
export function fullCollection(): (() => void) | null {
  if (found !== undefined) return found;
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === "function") return (found = own as () => void);
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    found = typeof gc === "function" ? (gc as () => void) : null;
  } catch {
    found = null;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
  return found;
}
