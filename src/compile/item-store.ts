// The items of one build, parsed and looked up on demand. Like a compiler's program object, the
// store answers `parse`, `lookup` and `analyse` questions and remembers each answer in a table of
// its own, so an item that is never asked about costs nothing and no item is parsed twice.
import { analyzeDirective } from "../analyze/index.js";
import type { DirectiveAnalysis } from "../analyze/analysis.js";
import type { HookDef } from "../analyze/hooks.js";
import { resolveCalls, type ItemIndex } from "../analyze/resolve-calls.js";
import { lookupView, resolveContext, type DirectiveEntry, type LeafEntry } from "../analyze/resolve-context.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { KnowledgeItem } from "../model/items.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import { parseDirective, type ParsedDirective } from "../parse/parse-directive.js";
import { parseKnowledge, type ParsedKnowledge } from "../parse/parse-knowledge.js";
import { readToolMetadata } from "../tools/tool-metadata.js";
import { spaceOf, type SourceGroups } from "./group-sources.js";
import { threadKnowledge, threadPlan } from "./thread-plan.js";
import { appendAll } from "./append-all.js";

type Found = LeafEntry | DirectiveEntry | null;

/** What one project item contributed to a build: its diagnostics and whether it produced output. */
export interface ItemOutcome {
  /** Reported before any analysis: knowledge diagnostics, or a directive's parse failure. */
  parseDiagnostics: Diagnostic[];
  /** A directive's analysis, context and call diagnostics. */
  diagnostics: Diagnostic[];
  compiled: boolean;
}

/** What analysing one directive gave: its outcome, and its analysis when it is to be emitted. */
export interface Analysed {
  outcome: ItemOutcome;
  analysis: DirectiveAnalysis | null;
}

export class ItemStore {
  private readonly knowledgeParses = new Map<SourceFile, ParsedKnowledge>();
  private readonly directiveParses = new Map<SourceFile, ParsedDirective>();
  /** By id: the first file in probing order that parses, or null when none does. */
  private readonly knowledgeItems = new Map<string, KnowledgeItem | null>();
  /** By id: a lookup view, or the whole parse of a directive about to be analysed. */
  private readonly directives = new Map<string, Found>();
  private readonly toolSchemas = new Map<string, unknown>();

  constructor(
    readonly groups: SourceGroups,
    /** Called for every item an item's analysis reads, so a cache can tell when a dependency changed. */
    private readonly onLookup?: (from: SourceFile, kind: ItemKind, id: string) => void,
  ) {}

  parseKnowledge(src: SourceFile): ParsedKnowledge {
    let p = this.knowledgeParses.get(src);
    if (!p) this.knowledgeParses.set(src, (p = parseKnowledge(src.text, src.path, src.ext ?? ".md")));
    return p;
  }

  parseDirective(src: SourceFile): ParsedDirective {
    let p = this.directiveParses.get(src);
    // The XML tree is needed only while extracting metadata; kept for every directive of a large
    // project it is most of the memory a build holds (measured: 26 KB → 11 KB per directive).
    if (!p) this.directiveParses.set(src, (p = Object.assign(parseDirective(src.text, src.path), { root: null })));
    return p;
  }

  /** The knowledge item an id names: its first file (project → user → system) that parses. */
  lookupKnowledge(id: string): KnowledgeItem | null {
    let k = this.knowledgeItems.get(id);
    if (k !== undefined) return k;
    k = null;
    for (const src of this.groups.byId.knowledge.get(id) ?? []) {
      const data = this.parseKnowledge(src).data;
      if (data) {
        k = { id, space: spaceOf(src), source: src.path, data };
        break;
      }
    }
    this.knowledgeItems.set(id, k);
    return k;
  }

  /**
   * The directive an id names. Other directives only ever read its lookup view (measured: 11 KB →
   * 1 KB per directive held until the build ends), so that is all a lookup keeps; `whole` asks for
   * the whole parse, which its own analysis needs. A directive looked up before it is analysed (a
   * parent later in build order, or an item another thread analyses) is then parsed again: rare.
   */
  lookupDirective(id: string, whole = false): Found {
    let e = this.directives.get(id);
    if (e !== undefined && (!whole || !e || e.failed || "parsed" in e)) return e;
    e = this.entry(id);
    if (!whole) {
      // The first lookup of an item gets what every later one does.
      e = e && lookupView(e);
      this.dropParses(id);
    }
    this.directives.set(id, e);
    return e;
  }

  private entry(id: string): Found {
    const srcs = this.groups.byId.directive.get(id) ?? [];
    for (const src of srcs) {
      const parsed = this.parseDirective(src);
      if (parsed.data) return { id, space: spaceOf(src), parsed, data: parsed.data, locs: parsed.locs };
    }
    // Files that exist but do not parse still name the item: dependents find it, and only its own diagnostics say why it failed.
    return srcs[0] ? { id, space: spaceOf(srcs[0]), data: {}, locs: this.parseDirective(srcs[0]).locs, failed: true } : null;
  }

  private dropParses(id: string): void {
    for (const src of this.groups.byId.directive.get(id) ?? []) this.directiveParses.delete(src);
  }

  /** The CONFIG_SCHEMA of the tool an id names (its first file in probing order). */
  readonly toolSchema = (id: string): unknown => {
    if (!this.toolSchemas.has(id)) {
      const src = this.groups.byId.tool.get(id)?.[0];
      this.toolSchemas.set(id, src ? readToolMetadata(src.text, src.ext ?? "").metadata.config_schema : undefined);
    }
    return this.toolSchemas.get(id);
  };

  /** The parse diagnostics of an item that exists but failed, from the spaces whose items are not reported on their own. */
  ownDiagnostics(kind: "directive" | "knowledge", id: string): Diagnostic[] {
    return (this.groups.byId[kind].get(id) ?? [])
      .filter((s) => spaceOf(s) !== "project")
      .flatMap((s) => (kind === "directive" ? this.parseDirective(s) : this.parseKnowledge(s)).diagnostics);
  }

  /** Every project file of a knowledge id up to the first that parses is reported, as a parse in order would. */
  knowledgeParseDiagnostics(srcs: readonly SourceFile[]): Diagnostic[] {
    const diagnostics: Diagnostic[] = [];
    for (const s of srcs) {
      if (spaceOf(s) !== "project") break;
      const p = this.parseKnowledge(s);
      appendAll(diagnostics, p.diagnostics);
      if (p.data) break;
    }
    return diagnostics;
  }

  /**
   * Analyses a project directive: its own checks, its context (extends chain, knowledge, hooks) and
   * its calls. The analysis is null when the directive is not to be emitted: it has errors, or an
   * item it depends on exists but failed (that item reports why).
   */
  analyse(src: SourceFile, configHooks: readonly HookDef[]): Analysed {
    const parse = this.parseDirective(src);
    const outcome: ItemOutcome = { parseDiagnostics: parse.data ? [] : parse.diagnostics, diagnostics: [], compiled: false };
    const deps = new DependencyReads(this, src);
    // Only an analysed directive is reduced to its lookup view, and each id is analysed once.
    const entry = deps.directive(src.id) as LeafEntry | undefined;
    if (!entry || entry.failed) {
      this.analysed(src.id);
      return { outcome, analysis: null };
    }
    const { analysis, diagnostics } = analyzeDirective({ id: src.id, parsed: entry.parsed });
    const ctx = resolveContext(entry, deps.directive, deps.knowledgeExists, configHooks);
    const permissions = ctx.plan.permissionsFrom ? (deps.directive(ctx.plan.permissionsFrom)?.data.permissions ?? []) : [];
    const calls = resolveCalls(entry, deps.index, permissions.map((p) => p.content));
    outcome.diagnostics = [...diagnostics, ...ctx.diagnostics, ...calls.diagnostics, ...deps.failedDiagnostics];
    this.analysed(src.id);
    if (!analysis || deps.failed || [...ctx.diagnostics, ...calls.diagnostics].some((x) => x.severity === "error")) return { outcome, analysis: null };
    analysis.context = ctx.plan;
    analysis.thread = threadPlan(ctx.plan, deps.knowledge);
    analysis.knowledgeModules = threadKnowledge(analysis.thread).filter((x) => deps.knowledge(x)?.space === "project");
    analysis.permissions = permissions;
    analysis.calls = calls.calls;
    outcome.compiled = true;
    return { outcome, analysis };
  }

  /** After its analysis a directive is only ever looked up: drop its parse. */
  private analysed(id: string): void {
    this.dropParses(id);
    const e = this.directives.get(id);
    if (e) this.directives.set(id, lookupView(e));
  }

  /** Reports a read of one item by another (see `onLookup`). */
  noteLookup(from: SourceFile, kind: ItemKind, id: string): void {
    this.onLookup?.(from, kind, id);
  }
}

/**
 * The lookups of one directive's analysis: each is reported to the store's `onLookup`, and an item
 * it depends on that exists but failed is noted, so the directive is not emitted.
 */
class DependencyReads {
  failed = false;
  readonly failedDiagnostics: Diagnostic[] = [];
  readonly index: ItemIndex;

  constructor(
    private readonly store: ItemStore,
    private readonly from: SourceFile,
  ) {
    this.index = {
      directive: this.directive,
      has: (kind, x) => {
        if (kind === "tool") {
          store.noteLookup(from, kind, x);
          const first = store.groups.byId.tool.get(x)?.[0];
          return first && spaceOf(first);
        }
        const first = store.groups.byId.knowledge.get(x)?.[0];
        return this.knowledge(x)?.space ?? (first ? spaceOf(first) : undefined);
      },
      toolSchema: store.toolSchema,
    };
  }

  readonly directive = (x: string): DirectiveEntry | undefined => {
    this.store.noteLookup(this.from, "directive", x);
    const own = x === this.from.id;
    const e = this.store.lookupDirective(x, own) ?? undefined;
    if (e?.failed && !own) this.noteFailed("directive", x);
    return e;
  };

  readonly knowledge = (x: string): KnowledgeItem | null => {
    this.store.noteLookup(this.from, "knowledge", x);
    const k = this.store.lookupKnowledge(x);
    if (!k && this.store.groups.byId.knowledge.has(x)) this.noteFailed("knowledge", x);
    return k;
  };

  readonly knowledgeExists = (x: string): boolean => this.knowledge(x) !== null || this.store.groups.byId.knowledge.has(x);

  private noteFailed(kind: "directive" | "knowledge", x: string): void {
    this.failed = true;
    appendAll(this.failedDiagnostics, this.store.ownDiagnostics(kind, x));
  }
}
