// A whole run: the selected cases of the checked test files against the loaded targets.
import type { CaseResult } from "./case-result.js";
import { runCase, type RunOptions } from "./run-case.js";
import { casesSelected, fileSelected } from "./select.js";
import type { Targets } from "./targets.js";
import type { Pattern, TestFile } from "./test-file.js";

export interface Selection {
  /** Item ids, `kind:id`, folders (`examples/`) or globs. */
  filters: readonly string[];
  /** Case names (-t), as a regular expression run by the linear-time matcher. */
  pattern: Pattern | null;
}

export interface Report {
  results: CaseResult[];
  /** ISO 8601, from the run's clock. */
  startedAt: string;
  durationMs: number;
  counts: { passed: number; failed: number; skipped: number; total: number };
  snapshots: { written: number; updated: number };
}

/** Runs every selected case, file by file, case by case; `only: true` anywhere narrows the run to those cases. */
export async function runTests(files: readonly TestFile[], targets: Targets, selection: Selection, options: RunOptions): Promise<Report> {
  const started = options.clock();
  const chosen = files.filter((f) => fileSelected(f, selection.filters)).map((f) => ({ file: f, cases: casesSelected(f, selection.pattern) }));
  const focused = chosen.some((x) => x.cases.some((c) => c.only));
  const results: CaseResult[] = [];
  for (const { file, cases } of chosen) {
    for (const c of cases) {
      if (focused && !c.only) results.push({ file, test: c, status: "skipped", reason: "another case is marked only: true", failures: [], durationMs: 0, snapshots: { written: 0, updated: 0 }, given: [], thread: false });
      else results.push(await runCase(file, c, targets, options));
    }
  }
  const count = (s: CaseResult["status"]) => results.filter((r) => r.status === s).length;
  const snapshots = { written: 0, updated: 0 };
  for (const r of results) (snapshots.written += r.snapshots.written), (snapshots.updated += r.snapshots.updated);
  return {
    results,
    startedAt: new Date(started).toISOString(),
    durationMs: Math.max(0, options.clock() - started),
    counts: { passed: count("passed"), failed: count("failed"), skipped: count("skipped"), total: results.length },
    snapshots,
  };
}
