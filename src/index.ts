// The compiler as a pure function: sources in, output files and diagnostics out. No I/O here;
// src/cli/ reads the project and writes `out/`.
import { compileDirectives } from "./compile-directives.js";
import { compileTools } from "./compile-tools.js";
import type { Diagnostic } from "./diagnostics/diagnostic.js";
import { emit } from "./emit/index.js";

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
  /** The space the item was found in: "project" (default), "user" or "system:<name>". Only project items are emitted. */
  space?: string;
  text: string;
}

export interface BuildOptions {
  /** The first `.ai/config/agent/hook_conditions.yaml` found across the spaces, if any. */
  hookConfig?: { path: string; text: string } | null;
}

export interface BuildResult {
  /** Output-relative path → file text (directive modules and the index). */
  files: Map<string, string>;
  diagnostics: Diagnostic[];
  /** Ids compiled without errors. */
  compiled: string[];
  /** Tool ids compiled without errors (modules under `tools/`). */
  tools?: string[];
}

/** Compiles a project: parse → analyze → emit. An item with errors is reported and not emitted. */
export function build(sources: readonly SourceFile[], version: string, options: BuildOptions = {}): BuildResult {
  const { analyses, knowledge, diagnostics } = compileDirectives(sources, options.hookConfig ?? null);
  const tools = compileTools(sources);
  return { files: emit(analyses, version, knowledge, tools.tools), diagnostics: [...diagnostics, ...tools.diagnostics], compiled: analyses.map((a) => a.id), tools: tools.tools.map((t) => t.id) };
}
