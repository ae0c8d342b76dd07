// An OutputFs that fails on purpose: the n-th operation (of a kind) throws a given errno, or a
// "crash" after which every operation throws too, as if the process had been killed right there.
import { realFs, type OutputFs } from "../../src/output/output-fs.js";

export class Crash extends Error {}

export interface Faults {
  fs: OutputFs;
  /** Operations performed so far. */
  readonly count: number;
}

/** Fails operation number `at` (1-based, counting only `ops` when given) with `errno`, or crashes there. */
export function faultyFs(at: number, failure: { errno: string } | "crash", ops?: (keyof OutputFs)[]): Faults {
  let count = 0;
  let dead = false;
  const wrap = <K extends keyof OutputFs>(name: K): OutputFs[K] =>
    ((...args: unknown[]) => {
      if (dead) throw new Crash("process is gone");
      if (!ops || ops.includes(name)) {
        count++;
        if (count === at) {
          if (failure === "crash") {
            dead = true;
            throw new Crash(`killed at ${name} #${at}`);
          }
          throw Object.assign(new Error(`${failure.errno}: injected`), { code: failure.errno });
        }
      }
      return (realFs[name] as (...a: unknown[]) => unknown)(...args);
    }) as OutputFs[K];
  const fs = Object.fromEntries((Object.keys(realFs) as (keyof OutputFs)[]).map((k) => [k, wrap(k)])) as unknown as OutputFs;
  return {
    fs,
    get count() {
      return count;
    },
  };
}
