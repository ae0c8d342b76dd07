// Directives and knowledge across spaces: the driver of the item store. It visits the project's
// knowledge and directives in build order and asks the store about each; the store parses,
// looks up and analyses on demand (item-store.ts).
import type { DirectiveAnalysis } from "../analyze/analysis.js";
import { DEFAULT_CONTEXT_HOOKS, readHookConfig, type HookDef } from "../analyze/hooks.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { KnowledgeItem } from "../model/items.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import { groupSources, spaceOf, type SourceGroups } from "./group-sources.js";
import { ItemStore, type ItemOutcome } from "./item-store.js";
import { appendAll } from "./append-all.js";

export { groupSources, type SourceGroups } from "./group-sources.js";
export type { ItemOutcome } from "./item-store.js";

/**
 * A warm rebuild (--watch): the grouping of the last full pass, patched for the files that changed,
 * and the only project items to visit (in build order). Every other item is left as it was: its
 * diagnostics are none, and whether it compiled is `wasCompiled`.
 */
export interface CompileScope {
  groups: SourceGroups;
  visit: readonly SourceFile[];
  /** The last build's compiled ids, kept as they are when no visited item changed its answer. */
  compiled: string[];
  wasCompiled(src: SourceFile): boolean;
}

export interface CompiledDirectives {
  /** The analyses of the directives compiled by this call (none when `onDirective` receives them instead). */
  analyses: DirectiveAnalysis[];
  /** The project's knowledge items parsed by this call (none when `onKnowledge` receives them instead). */
  knowledge: KnowledgeItem[];
  diagnostics: Diagnostic[];
  /** Every project directive id that compiled without errors, reused ones included, in build order. */
  compiled: string[];
  /** How the sources were grouped (a warm rebuild patches this instead of grouping anew). */
  groups: SourceGroups;
}

/**
 * Hooks for incremental and streaming builds. An item `reuse` answers for is neither analysed nor
 * emitted, and is parsed only if another item looks it up; `onLookup` names every item an item's
 * analysis read, so a cache can tell when a dependency changed.
 */
export interface CompileHooks {
  reuse?(src: SourceFile): ItemOutcome | undefined;
  onLookup?(from: SourceFile, kind: ItemKind, id: string): void;
  onDirective?(src: SourceFile, outcome: ItemOutcome, analysis: DirectiveAnalysis | null): void;
  onKnowledge?(src: SourceFile, outcome: ItemOutcome, item: KnowledgeItem | null): void;
}

/**
 * Compiles the project's directives and knowledge; other spaces only resolve parents and context.
 * Items are parsed when first needed, so reused items and unreferenced items of other spaces cost nothing;
 * for each id the first file (project → user → system) that parses wins, as if all were parsed in order.
 */
export function compileDirectives(sources: readonly SourceFile[], hookConfig: { path: string; text: string } | null, hooks: CompileHooks = {}, scope?: CompileScope, grouped?: SourceGroups): CompiledDirectives {
  const groups = scope ? scope.groups : (grouped ?? groupSources(sources));
  const store = new ItemStore(groups, hooks.onLookup);
  const diagnostics: Diagnostic[] = [...groups.duplicates];
  const knowledge = compileKnowledge(store, hooks, scope, diagnostics);
  // Every directive's parse diagnostics precede all analysis diagnostics; directives are parsed only
  // when analysed (or looked up), so parse diagnostics are placed here once all are known.
  const parseDiagnosticsAt = diagnostics.length;
  const directives = scope ? scope.visit.filter((s) => s.kind === "directive") : [...groups.byId.directive.values()].map((srcs) => srcs[0]!).filter((s) => spaceOf(s) === "project");
  const configHooks = contextHooks(hookConfig, diagnostics);
  if (configHooks === DEFAULT_CONTEXT_HOOKS && (scope ? groups.order.some((s) => s.kind === "directive") : directives.length > 0)) appendAll(diagnostics, defaultHookKnowledge(store));
  const run = new DirectiveRun(store, configHooks, hooks, scope);
  for (const src of directives) run.visit(src);
  appendAll(diagnostics, run.diagnostics);
  diagnostics.splice(parseDiagnosticsAt, 0, ...run.parseDiagnostics);
  const compiled = scope ? compiledInScope(scope, run.visited) : run.compiled;
  return { analyses: run.analyses, knowledge, diagnostics: d.suggestIds(diagnostics, (kind) => groups.byId[kind].keys()), compiled, groups };
}

/** Visits the project's knowledge items (or those in scope): reused, or parsed and handed on. */
function compileKnowledge(store: ItemStore, hooks: CompileHooks, scope: CompileScope | undefined, diagnostics: Diagnostic[]): KnowledgeItem[] {
  const { byId } = store.groups;
  const items: KnowledgeItem[] = [];
  const ids = scope ? scope.visit.filter((s) => s.kind === "knowledge").map((s) => s.id) : byId.knowledge.keys();
  for (const id of ids) {
    const srcs = byId.knowledge.get(id)!;
    const src = srcs[0]!;
    if (spaceOf(src) !== "project") continue;
    const reused = hooks.reuse?.(src);
    if (reused) {
      appendAll(diagnostics, reused.parseDiagnostics);
      continue;
    }
    const parseDiagnostics = store.knowledgeParseDiagnostics(srcs);
    appendAll(diagnostics, parseDiagnostics);
    const item = store.lookupKnowledge(id);
    const own = item && item.space === "project" ? item : null;
    hooks.onKnowledge?.(src, { parseDiagnostics, diagnostics: [], compiled: own !== null }, own);
    if (own && !hooks.onKnowledge) items.push(own);
  }
  return items;
}

/** The context hooks of the project's hook config, or the default ones when there is none or it has errors. */
function contextHooks(hookConfig: { path: string; text: string } | null, diagnostics: Diagnostic[]): HookDef[] {
  if (!hookConfig) return DEFAULT_CONTEXT_HOOKS;
  const read = readHookConfig(hookConfig.text, hookConfig.path);
  appendAll(diagnostics, read.diagnostics);
  return read.diagnostics.length > 0 ? DEFAULT_CONTEXT_HOOKS : read.hooks;
}

/** Seed 004's default hook needs one knowledge item; without it every thread silently loses its instruction. */
function defaultHookKnowledge(store: ItemStore): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const id of new Set(DEFAULT_CONTEXT_HOOKS.flatMap((h) => h.actions.map((a) => a.item_id ?? "")))) {
    if (!store.groups.byId.knowledge.has(id)) diagnostics.push(d.missingInstructionKnowledge(id));
    else if (!store.lookupKnowledge(id)) appendAll(diagnostics, store.ownDiagnostics("knowledge", id));
  }
  return diagnostics;
}

/** The project directives of one build, visited in build order: what each contributed, collected. */
class DirectiveRun {
  readonly analyses: DirectiveAnalysis[] = [];
  readonly compiled: string[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly parseDiagnostics: Diagnostic[] = [];
  /** With a scope: whether each visited directive compiled now. */
  readonly visited = new Map<SourceFile, boolean>();

  constructor(
    private readonly store: ItemStore,
    private readonly configHooks: readonly HookDef[],
    private readonly hooks: CompileHooks,
    private readonly scope: CompileScope | undefined,
  ) {}

  visit(src: SourceFile): void {
    // Asked item by item, just before the item is compiled: a parallel build claims its share as it goes.
    const reused = this.hooks.reuse?.(src);
    if (this.scope) this.visited.set(src, reused ? reused.compiled : false);
    if (reused) {
      appendAll(this.parseDiagnostics, reused.parseDiagnostics);
      appendAll(this.diagnostics, reused.diagnostics);
      if (reused.compiled) this.compiled.push(src.id);
      return;
    }
    const { outcome, analysis } = this.store.analyse(src, this.configHooks);
    appendAll(this.parseDiagnostics, outcome.parseDiagnostics);
    appendAll(this.diagnostics, outcome.diagnostics);
    if (!analysis) return this.hooks.onDirective?.(src, outcome, null);
    if (this.scope) this.visited.set(src, true);
    this.compiled.push(src.id);
    if (this.hooks.onDirective) this.hooks.onDirective(src, outcome, analysis);
    else this.analyses.push(analysis);
  }
}

/** Every compiled directive id in build order, when only `visited` items were compiled now. */
function compiledInScope(scope: CompileScope, visited: Map<SourceFile, boolean>): string[] {
  let moved = false;
  for (const [src, now] of visited) if (now !== scope.wasCompiled(src)) moved = true;
  if (!moved) return scope.compiled;
  return scope.groups.order.filter((s) => s.kind === "directive" && (visited.get(s) ?? scope.wasCompiled(s))).map((s) => s.id);
}
