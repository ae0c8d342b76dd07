// How the threads of a parallel build divide the items (compile-share.ts): every item claimed by
// exactly one thread, in runs of consecutive positions, long at first (an item's neighbours, which
// it mostly looks up, are then compiled on the same thread) and down to `chunk` at the end.
import { describe, expect, test } from "vitest";
import { claim, NEXT_ITEM, SHARED_SLOTS } from "../../src/builder/compile-share.js";

function runs(total: number, threads: number, chunk: number): [number, number][] {
  const shared = new Int32Array(new SharedArrayBuffer(SHARED_SLOTS * 4));
  const task = { items: Array.from({ length: total }, (_, i) => i), chunk, threads };
  const out: [number, number][] = [];
  for (let run = claim(shared, task); run[0] !== Infinity; run = claim(shared, task)) out.push(run);
  expect(claim(shared, task)).toEqual([Infinity, Infinity]);
  expect(Atomics.load(shared, NEXT_ITEM)).toBe(total);
  return out;
}

describe("claiming items", () => {
  test("covers every position once, in order, with runs that shrink to the chunk", () => {
    const got = runs(10_000, 2, 32);
    expect(got[0]).toEqual([0, 2500]);
    expect(got[1]).toEqual([2500, 4375]);
    got.forEach(([from, to], i) => {
      expect(from).toBe(i === 0 ? 0 : got[i - 1]![1]);
      expect(to).toBeGreaterThan(from);
      if (to < 10_000) expect(to - from).toBeGreaterThanOrEqual(32);
      if (i > 0) expect(to - from).toBeLessThanOrEqual(got[i - 1]![1] - got[i - 1]![0]);
    });
    expect(got.at(-1)![1]).toBe(10_000);
    // The last runs are the chunk: the threads finish within one chunk of each other.
    expect(got.at(-2)![1] - got.at(-2)![0]).toBe(32);
  });

  test("gives each of more threads a smaller first run, and a short project runs of the chunk", () => {
    expect(runs(10_000, 4, 32)[0]).toEqual([0, 1250]);
    expect(runs(100, 2, 32)).toEqual([[0, 32], [32, 64], [64, 96], [96, 100]]);
    expect(runs(0, 2, 32)).toEqual([]);
  });
});
