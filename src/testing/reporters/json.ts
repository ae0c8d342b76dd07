// The machine-readable report (`--reporter json`): every case with its status and failures.
import type { Report } from "../run-tests.js";
import { VERSION } from "../../version.js";

export function jsonReport(report: Report, extra: Record<string, unknown> = {}): string {
  const results = report.results.map((r) => ({
    kind: r.file.kind,
    id: r.file.id,
    file: r.file.path,
    name: r.test.name,
    status: r.status,
    durationMs: r.durationMs,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.provenance !== undefined ? { provenance: r.provenance } : {}),
    failures: r.failures.map((f) => ({ field: f.field, message: f.message, file: f.loc.source, line: f.loc.start.line, column: f.loc.start.column })),
  }));
  return `${JSON.stringify({ tool: "rye test", version: VERSION, startedAt: report.startedAt, durationMs: report.durationMs, counts: report.counts, snapshots: report.snapshots, results, ...extra }, null, 2)}\n`;
}
