// Lists every skipped test at the end of a run, file by file, with the reason: a test that can
// skip names its reason in its title (../shared absent, a program not installed), and a group
// skipped with it is listed under that reason, so a contributor sees what did not run and why.
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** A title that says why it skipped. */
const GIVES_REASON = /\bnot (?:found|installed|available|at)\b|\bskipped[:(]|— skipped|\bunavailable\b/i;

export default class SkipReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    let count = 0;
    for (const m of modules) {
      const names = [...m.children.allTests("skipped")].map((t) => t.fullName);
      if (names.length === 0) continue;
      count += names.length;
      const reasons = names.filter((n) => GIVES_REASON.test(n));
      const rest = names.filter((n) => !GIVES_REASON.test(n));
      lines.push(`  ${relative(process.cwd(), m.moduleId)}: ${reasons.length > 0 ? reasons.join("; ") : "(no reason given)"}`);
      if (rest.length > 0) lines.push(`    with it: ${rest.join("; ")}`);
    }
    if (count === 0) return;
    process.stdout.write(`\nSkipped ${count} test${count === 1 ? "" : "s"}, by file, with the reason:\n${lines.join("\n")}\n`);
  }
}
