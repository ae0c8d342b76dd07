// The main thread of a parallel build collects its heap itself when it has doubled since the last
// collection, and once when the workers are done (heap-budget.ts): never more often, and without
// leaving a `gc` global behind.
import { runInNewContext } from "node:vm";
import { Worker } from "node:worker_threads";
import { describe, expect, test } from "vitest";
import { fullCollection, heapBudget } from "../../src/builder/heap-budget.js";

const MB = 1024 * 1024;

/** A heap whose use the test sets, and the collections asked for. */
function fakeHeap(start: number, afterCollection: number) {
  const heap = { used: start, collections: 0 };
  const budget = heapBudget({ used: () => heap.used, collect: () => ((heap.collections += 1), (heap.used = afterCollection)) });
  const items = (n: number) => {
    for (let i = 0; i < n; i++) budget.item();
  };
  return { heap, items, budget };
}

describe("the main thread's heap budget", () => {
  test("collects once the heap is past twice its size after the last collection, looking every 32 items", () => {
    const { heap, items } = fakeHeap(60 * MB, 70 * MB);
    heap.used = 120 * MB;
    items(64);
    expect(heap.collections).toBe(0);
    heap.used = 121 * MB;
    items(31);
    expect(heap.collections).toBe(0);
    items(1);
    expect(heap.collections).toBe(1);
    // The next threshold is twice what was left (70 MB): 140 MB.
    heap.used = 139 * MB;
    items(320);
    expect(heap.collections).toBe(1);
    heap.used = 141 * MB;
    items(32);
    expect(heap.collections).toBe(2);
  });

  test("leaves a small heap to V8: the threshold is never below 96 MB", () => {
    const { heap, items } = fakeHeap(5 * MB, 5 * MB);
    heap.used = 95 * MB;
    items(3200);
    expect(heap.collections).toBe(0);
    heap.used = 97 * MB;
    items(32);
    expect(heap.collections).toBe(1);
  });

  test("collects when the other threads are done, and counts from what that left", () => {
    const { heap, items, budget } = fakeHeap(60 * MB, 50 * MB);
    heap.used = 80 * MB;
    budget.settle();
    expect(heap.collections).toBe(1);
    heap.used = 101 * MB;
    items(32);
    expect(heap.collections).toBe(2);
  });

  test("does nothing where no collection can be asked for", () => {
    let looked = 0;
    const budget = heapBudget({ used: () => (looked++, 1e12), collect: null });
    for (let i = 0; i < 100; i++) budget.item();
    budget.settle();
    expect(looked).toBe(0);
  });

  test("finds V8's full collection without exposing `gc` to contexts or workers made later", async () => {
    const had = typeof (globalThis as { gc?: unknown }).gc === "function";
    const gc = fullCollection();
    expect(typeof gc).toBe("function");
    gc!();
    if (had) return;
    expect(runInNewContext("typeof gc")).toBe("undefined");
    const worker = new Worker("require('node:worker_threads').parentPort.postMessage(typeof gc)", { eval: true });
    const seen = await new Promise((resolve, reject) => worker.once("message", resolve).once("error", reject));
    await worker.terminate();
    expect(seen).toBe("undefined");
  });
});
