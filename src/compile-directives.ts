// Directives and knowledge across spaces: parse everything, analyse the project's directives,
// resolve extends chains and context, and embed the knowledge each thread will be given.
import { analyzeDirective } from "./analyze/index.js";
import type { DirectiveAnalysis } from "./analyze/analysis.js";
import { DEFAULT_CONTEXT_HOOKS, hooksFromConfig, type HookDef } from "./analyze/hooks.js";
import { resolveCalls } from "./analyze/resolve-calls.js";
import { resolveContext, type DirectiveEntry } from "./analyze/resolve-context.js";
import type { Diagnostic } from "./diagnostics/diagnostic.js";
import * as d from "./diagnostics/codes.js";
import { parseDirective } from "./parse/parse-directive.js";
import { parseKnowledge, type KnowledgeData } from "./parse/parse-knowledge.js";
import type { KnowledgeBlock, ThreadPlan } from "./runtime/thread.js";
import type { SourceFile } from "./index.js";

export interface KnowledgeItem {
  id: string;
  space: string;
  source: string;
  data: KnowledgeData;
}

export interface CompiledDirectives {
  analyses: DirectiveAnalysis[];
  knowledge: KnowledgeItem[];
  diagnostics: Diagnostic[];
}

const spaceOf = (s: SourceFile) => s.space ?? "project";
const rank = (space: string) => (space === "project" ? 0 : space === "user" ? 1 : 2);

/** Compiles the project's directives and knowledge; other spaces only resolve parents and context. */
export function compileDirectives(sources: readonly SourceFile[], hookConfig: { path: string; text: string } | null): CompiledDirectives {
  const diagnostics: Diagnostic[] = [];
  const ordered = [...sources].sort((a, b) => rank(spaceOf(a)) - rank(spaceOf(b)));
  // decisions.md #18: one id per kind and space; the first file in probing order wins, the others are errors.
  const firstById = new Map<string, SourceFile>();
  for (const src of ordered) {
    const key = `${src.kind}\u0000${spaceOf(src)}\u0000${src.id}`;
    const first = firstById.get(key);
    if (!first) firstById.set(key, src);
    else if (spaceOf(src) === "project") {
      const at = { offset: 0, line: 1, column: 1 };
      diagnostics.push(d.duplicateItemId({ source: src.path, start: at, end: at }, src.id, src.kind, first.path));
    }
  }
  const knowledge = new Map<string, KnowledgeItem>();
  for (const src of ordered) {
    if (src.kind !== "knowledge" || knowledge.has(src.id)) continue;
    const parsed = parseKnowledge(src.text, src.path, src.ext ?? ".md");
    if (spaceOf(src) === "project") diagnostics.push(...parsed.diagnostics);
    if (parsed.data) knowledge.set(src.id, { id: src.id, space: spaceOf(src), source: src.path, data: parsed.data });
  }
  const directives = new Map<string, DirectiveEntry>();
  const projectIds: string[] = [];
  for (const src of ordered) {
    if (src.kind !== "directive" || directives.has(src.id)) continue;
    const parsed = parseDirective(src.text, src.path);
    if (parsed.data) directives.set(src.id, { id: src.id, space: spaceOf(src), parsed, data: parsed.data });
    if (spaceOf(src) === "project") {
      projectIds.push(src.id);
      if (!parsed.data) diagnostics.push(...parsed.diagnostics);
    }
  }
  const tools = new Map<string, string>();
  for (const src of ordered) if (src.kind === "tool" && !tools.has(src.id)) tools.set(src.id, spaceOf(src));
  const index = {
    directive: (x: string) => directives.get(x),
    has: (kind: "tool" | "knowledge", x: string) => (kind === "tool" ? tools.get(x) : knowledge.get(x)?.space),
  };
  let configHooks: HookDef[] = DEFAULT_CONTEXT_HOOKS;
  if (hookConfig) configHooks = hooksFromConfig(hookConfig.text, hookConfig.path);

  const analyses: DirectiveAnalysis[] = [];
  for (const id of projectIds) {
    const entry = directives.get(id);
    if (!entry) continue;
    const { analysis, diagnostics: ds } = analyzeDirective({ id, parsed: entry.parsed });
    const ctx = resolveContext(entry, (x) => directives.get(x), (x) => knowledge.has(x), configHooks);
    const permissions = ctx.plan.permissionsFrom ? (directives.get(ctx.plan.permissionsFrom)?.data.permissions ?? []) : [];
    const calls = resolveCalls(entry, index, permissions.map((p) => p.content));
    diagnostics.push(...ds, ...ctx.diagnostics, ...calls.diagnostics);
    if (!analysis || [...ctx.diagnostics, ...calls.diagnostics].some((x) => x.severity === "error")) continue;
    analysis.context = ctx.plan;
    analysis.thread = threadPlan(ctx.plan, knowledge);
    analysis.permissions = permissions;
    analysis.calls = calls.calls;
    analyses.push(analysis);
  }
  return { analyses, knowledge: [...knowledge.values()].filter((k) => k.space === "project"), diagnostics };
}

function block(id: string, knowledge: ReadonlyMap<string, KnowledgeItem>): KnowledgeBlock | null {
  const k = knowledge.get(id);
  return k ? [id, typeof k.data.name === "string" ? k.data.name : "", k.data.body] : null;
}

/** The knowledge a thread receives, embedded so compiled modules never read `.md` files at run time. */
function threadPlan(plan: NonNullable<DirectiveAnalysis["context"]>, knowledge: ReadonlyMap<string, KnowledgeItem>): ThreadPlan {
  const blocks = (ids: string[]) => ids.map((id) => block(id, knowledge)).filter((b): b is KnowledgeBlock => b !== null);
  return {
    system: blocks(plan.system),
    before: blocks(plan.before),
    after: blocks(plan.after),
    hooks: plan.hooks.map((h) => ({
      id: h.id,
      event: h.event,
      position: h.position,
      wrap: h.wrap,
      condition: h.condition,
      actions: h.actions.map((a) => ({
        item_id: a.item_id ?? "",
        item_type: a.item_type ?? "",
        block: a.item_type === "knowledge" && a.item_id ? block(a.item_id, knowledge) : null,
      })),
    })),
  };
}
