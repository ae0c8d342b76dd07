// How reports name a file's item and a case, the same in every format.
import type { CaseResult } from "../case-result.js";

/** `directive examples/greet`. */
export const suiteName = (r: CaseResult) => `${r.file.kind} ${r.file.id}`;

/** `directive examples/greet › greets Ada`. */
export const fullName = (r: CaseResult) => `${suiteName(r)} › ${r.test.name}`;

/** `path:line:column` of a failure or case. */
export const at = (loc: { source: string; start: { line: number; column: number } }) => `${loc.source}:${loc.start.line}:${loc.start.column}`;

/** The results grouped by test file, in run order. */
export function bySuite(results: readonly CaseResult[]): [string, CaseResult[]][] {
  const groups = new Map<string, CaseResult[]>();
  for (const r of results) {
    const key = suiteName(r);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(r);
  }
  return [...groups];
}
