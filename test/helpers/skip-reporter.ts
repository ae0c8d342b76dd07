// Lists every skipped test at the end of a run, by file, under its full name: each skip names its
// reason (../shared absent, a program not installed), so a contributor sees what did not run and why.
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class SkipReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const m of modules) {
      const file = relative(process.cwd(), m.moduleId);
      for (const t of m.children.allTests("skipped")) lines.push(`  ${file}: ${t.fullName}`);
    }
    if (lines.length === 0) return;
    process.stdout.write(`\nSkipped ${lines.length} test${lines.length === 1 ? "" : "s"}, each with its reason:\n${lines.join("\n")}\n`);
  }
}
