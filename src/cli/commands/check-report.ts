// What `rye build --check` prints: first the diagnostics of the whole check, exactly as a build
// prints them; then, only when the tree has no errors, how out/ differs from what a build would
// write. A tree with errors is never called up to date, whatever out/ holds.
import type { SourceFile } from "../../model/source.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { OutputDrift } from "../../output/check-output.js";
import { VERSION } from "../../version.js";
import type { Io } from "../io.js";
import { withDisplay, writeDiagnostics } from "./build-report.js";
import { relative, resolve } from "node:path";

export interface CheckOutcome {
  sources: SourceFile[];
  diagnostics: Diagnostic[];
  /** How out/ differs; null when errors stopped the check before the comparison. */
  drift: OutputDrift | null;
  compiled: string[];
}

export interface CheckReportOptions {
  project: string;
  outName: string;
  json: boolean;
  verbose: boolean;
}

/** Prints the check; returns its exit code: 1 on any error or any drift, else 0. */
export function reportCheck(check: CheckOutcome, o: CheckReportOptions, io: Io): number {
  const errors = check.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = check.diagnostics.filter((d) => d.severity === "warning").length;
  const lines = check.drift ? driftLines(check.drift, o.outName) : [];
  const upToDate = errors === 0 && lines.length === 0;
  if (o.json) {
    const display = (source: string) => relative(io.cwd, resolve(o.project, source)) || source;
    const report = { version: VERSION, outDir: o.outName, upToDate, errors, warnings, diagnostics: check.diagnostics.map((d) => withDisplay(d, display)), drift: check.drift };
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return upToDate ? 0 : 1;
  }
  writeDiagnostics(check, { project: o.project, verbose: o.verbose }, io);
  if (errors > 0) {
    const noun = errors === 1 ? "error" : "errors";
    io.stderr.write(`rye build --check: ${errors} ${noun} in the sources; ${o.outName} was not compared (a build would write nothing). Fix the ${noun} above.\n`);
    return 1;
  }
  if (lines.length === 0) {
    io.stdout.write(`${o.outName} is up to date.\n`);
    return 0;
  }
  io.stderr.write(`${lines.join("\n")}\n${o.outName} is out of date (${lines.length} files): run rye build.\n`);
  return 1;
}

function driftLines(drift: OutputDrift, outName: string): string[] {
  return [
    ...drift.missing.map((f) => `missing  ${outName}/${f}`),
    ...drift.stale.map((f) => `stale    ${outName}/${f}`),
    ...drift.extra.map((f) => `extra    ${outName}/${f}`),
  ];
}
