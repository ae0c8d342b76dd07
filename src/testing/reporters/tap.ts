// TAP version 14: a plan, one test point per case, a YAML diagnostic block under each failure.
import type { Report } from "../run-tests.js";
import { at, fullName } from "./names.js";

/** A TAP description cannot hold `#` unescaped (it starts a directive) or a line break. */
const description = (s: string) => s.replace(/\\/g, "\\\\").replace(/#/g, "\\#").replace(/\s*\n\s*/g, " ");

export function tapReport(report: Report): string {
  const lines = ["TAP version 14", `1..${report.results.length}`];
  report.results.forEach((r, i) => {
    const name = `${i + 1} - ${description(fullName(r))}`;
    if (r.status === "passed") lines.push(`ok ${name}`);
    else if (r.status === "skipped") lines.push(`ok ${name} # SKIP ${description(r.reason ?? "")}`);
    else {
      lines.push(`not ok ${name}`, "  ---");
      lines.push(`  at: ${JSON.stringify(at(r.test.loc))}`, "  failures:");
      for (const f of r.failures) lines.push(`    - field: ${JSON.stringify(f.field)}`, `      at: ${JSON.stringify(at(f.loc))}`, `      message: ${JSON.stringify(f.message)}`);
      lines.push("  ...");
    }
  });
  return `${lines.join("\n")}\n`;
}
