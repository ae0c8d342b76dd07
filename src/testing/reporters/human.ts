// The report a person reads in a terminal: one line per case, each failure under its case with
// where its expectation is written, then the counts.
import type { Report } from "../run-tests.js";
import { at, fullName } from "./names.js";

const paint = (on: boolean, code: number, s: string) => (on ? `\u001b[${code}m${s}\u001b[39m` : s);

export function humanReport(report: Report, color: boolean): string {
  const lines: string[] = [];
  for (const r of report.results) {
    const time = r.durationMs >= 1 ? ` (${Math.round(r.durationMs)} ms)` : "";
    if (r.status === "passed") lines.push(`${paint(color, 32, "✓")} ${fullName(r)}${time}`);
    else if (r.status === "skipped") lines.push(`${paint(color, 33, "↓")} ${fullName(r)} ${paint(color, 90, `[skipped: ${r.reason}]`)}`);
    else {
      lines.push(`${paint(color, 31, "✗")} ${fullName(r)}${time}`);
      for (const f of r.failures) {
        lines.push(`    ${paint(color, 36, at(f.loc))} ${f.field}: ${f.message.split("\n").join("\n      ")}`);
      }
    }
  }
  const { passed, failed, skipped, total } = report.counts;
  const parts = [`${passed} passed`, ...(failed ? [paint(color, 31, `${failed} failed`)] : []), ...(skipped ? [`${skipped} skipped`] : [])];
  lines.push("", `Tests: ${parts.join(", ")} (${total})`);
  const { written, updated } = report.snapshots;
  if (written || updated) lines.push(`Snapshots: ${[written ? `${written} written` : "", updated ? `${updated} updated` : ""].filter(Boolean).join(", ")}`);
  return `${lines.join("\n")}\n`;
}
