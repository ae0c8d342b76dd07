// What `rye build` prints once a build has run, or once the up-to-date stamp answered for it: the
// diagnostics with code frames, then one summary line (or the --json report). Kept apart from the
// build engine so a no-op build prints without loading it.
import { relative, resolve } from "node:path";
import type { SourceFile } from "../../model/source.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { formatDiagnostic, formatGithubAnnotation, formatSummary, type FormatOptions } from "../../diagnostics/format.js";
import { VERSION } from "../../version.js";
import type { Io } from "../io.js";
import { useColor } from "../io.js";

/** The parts of a build's result its report shows. */
export interface BuildOutcome {
  sources: SourceFile[];
  diagnostics: Diagnostic[];
  compiled: string[];
  directives: number;
  written: number;
  refused?: boolean;
  /** Threads the build compiled on (more than one: workers were used). */
  threads?: number;
  /** The source at a path, when the build keeps them by path: the report then looks up only the cited ones. */
  sourceAt?: (path: string) => SourceFile | undefined;
}

export interface ReportOptions {
  project: string;
  outDir: string;
  json: boolean;
  /** In a watch cycle the summary line starts with the time, and --json is one line with the time. */
  watching: boolean;
  verbose: boolean;
  /** How long the build took. */
  ms: number;
}

/** The local time of day a watch cycle ended, as tsc --watch prints it. */
export const clock = (now: Date) => `[${now.toTimeString().slice(0, 8)}]`;

/** Prints a build's report; returns the exit code of `rye build`. */
export function reportBuild(built: BuildOutcome, o: ReportOptions, io: Io): number {
  const { diagnostics, compiled } = built;
  // Hundreds of diagnostics point into far fewer files: each path is worked out once.
  const displayed = new Map<string, string>();
  const display = (source: string) => {
    let shown = displayed.get(source);
    if (shown === undefined) displayed.set(source, (shown = relative(io.cwd, resolve(o.project, source)) || source));
    return shown;
  };
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  const now = new Date();
  const outName = relative(io.cwd, o.outDir) || ".";
  if (o.json) {
    const report = {
      ...(o.watching ? { time: now.toISOString() } : {}),
      version: VERSION,
      outDir: outName,
      errors,
      warnings,
      directives: built.directives,
      compiled,
      diagnostics: diagnostics.map((d) => withDisplay(d, display)),
    };
    io.stdout.write(`${o.watching ? JSON.stringify(report) : JSON.stringify(report, null, 2)}\n`);
    return errors > 0 ? 1 : 0;
  }
  const stamp = o.watching ? `${clock(now)} ` : "";
  writeDiagnostics(built, { project: o.project, verbose: o.verbose }, io, display);
  if (built.refused) io.stderr.write(`${stamp}--verify-sources failed: nothing was written to ${outName}.\n`);
  else if (errors > 0) {
    io.stdout.write(`${stamp}${compiled.length} of ${built.directives} directives compiled without errors; ${outName} was left unchanged (a build with errors writes nothing).\n`);
  } else {
    const threads = (built.threads ?? 1) > 1 ? ` on ${built.threads} threads` : "";
    io.stdout.write(`${stamp}Compiled ${compiled.length} of ${built.directives} directives to ${outName} in ${Math.round(o.ms)} ms${threads} (${built.written} files written).\n`);
  }
  return errors > 0 ? 1 : 0;
}

/**
 * Prints diagnostics as tsc does (code frames from the cited sources only), then a summary line;
 * on GitHub Actions also as annotations. Info diagnostics are printed with `verbose` only.
 */
export function writeDiagnostics(
  built: Pick<BuildOutcome, "sources" | "diagnostics" | "sourceAt">,
  o: { project: string; verbose: boolean },
  io: Io,
  display: (source: string) => string = (source) => relative(io.cwd, resolve(o.project, source)) || source,
): void {
  const { diagnostics, sources } = built;
  const cited = new Set(diagnostics.map((d) => d.loc?.source));
  const citedSources = built.sourceAt ? [...cited].flatMap((p) => (p === undefined ? [] : (built.sourceAt!(p) ?? []))) : sources.filter((s) => cited.has(s.path));
  const sourcesByPath = new Map(citedSources.flatMap((s) => {
    const text = frameText(s);
    return text === undefined ? [] : [[s.path, text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text] as const];
  }));
  const color = useColor(io);
  const shown = o.verbose ? diagnostics : diagnostics.filter((d) => d.severity !== "info");
  // One write for the whole report: a no-op build repeats hundreds of stored warnings.
  const report = shown.map((d) => `${formatted(d, { color, sources: sourcesByPath, displayPath: display })}\n`);
  const summary = formatSummary(shown);
  if (summary) report.push(`${summary}\n`);
  if (report.length > 0) io.stderr.write(report.join(""));
  if (io.env.GITHUB_ACTIONS === "true" && shown.length > 0) io.stdout.write(shown.map((d) => `${formatGithubAnnotation(d, display)}\n`).join(""));
}

// A watch cycle reprints every diagnostic, and most are the same objects as the cycle before (the
// items that did not change): each keeps its text while what it was formatted from stays the same.
const lastFormatted = new WeakMap<Diagnostic, { text: string | undefined; color: boolean; path: string | undefined; out: string }>();

function formatted(d: Diagnostic, opts: Required<FormatOptions>): string {
  const text = d.loc ? opts.sources.get(d.loc.source) : undefined;
  const path = d.loc && opts.displayPath(d.loc.source);
  const last = lastFormatted.get(d);
  if (last && last.text === text && last.color === opts.color && last.path === path) return last.out;
  const out = formatDiagnostic(d, opts);
  lastFormatted.set(d, { text, color: opts.color, path, out });
  return out;
}

export function withDisplay(d: Diagnostic, display: (s: string) => string): Diagnostic {
  return d.loc ? { ...d, loc: { ...d.loc, source: display(d.loc.source) } } : d;
}

/** A source's text for code frames; none (the diagnostic is printed without a frame) when a file read again no longer matches (shared-sources.ts). */
function frameText(src: SourceFile): string | undefined {
  try {
    return src.text;
  } catch {
    return undefined;
  }
}
