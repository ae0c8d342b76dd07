// One `rye test` run from start to exit code: read and check the test files, load the items the
// chosen way, run the selected cases and write the report. The CLI command only parses flags.
import { relative, resolve } from "node:path";
import type { SourceFile } from "../model/source.js";
import { sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { formatDiagnostic, formatSummary } from "../diagnostics/format.js";
import { IntegrityError } from "../verify/integrity-error.js";
import { Unreadable } from "../project/read-regular.js";
import { PathRefused, writeOutputFile } from "./snapshot-files.js";
import { checkCases } from "./check-cases.js";
import { loadTestFiles } from "./load-cases.js";
import { loadBundle } from "./load-bundle.js";
import { loadInMemory } from "./load-in-memory.js";
import { loadOutput } from "./load-output.js";
import { humanReport } from "./reporters/human.js";
import { jsonReport } from "./reporters/json.js";
import { junitReport } from "./reporters/junit.js";
import { tapReport } from "./reporters/tap.js";
import { runTests, type Report, type Selection } from "./run-tests.js";
import { catalogOf, type Targets } from "./targets.js";
import { projectToolRunner } from "./tool-run-options.js";
import { obsoleteSnapshots, removeSnapshots } from "./obsolete-snapshots.js";
import { coverageOf, coverageText, type Coverage } from "./coverage.js";

export const REPORTERS = ["human", "json", "junit", "tap"] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** Where the items come from: the sources compiled in memory, built output, or a bundle. */
export type TestSource = { kind: "sources" } | { kind: "out"; dir: string } | { kind: "bundle"; path: string; label: string };

/** The project's items as read from its spaces (compiled in memory, and scanned for coverage). */
export type ReadProject = () => { sources: SourceFile[]; hookConfig: { path: string; text: string } | null; diagnostics: Diagnostic[] };

export interface SessionOptions {
  root: string;
  userSpace: string;
  source: TestSource;
  readProject: ReadProject;
  trustedKeys: readonly string[];
  selection: Selection;
  reporter: ReporterName;
  outputFile?: string;
  update: boolean;
  ci: boolean;
  runTools: boolean;
  /** A fixed clock (ms since the epoch), from --now. */
  now?: number;
  coverage: boolean;
  passWithNoTests: boolean;
}

export interface SessionIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  cwd: string;
  env: NodeJS.ProcessEnv;
  color: boolean;
}

/** Runs once; resolves to the exit code: 0 all passed, 1 a case failed (or nothing ran), 2 the tests or flags are wrong. */
export async function runSession(o: SessionOptions, io: SessionIo): Promise<number> {
  const tests = loadTestFiles(o.root);
  const texts = new Map(tests.files.map((f) => [f.path, f.text]));
  const read = { errors: 0 };
  const loaded = await loadTargets(o, io, texts, read);
  if (typeof loaded === "number") return loaded;
  try {
    const problems = sortDiagnostics([...tests.diagnostics, ...checkCases(tests.files, catalogOf(loaded))]);
    printDiagnostics(problems, texts, o, io);
    if (problems.some((d) => d.severity === "error")) {
      io.stderr.write(`${formatSummary(problems)} No case ran: the test files must check cleanly first.\n`);
      return 2;
    }
    const clock = o.now === undefined ? () => performance.timeOrigin + performance.now() : () => o.now!;
    const report = await runTests(tests.files, loaded, o.selection, { snapshots: { root: o.root, update: o.update, ci: o.ci }, runTools: o.runTools, clock });
    const obsoleteRefused = reportObsolete(tests.files, o, io);
    const coverage = o.coverage ? coverageOf(report, loaded, tests.files, o.selection, o.readProject().sources) : undefined;
    if (!writeReport(report, coverage, o, io)) return 2;
    if (report.counts.total === 0 && !o.passWithNoTests) {
      io.stderr.write(`No test case ${tests.files.length === 0 ? "found in .ai/tests/" : "matched the filters"} (--pass-with-no-tests makes that a pass).\n`);
      return 1;
    }
    // A project rye build refuses must not pass its test gate either.
    if (read.errors > 0) io.stderr.write(`${read.errors} error${read.errors === 1 ? "" : "s"} reading or compiling the project (above): rye test fails, as rye build does.\n`);
    return report.counts.failed > 0 || read.errors > 0 || obsoleteRefused ? 1 : 0;
  } finally {
    loaded.dispose();
  }
}

async function loadTargets(o: SessionOptions, io: SessionIo, texts: Map<string, string>, read: { errors: number }): Promise<Targets | number> {
  const trust = { trustedKeys: o.trustedKeys, cwd: io.cwd, env: io.env };
  try {
    if (o.source.kind === "bundle") return await loadBundle(o.source.path, o.source.label, { ...trust, project: o.root });
    const place = { project: o.root, userSpace: o.userSpace, ...trust };
    if (o.source.kind === "out") return { ...(await loadOutput(o.source.dir, trust)), runTool: projectToolRunner(place) };
    const project = o.readProject();
    for (const s of project.sources) texts.set(s.path, s.text.replace(/\r\n?/g, "\n"));
    const { targets, diagnostics } = await loadInMemory(project.sources, project.hookConfig);
    // Warnings are the build's to report; errors explain why an item's cases cannot run, and fail the run.
    const errors = [...project.diagnostics, ...diagnostics].filter((d) => d.severity === "error");
    printDiagnostics(errors, texts, o, io);
    read.errors = errors.length;
    return { ...targets, runTool: projectToolRunner(place) };
  } catch (e) {
    // The verifying loader's refusal comes from its hooks thread as an error named IntegrityError, not an instance of the class here.
    if (e instanceof IntegrityError || (e instanceof Error && e.name === "IntegrityError")) {
      io.stderr.write(`IntegrityError: ${e.message}\nNo case ran.\n`);
      return 1;
    }
    if (e instanceof Unreadable) {
      io.stderr.write(`rye test: ${e.path}: ${e.reason}\nNo case ran.\n`);
      return 2;
    }
    if (e instanceof Error && /^No build output/.test(e.message)) {
      io.stderr.write(`${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

/** Only a run of every case knows which snapshots are unused; --update removes them. True when a path was refused. */
function reportObsolete(files: Parameters<typeof obsoleteSnapshots>[1], o: SessionOptions, io: SessionIo): boolean {
  if (o.selection.filters.length > 0 || o.selection.pattern !== null) return false;
  try {
    const unused = obsoleteSnapshots(o.root, files);
    if (unused.length === 0) return false;
    if (o.update) removeSnapshots(o.root, unused);
    const what = o.update ? "removed" : "no case uses them (rye test --update removes them)";
    io.stderr.write(`Obsolete snapshots, ${what}:\n${unused.map((u) => `  ${u}\n`).join("")}`);
    return false;
  } catch (e) {
    if (!(e instanceof PathRefused)) throw e;
    io.stderr.write(`error: refused: ${e.message} (under ${o.root})\nNo obsolete snapshot was ${o.update ? "removed" : "listed"}.\n`);
    return true;
  }
}

function printDiagnostics(ds: readonly Diagnostic[], texts: ReadonlyMap<string, string>, o: SessionOptions, io: SessionIo): void {
  const display = (source: string) => relative(io.cwd, resolve(o.root, source)) || source;
  for (const d of ds) io.stderr.write(`${formatDiagnostic(d, { color: io.color, sources: texts, displayPath: display })}\n`);
}

/** False (after saying why) when the --output-file path is refused. */
function writeReport(report: Report, coverage: Coverage | undefined, o: SessionOptions, io: SessionIo): boolean {
  const text =
    o.reporter === "json" ? jsonReport(report, coverage ? { coverage } : {})
    : o.reporter === "junit" ? junitReport(report)
    : o.reporter === "tap" ? tapReport(report)
    : humanReport(report, io.color && o.outputFile === undefined);
  const human = o.reporter === "human" ? text : humanReport(report, io.color);
  if (o.outputFile !== undefined) {
    try {
      writeOutputFile(resolve(io.cwd, o.outputFile), text, o.root);
    } catch (e) {
      if (!(e instanceof PathRefused)) throw e;
      io.stderr.write(`error: --output-file ${o.outputFile}: refused: ${e.message}\n`);
      return false;
    }
    io.stdout.write(human);
  } else io.stdout.write(text);
  // Coverage goes to stderr beside a machine-readable report on stdout, so stdout stays one document.
  if (coverage && o.reporter !== "json") (o.reporter === "human" || o.outputFile !== undefined ? io.stdout : io.stderr).write(coverageText(coverage));
  return true;
}
