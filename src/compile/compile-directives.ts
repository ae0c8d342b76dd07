// Directives and knowledge across spaces: parse everything, analyse the project's directives,
// resolve extends chains and context, and embed the knowledge each thread will be given.
import { analyzeDirective } from "../analyze/index.js";
import type { DirectiveAnalysis } from "../analyze/analysis.js";
import { DEFAULT_CONTEXT_HOOKS, readHookConfig, type HookDef } from "../analyze/hooks.js";
import { resolveCalls, type ItemIndex } from "../analyze/resolve-calls.js";
import { lookupView, resolveContext, type DirectiveEntry, type LeafEntry } from "../analyze/resolve-context.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { parseDirective, type ParsedDirective } from "../parse/parse-directive.js";
import { parseKnowledge } from "../parse/parse-knowledge.js";
import { knowledgeContent } from "../parse/knowledge-content.js";
import type { KnowledgeBlock, ThreadPlan } from "../runtime/thread.js";
import { readToolMetadata } from "../tools/tool-metadata.js";
import type { KnowledgeItem } from "../model/items.js";
import type { ItemKind, SourceFile } from "../model/source.js";

/** Sources by kind and id, each id's files in probing order; and what the ids' files report on their own. */
export interface SourceGroups {
  byId: Record<ItemKind, Map<string, SourceFile[]>>;
  /** decisions.md #18: a second file of one id, kind and space. */
  duplicates: Diagnostic[];
  /** The project items in the order `compileDirectives` compiles them (or asks `reuse` about them): knowledge, then directives. */
  order: SourceFile[];
}

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

/** What one project item contributed to a build: its diagnostics and whether it produced output. */
export interface ItemOutcome {
  /** Reported before any analysis: knowledge diagnostics, or a directive's parse failure. */
  parseDiagnostics: Diagnostic[];
  /** A directive's analysis, context and call diagnostics. */
  diagnostics: Diagnostic[];
  compiled: boolean;
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

const spaceOf = (s: SourceFile) => s.space ?? "project";
const rank = (space: string) => (space === "project" ? 0 : space === "user" ? 1 : 2);

/** Whether no source comes after one of a later space in probing order. */
function inProbingOrder(sources: readonly SourceFile[]): boolean {
  for (let i = 1; i < sources.length; i++) if (rank(spaceOf(sources[i - 1]!)) > rank(spaceOf(sources[i]!))) return false;
  return true;
}

/** Sources by kind and id, each id's files in probing order (project → user → system). */
function groupById(sources: readonly SourceFile[]): { ordered: SourceFile[]; byId: Record<ItemKind, Map<string, SourceFile[]>> } {
  // readSpaces reads the spaces in probing order already: the (stable) sort is then needed by other callers only.
  const ordered = inProbingOrder(sources) ? [...sources] : [...sources].sort((a, b) => rank(spaceOf(a)) - rank(spaceOf(b)));
  const byId = { directive: new Map<string, SourceFile[]>(), knowledge: new Map<string, SourceFile[]>(), tool: new Map<string, SourceFile[]>() };
  for (const src of ordered) {
    const list = byId[src.kind].get(src.id);
    if (list) list.push(src);
    else byId[src.kind].set(src.id, [src]);
  }
  return { ordered, byId };
}

function itemOrder(byId: SourceGroups["byId"]): SourceFile[] {
  return [...byId.knowledge.values(), ...byId.directive.values()].map((srcs) => srcs[0]!).filter((s) => spaceOf(s) === "project");
}

/** Groups the sources by kind and id and reports duplicate ids. */
export function groupSources(sources: readonly SourceFile[]): SourceGroups {
  const { ordered, byId } = groupById(sources);
  // decisions.md #18: one id per kind and space; the first file in probing order wins, the others are errors.
  const duplicates: Diagnostic[] = [];
  const firstById = new Map<string, SourceFile>();
  for (const src of ordered) {
    const key = `${src.kind}\u0000${spaceOf(src)}\u0000${src.id}`;
    const first = firstById.get(key);
    if (!first) firstById.set(key, src);
    else if (spaceOf(src) === "project") {
      const at = { offset: 0, line: 1, column: 1 };
      duplicates.push(d.duplicateItemId({ source: src.path, start: at, end: at }, src.id, src.kind, first.path));
    }
  }
  return { byId, duplicates, order: itemOrder(byId) };
}

/**
 * Compiles the project's directives and knowledge; other spaces only resolve parents and context.
 * Items are parsed when first needed, so reused items and unreferenced items of other spaces cost nothing;
 * for each id the first file (project → user → system) that parses wins, as if all were parsed in order.
 */
export function compileDirectives(sources: readonly SourceFile[], hookConfig: { path: string; text: string } | null, hooks: CompileHooks = {}, scope?: CompileScope, grouped?: SourceGroups): CompiledDirectives {
  const groups = scope ? scope.groups : (grouped ?? groupSources(sources));
  const { byId } = groups;
  const diagnostics: Diagnostic[] = [...groups.duplicates];
  /** With a scope: whether each visited directive compiled now. */
  const visited = new Map<SourceFile, boolean>();

  const parsedKnowledge = new Map<SourceFile, ReturnType<typeof parseKnowledge>>();
  const parseK = (src: SourceFile) => {
    let p = parsedKnowledge.get(src);
    if (!p) parsedKnowledge.set(src, (p = parseKnowledge(src.text, src.path, src.ext ?? ".md")));
    return p;
  };
  const knowledgeCache = new Map<string, KnowledgeItem | null>();
  const findKnowledge = (id: string): KnowledgeItem | null => {
    let k = knowledgeCache.get(id);
    if (k !== undefined) return k;
    k = null;
    for (const src of byId.knowledge.get(id) ?? []) {
      const data = parseK(src).data;
      if (data) {
        // What a thread is given: the body, or the whole file when that is empty (a pure .yaml item).
        k = { id, space: spaceOf(src), source: src.path, data: { ...data, body: knowledgeContent(data) } };
        break;
      }
    }
    knowledgeCache.set(id, k);
    return k;
  };
  const parsedDirectives = new Map<SourceFile, ParsedDirective>();
  const parseD = (src: SourceFile) => {
    let p = parsedDirectives.get(src);
    // The XML tree is needed only while extracting metadata; kept for every directive of a large
    // project it is most of the memory a build holds (measured: 26 KB → 11 KB per directive).
    if (!p) parsedDirectives.set(src, (p = Object.assign(parseDirective(src.text, src.path), { root: null })));
    return p;
  };
  // Other directives only ever read a directive's lookup view (measured: 11 KB → 1 KB per directive
  // held until the build ends), so that is all a lookup keeps. Its own analysis needs the whole
  // parse: a directive looked up before it is analysed here (a parent later in build order, or on a
  // parallel build an item another thread analyses) is parsed again then, which is rare.
  const directiveCache = new Map<string, LeafEntry | DirectiveEntry | null>();
  const findDirective = (id: string, whole = false): LeafEntry | DirectiveEntry | null => {
    let e = directiveCache.get(id);
    if (e !== undefined && (!whole || !e || e.failed || "parsed" in e)) return e;
    e = parsedEntry(id);
    if (!whole) {
      // The first lookup of an item gets what every later one does.
      e = e && lookupView(e);
      for (const src of byId.directive.get(id) ?? []) parsedDirectives.delete(src);
    }
    directiveCache.set(id, e);
    return e;
  };
  const parsedEntry = (id: string): LeafEntry | DirectiveEntry | null => {
    let e: LeafEntry | DirectiveEntry | null = null;
    const srcs = byId.directive.get(id) ?? [];
    for (const src of srcs) {
      const parsed = parseD(src);
      if (parsed.data) {
        e = { id, space: spaceOf(src), parsed, data: parsed.data, locs: parsed.locs };
        break;
      }
    }
    // Files that exist but do not parse still name the item: dependents find it, and only its own diagnostics say why it failed.
    if (!e && srcs[0]) e = { id, space: spaceOf(srcs[0]), data: {}, locs: parseD(srcs[0]).locs, failed: true };
    return e;
  };
  /** The parse diagnostics of an item that exists but failed, from the spaces whose items are not reported on their own. */
  const ownDiagnostics = (kind: "directive" | "knowledge", id: string): Diagnostic[] =>
    (byId[kind].get(id) ?? []).filter((s) => spaceOf(s) !== "project").flatMap((s) => (kind === "directive" ? parseD(s) : parseK(s)).diagnostics);
  /** After its analysis a directive is only ever looked up: drop its parse. */
  const analysed = (id: string) => {
    for (const src of byId.directive.get(id) ?? []) parsedDirectives.delete(src);
    const e = directiveCache.get(id);
    if (e) directiveCache.set(id, lookupView(e));
  };

  const projectKnowledge: KnowledgeItem[] = [];
  for (const [id, srcs] of scope ? scope.visit.filter((s) => s.kind === "knowledge").map((s) => [s.id, byId.knowledge.get(s.id)!] as const) : byId.knowledge) {
    const src = srcs[0]!;
    if (spaceOf(src) !== "project") continue;
    const reused = hooks.reuse?.(src);
    if (reused) {
      diagnostics.push(...reused.parseDiagnostics);
      continue;
    }
    // Every project file of the id up to the first that parses is reported, as a parse in order would.
    const parseDiagnostics: Diagnostic[] = [];
    for (const s of srcs) {
      if (spaceOf(s) !== "project") break;
      const p = parseK(s);
      parseDiagnostics.push(...p.diagnostics);
      if (p.data) break;
    }
    diagnostics.push(...parseDiagnostics);
    const item = findKnowledge(id);
    const own = item && item.space === "project" ? item : null;
    hooks.onKnowledge?.(src, { parseDiagnostics, diagnostics: [], compiled: own !== null }, own);
    if (own && !hooks.onKnowledge) projectKnowledge.push(own);
  }

  // Every directive's parse diagnostics precede all analysis diagnostics; directives are parsed only
  // when analysed (or looked up), so parse diagnostics are placed here once all are known.
  const projectDirectives: SourceFile[] = [];
  if (scope) projectDirectives.push(...scope.visit.filter((s) => s.kind === "directive"));
  else {
    for (const [, srcs] of byId.directive) {
      const src = srcs[0]!;
      if (spaceOf(src) === "project") projectDirectives.push(src);
    }
  }
  const parseDiagnosticsAt = diagnostics.length;
  const allParseDiagnostics: Diagnostic[] = [];
  const tools = new Map<string, string>();
  for (const [id, srcs] of byId.tool) tools.set(id, spaceOf(srcs[0]!));
  let configHooks: HookDef[] = DEFAULT_CONTEXT_HOOKS;
  if (hookConfig) {
    const read = readHookConfig(hookConfig.text, hookConfig.path);
    configHooks = read.diagnostics.length > 0 ? DEFAULT_CONTEXT_HOOKS : read.hooks;
    diagnostics.push(...read.diagnostics);
  }

  const analyses: DirectiveAnalysis[] = [];
  const compiled: string[] = [];
  const toolSchemas = new Map<string, unknown>();
  const toolSchema = (x: string) => {
    if (!toolSchemas.has(x)) {
      const src = byId.tool.get(x)?.[0];
      toolSchemas.set(x, src ? readToolMetadata(src.text, src.ext ?? "").metadata.config_schema : undefined);
    }
    return toolSchemas.get(x);
  };
  // Seed 004's default hook needs one knowledge item; without it every thread silently loses its instruction.
  if (configHooks === DEFAULT_CONTEXT_HOOKS && (scope ? groups.order.some((s) => s.kind === "directive") : projectDirectives.length > 0)) {
    for (const id of new Set(DEFAULT_CONTEXT_HOOKS.flatMap((h) => h.actions.map((a) => a.item_id ?? "")))) {
      if (!byId.knowledge.has(id)) diagnostics.push(d.missingInstructionKnowledge(id));
      else if (!findKnowledge(id)) diagnostics.push(...ownDiagnostics("knowledge", id));
    }
  }
  for (const src of projectDirectives) {
    // Asked item by item, just before the item is compiled: a parallel build claims its share as it goes.
    const reused = hooks.reuse?.(src);
    const id = src.id;
    if (scope) visited.set(src, reused ? reused.compiled : false);
    if (reused) {
      allParseDiagnostics.push(...reused.parseDiagnostics);
      diagnostics.push(...reused.diagnostics);
      if (reused.compiled) compiled.push(id);
      continue;
    }
    const parseDiagnostics = parseD(src).data ? [] : parseD(src).diagnostics;
    allParseDiagnostics.push(...parseDiagnostics);
    const seen = (kind: ItemKind, x: string) => hooks.onLookup?.(src, kind, x);
    // Items this one depends on that exist but failed: reported by themselves, and this one is not emitted.
    const failedDeps: Diagnostic[] = [];
    let depFailed = false;
    const noteFailed = (kind: "directive" | "knowledge", x: string) => {
      depFailed = true;
      failedDeps.push(...ownDiagnostics(kind, x));
    };
    const lookupDirective = (x: string) => {
      seen("directive", x);
      const e = findDirective(x, x === id) ?? undefined;
      if (e?.failed && x !== id) noteFailed("directive", x);
      return e;
    };
    const lookupKnowledge = (x: string) => {
      seen("knowledge", x);
      const k = findKnowledge(x);
      if (!k && byId.knowledge.has(x)) noteFailed("knowledge", x);
      return k;
    };
    const knowledgeExists = (x: string) => lookupKnowledge(x) !== null || byId.knowledge.has(x);
    // Only an analysed directive is reduced to its lookup view, and each id is analysed once.
    const entry = lookupDirective(id) as LeafEntry | undefined;
    const outcome: ItemOutcome = { parseDiagnostics, diagnostics: [], compiled: false };
    if (!entry || entry.failed) {
      analysed(id);
      hooks.onDirective?.(src, outcome, null);
      continue;
    }
    const { analysis, diagnostics: ds } = analyzeDirective({ id, parsed: entry.parsed });
    const ctx = resolveContext(entry, lookupDirective, knowledgeExists, configHooks);
    const permissions = ctx.plan.permissionsFrom ? (lookupDirective(ctx.plan.permissionsFrom)?.data.permissions ?? []) : [];
    const index: ItemIndex = {
      directive: lookupDirective,
      has: (kind, x) => {
        if (kind === "tool") return seen(kind, x), tools.get(x);
        const first = byId.knowledge.get(x)?.[0];
        return lookupKnowledge(x)?.space ?? (first ? spaceOf(first) : undefined);
      },
      toolSchema,
    };
    const calls = resolveCalls(entry, index, permissions.map((p) => p.content));
    outcome.diagnostics = [...ds, ...ctx.diagnostics, ...calls.diagnostics, ...failedDeps];
    diagnostics.push(...outcome.diagnostics);
    analysed(id);
    if (!analysis || depFailed || [...ctx.diagnostics, ...calls.diagnostics].some((x) => x.severity === "error")) {
      hooks.onDirective?.(src, outcome, null);
      continue;
    }
    analysis.context = ctx.plan;
    analysis.thread = threadPlan(ctx.plan, lookupKnowledge);
    analysis.knowledgeModules = threadKnowledge(analysis.thread).filter((x) => lookupKnowledge(x)?.space === "project");
    analysis.permissions = permissions;
    analysis.calls = calls.calls;
    outcome.compiled = true;
    if (scope) visited.set(src, true);
    compiled.push(id);
    if (hooks.onDirective) hooks.onDirective(src, outcome, analysis);
    else analyses.push(analysis);
  }
  diagnostics.splice(parseDiagnosticsAt, 0, ...allParseDiagnostics);
  const all = scope ? compiledInScope(scope, visited) : compiled;
  return { analyses, knowledge: projectKnowledge, diagnostics: d.suggestIds(diagnostics, (kind) => byId[kind].keys()), compiled: all, groups };
}

/** Every compiled directive id in build order, when only `visited` items were compiled now. */
function compiledInScope(scope: CompileScope, visited: Map<SourceFile, boolean>): string[] {
  let moved = false;
  for (const [src, now] of visited) if (now !== scope.wasCompiled(src)) moved = true;
  if (!moved) return scope.compiled;
  return scope.groups.order.filter((s) => s.kind === "directive" && (visited.get(s) ?? scope.wasCompiled(s))).map((s) => s.id);
}

function block(id: string, knowledge: (id: string) => KnowledgeItem | null): KnowledgeBlock | null {
  const k = knowledge(id);
  return k ? [id, typeof k.data.name === "string" ? k.data.name : "", k.data.body] : null;
}

/** The ids of the knowledge items a thread plan holds, once each. */
function threadKnowledge(plan: ThreadPlan): string[] {
  const blocks = [...plan.system, ...plan.before, ...plan.after, ...plan.hooks.flatMap((h) => h.actions.map((a) => a.block))];
  return [...new Set(blocks.flatMap((b) => (b ? [b[0]] : [])))];
}

/** The knowledge a thread receives, embedded so compiled modules never read `.md` files at run time. */
function threadPlan(plan: NonNullable<DirectiveAnalysis["context"]>, knowledge: (id: string) => KnowledgeItem | null): ThreadPlan {
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
