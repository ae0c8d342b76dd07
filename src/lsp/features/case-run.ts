// One `rye.test` run of a test file: the project's sources compiled in memory, the file's cases run
// against them as `rye test` runs them (dry runs only: a lens never runs a tool for real). Kept apart
// from the server so that a worker thread can run it: modules evaluated there are freed when the
// worker ends, where a server that evaluated them itself would keep every run's modules for good.
import type { SourceFile } from "../../model/source.js";
import { checkCases } from "../../testing/check-cases.js";
import { loadInMemory } from "../../testing/load-in-memory.js";
import { parseTestFile } from "../../testing/load-cases.js";
import { humanReport } from "../../testing/reporters/human.js";
import { runTests } from "../../testing/run-tests.js";
import { catalogOf } from "../../testing/targets.js";
import type { ItemKind } from "../../model/source.js";
import { projectToolRunner } from "../../testing/tool-run-options.js";

/** Everything a run needs, as plain data (it crosses to a worker thread). */
export interface CaseRunRequest {
  uri: string;
  root: string;
  userSpace: string;
  test: { kind: ItemKind; id: string; path: string; text: string };
  only: string | undefined;
  sources: SourceFile[];
  hookConfig: { path: string; text: string } | null;
}

/** One case's outcome as the editor shows it; lines are 0-based, as LSP counts them. */
export interface CaseOutcome {
  name: string;
  line: number;
  status: "passed" | "failed" | "skipped";
  reason?: string;
  failures: { field: string; message: string; line: number }[];
}

/** The answer to `rye.test`: "invalid" when the file does not check, and no case ran. */
export interface TestRun {
  uri: string;
  status: "passed" | "failed" | "invalid";
  counts: { passed: number; failed: number; skipped: number; total: number };
  cases: CaseOutcome[];
  /** The problems that stopped the run (status "invalid"). */
  problems: { code: string; message: string; line: number }[];
  /** The run as `rye test` prints it. */
  text: string;
}

const ZERO = { passed: 0, failed: 0, skipped: 0, total: 0 };

export async function runCases(req: CaseRunRequest): Promise<TestRun> {
  const { uri } = req;
  const read = parseTestFile(req.test.kind, req.test.id, req.test.path, req.test.text);
  const file = req.only === undefined ? read.file : { ...read.file, cases: read.file.cases.filter((c) => c.name === req.only) };
  if (file.cases.length === 0 && req.only !== undefined) {
    const message = `no case is named '${req.only}' in ${file.path} now`;
    return { uri, status: "invalid", counts: ZERO, cases: [], problems: [{ code: "", message, line: 0 }], text: `${message}\n` };
  }
  const { targets } = await loadInMemory(req.sources, req.hookConfig);
  try {
    const problems = [...read.diagnostics, ...checkCases([file], catalogOf(targets))].filter((d) => d.severity === "error");
    if (problems.length > 0) {
      const listed = problems.map((d) => ({ code: d.code, message: d.message, line: (d.loc?.start.line ?? 1) - 1 }));
      return { uri, status: "invalid", counts: ZERO, cases: [], problems: listed, text: listed.map((p) => `${file.path}:${p.line + 1}: ${p.code} ${p.message}`).join("\n") + "\nNo case ran: the test file must check cleanly first.\n" };
    }
    const place = { project: req.root, userSpace: req.userSpace, trustedKeys: [], cwd: req.root, env: process.env };
    const report = await runTests([file], { ...targets, runTool: projectToolRunner(place) }, { filters: [], pattern: null }, { snapshots: { root: req.root, update: false, ci: true }, runTools: false, clock: () => performance.timeOrigin + performance.now() });
    const cases = report.results.map((r) => ({ name: r.test.name, line: r.test.loc.start.line - 1, status: r.status, ...(r.reason ? { reason: r.reason } : {}), failures: r.failures.map((f) => ({ field: f.field, message: f.message, line: f.loc.start.line - 1 })) }));
    return { uri, status: report.counts.failed > 0 ? "failed" : "passed", counts: report.counts, cases, problems: [], text: humanReport(report, false) };
  } finally {
    targets.dispose();
  }
}
