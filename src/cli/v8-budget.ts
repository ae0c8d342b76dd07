import { createRequire } from "node:module";

// Most runs of the CLI last well under a second: V8's optimizing compiler, started at its default
// budget, spends more (on background threads, on the same few cores) than it saves there. Eight
// times the default budget leaves it to the code that stays hot in long builds (docs/performance.md).
// A build answered from the up-to-date stamp is the exception: its one hot loop (a stat of every
// source) gains from early optimisation, so `rye build` asks for this only when it builds. Such a
// build does not load node:v8 either (measured: ~4.5 ms of CPU to load).

/** Raises V8's tier-up budget for a run that compiles, verifies or bundles (see above). */
export function tuneForLongRun(): void {
  const v8 = createRequire(import.meta.url)("node:v8") as typeof import("node:v8");
  v8.setFlagsFromString("--interrupt-budget=540672");
}
