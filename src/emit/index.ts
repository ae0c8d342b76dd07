import type { DirectiveAnalysis } from "../analyze/analysis.js";
import type { KnowledgeItem } from "../compile-directives.js";
import { emitKnowledge } from "./emit-knowledge.js";
import { emitDirective } from "./emit-directive.js";
import { emitIndex } from "./emit-index.js";
import { emitTool } from "./emit-tool.js";
import type { CompiledTool } from "../compile-tools.js";

/** Emits every analysed directive plus the registry, as output-relative path → file text. */
export function emit(analyses: readonly DirectiveAnalysis[], version: string, knowledge: readonly KnowledgeItem[] = [], tools: readonly CompiledTool[] = []): Map<string, string> {
  const files = new Map<string, string>();
  for (const k of knowledge) {
    const m = emitKnowledge(k, version);
    files.set(`${m.path}.js`, m.js);
    files.set(`${m.path}.ts`, m.ts);
    files.set(`${m.path}.d.ts`, m.dts);
  }
  for (const a of analyses) {
    const m = emitDirective(a, version);
    files.set(`${m.path}.js`, m.js);
    files.set(`${m.path}.ts`, m.ts);
    files.set(`${m.path}.d.ts`, m.dts);
  }
  for (const t of tools) {
    const m = emitTool(t, version);
    files.set(`${m.path}.js`, m.js);
    files.set(`${m.path}.ts`, m.ts);
    files.set(`${m.path}.d.ts`, m.dts);
  }
  const index = emitIndex(analyses.map((a) => a.id), version, tools.map((t) => t.id));
  files.set("index.js", index.js);
  files.set("index.ts", index.ts);
  files.set("index.d.ts", index.dts);
  // The output is ES modules whatever the enclosing project's package.json says.
  files.set("package.json", `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`);
  return files;
}
