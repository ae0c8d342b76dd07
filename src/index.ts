// The compiler as a pure function: sources in, output files and diagnostics out. No I/O here;
// src/cli/ reads the project and writes `out/`.
import { analyzeDirective } from "./analyze/index.js";
import type { DirectiveAnalysis } from "./analyze/analysis.js";
import type { Diagnostic } from "./diagnostics/diagnostic.js";
import { emit } from "./emit/index.js";
import { parseDirective } from "./parse/parse-directive.js";

export type { Diagnostic, Location, Position, Severity } from "./diagnostics/diagnostic.js";
export { parseDirective } from "./parse/parse-directive.js";
export { VERSION } from "./version.js";

/** The kinds of item a project holds, each under its own `.ai/` folder. */
export type ItemKind = "directive" | "knowledge" | "tool";

/** One source item: `path` relative to the project root, `id` its item id (path under `.ai/<kind>/` without extension). */
export interface SourceFile {
  kind: ItemKind;
  id: string;
  path: string;
  /** The file extension, e.g. ".md" or ".py" (defaults to ".md"). */
  ext?: string;
  text: string;
}

export interface BuildResult {
  /** Output-relative path → file text (directive modules and the index). */
  files: Map<string, string>;
  diagnostics: Diagnostic[];
  /** Ids compiled without errors. */
  compiled: string[];
}

/** Compiles directives: parse → analyze → emit. A directive with errors is reported and not emitted. */
export function build(sources: readonly SourceFile[], version: string): BuildResult {
  const diagnostics: Diagnostic[] = [];
  const analyses: DirectiveAnalysis[] = [];
  for (const src of sources) {
    if (src.kind !== "directive") continue;
    const parsed = parseDirective(src.text, src.path);
    const { analysis, diagnostics: ds } = analyzeDirective({ id: src.id, parsed });
    diagnostics.push(...ds);
    if (analysis) analyses.push(analysis);
  }
  return { files: emit(analyses, version), diagnostics, compiled: analyses.map((a) => a.id) };
}
