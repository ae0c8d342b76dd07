// The main thread's heap in a parallel build. V8 lets a heap grow between full collections by a
// factor tied to its limit, 4× with node's default limit, and the main thread's limit cannot be set
// from inside the process (workers get theirs: workerOldGenerationMb). In about one cold 10k build
// in five, the main thread's heap grew to ~200 MB committed before V8 collected it, at the end of
// the parallel phase, where the process peaks (docs/performance.md, "Peak RSS"). The main thread
// instead collects when its heap has doubled since the last collection, looked at between items:
// once or twice in a cold 10k build.
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

/** Returns what to call after each item this thread builds: it collects when the heap has doubled since the last collection. */
export function heapBudget(hooks: HeapBudgetHooks = { used: usedHeap, collect: fullCollection() }): () => void {
  const collect = hooks.collect;
  if (!collect) return () => {};
  let base = Math.max(hooks.used(), FLOOR_BYTES);
  let items = 0;
  return () => {
    if (++items % EVERY !== 0 || hooks.used() <= 2 * base) return;
    collect();
    base = Math.max(hooks.used(), FLOOR_BYTES);
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
