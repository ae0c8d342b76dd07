import { codeFrame } from "./code-frame.js";
import type { Diagnostic } from "./diagnostic.js";

export interface FormatOptions {
  color: boolean;
  /** File text by `loc.source`, for code frames; a diagnostic whose source is missing gets no frame. */
  sources: ReadonlyMap<string, string>;
  /** How to print a source path (e.g. relative to the working directory). */
  displayPath?: (source: string) => string;
}

const paint = (on: boolean, code: number, s: string) => (on ? `\u001b[${code}m${s}\u001b[39m` : s);
const SEVERITY_COLOR = { error: 31, warning: 33, info: 36 } as const;

/** One diagnostic in tsc's shape, `path:line:col - error RYE2001: message`, followed by a code frame. */
export function formatDiagnostic(d: Diagnostic, opts: FormatOptions): string {
  const where = d.loc
    ? `${paint(opts.color, 36, (opts.displayPath ?? String)(d.loc.source))}:${paint(opts.color, 33, String(d.loc.start.line))}:${paint(opts.color, 33, String(d.loc.start.column))} - `
    : "";
  let out = `${where}${paint(opts.color, SEVERITY_COLOR[d.severity], d.severity)} ${paint(opts.color, 90, d.code)}: ${d.message}\n`;
  const text = d.loc ? opts.sources.get(d.loc.source) : undefined;
  if (d.loc && text !== undefined) {
    const { start, end } = d.loc;
    const sameLine = end.line === start.line && end.column > start.column;
    const frame = codeFrame(text, start.line, start.column, sameLine ? end.column : undefined);
    out += `\n${opts.color ? frame.replace(/\^+/g, (m) => paint(true, SEVERITY_COLOR[d.severity], m)) : frame}\n`;
  }
  for (const n of d.notes ?? []) out += `  note: ${n.message}\n`;
  return out;
}

/** The closing line: "Found 2 errors and 1 warning." (or a success line). */
export function formatSummary(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
  if (errors === 0 && warnings === 0) return "";
  return `Found ${plural(errors, "error")} and ${plural(warnings, "warning")}.`;
}

/** A GitHub Actions workflow command, so diagnostics show up on the pull request. */
export function formatGithubAnnotation(d: Diagnostic, displayPath: (s: string) => string): string {
  const kind = d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "notice";
  const esc = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const props = d.loc
    ? ` file=${esc(displayPath(d.loc.source)).replace(/[:,]/g, (c) => (c === ":" ? "%3A" : "%2C"))},line=${d.loc.start.line},col=${d.loc.start.column},endLine=${d.loc.end.line},endColumn=${d.loc.end.column},title=${d.code}`
    : ` title=${d.code}`;
  return `::${kind}${props}::${esc(d.message)}`;
}
