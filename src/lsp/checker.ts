// Re-checks what an edit can affect: the edited items, and every item whose analysis looked one of
// them up (extends children, context users, callers), transitively. Everything else keeps its outcome.
import type { ItemOutcome } from "../compile/compile-directives.js";
import { compileDirectives, groupSources } from "../compile/compile-directives.js";
import { compileTools } from "../compile/compile-tools.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import type { DirectiveAnalysis } from "../analyze/analysis.js";
import type { DeclaredInput } from "../parse/directive-data.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";

const key = (kind: ItemKind, id: string) => `${kind}\u0000${id}`;

/** Incremental checking of one project, fed the whole source list each time. */
export class Checker {
  private readonly outcomes = new Map<string, ItemOutcome>();
  /** Item key → paths of the items whose analysis looked it up. */
  private readonly dependents = new Map<string, Set<string>>();
  private readonly analyses = new Map<string, DirectiveAnalysis>();
  /** Directive ids analysed (or no longer analysable) since `takeAnalysed` last ran. */
  private readonly analysedSince = new Set<string>();
  private toolDiagnostics: Diagnostic[] = [];
  private first = true;
  /** Which item each source path is, so dependents found by path can be followed further. */
  private readonly pathKeys = new Map<string, string>();

  /**
   * Checks `sources` after `changed` (source paths) changed; returns every diagnostic of the project.
   * `onItem` is called as each item is done: the progress a watchdog on another thread can see.
   */
  check(sources: readonly SourceFile[], hookConfig: { path: string; text: string } | null, changed: readonly SourceFile[], onItem: () => void = () => {}): Diagnostic[] {
    for (const s of sources) this.pathKeys.set(s.path, key(s.kind, s.id));
    const affected = this.affected(changed);
    if (this.first || changed.some((s) => s.kind === "tool")) this.toolDiagnostics = compileTools(sources).diagnostics;
    const all = this.first;
    this.first = false;
    const { diagnostics } = compileDirectives(sources, hookConfig, {
      reuse: (src) => (all || affected.has(src.path) ? undefined : this.outcomes.get(src.path)),
      onLookup: (from, kind, id) => {
        const k = key(kind, id);
        let set = this.dependents.get(k);
        if (!set) this.dependents.set(k, (set = new Set()));
        set.add(from.path);
      },
      onDirective: (src, outcome, analysis) => {
        this.outcomes.set(src.path, outcome);
        if (analysis) this.analyses.set(src.id, analysis);
        else this.analyses.delete(src.id);
        this.analysedSince.add(src.id);
        onItem();
      },
      onKnowledge: (src, outcome) => {
        this.outcomes.set(src.path, outcome);
        onItem();
      },
    });
    return [...diagnostics, ...this.toolDiagnostics];
  }

  /** True until the first whole check ran: nothing is known of the project yet. */
  get fresh(): boolean {
    return this.first;
  }

  /**
   * The diagnostics of `files` alone (project directives), from a check that visits only them and
   * parses what they look up: the first answer for the files an editor opened, while the whole
   * check that follows is still to run. Records nothing, so that check is still a whole one.
   */
  checkOnly(sources: readonly SourceFile[], hookConfig: { path: string; text: string } | null, files: readonly SourceFile[]): Diagnostic[] {
    const groups = groupSources(sources);
    const visit = files.filter((f) => f.kind === "directive");
    const paths = new Set(visit.map((f) => f.path));
    const scope = { groups, visit, compiled: [], wasCompiled: () => false };
    return compileDirectives(sources, hookConfig, {}, scope).diagnostics.filter((d) => d.loc !== undefined && paths.has(d.loc.source));
  }

  /** Forgets every outcome: the next check is a whole one (after the project was re-read from disk). */
  reset(): void {
    this.first = true;
  }

  /** The last analysis of a project directive that analysed (null when it has errors that stop analysis). */
  analysis(id: string): DirectiveAnalysis | null {
    return this.analyses.get(id) ?? null;
  }

  /**
   * The declared inputs of every directive analysed since the last call (null: it no longer
   * analyses): what a checker on another thread sends to the thread that answers requests.
   */
  takeAnalysed(): [string, DeclaredInput[] | null][] {
    const out = [...this.analysedSince].map((id): [string, DeclaredInput[] | null] => [id, this.analyses.get(id)?.inputs ?? null]);
    this.analysedSince.clear();
    return out;
  }

  /** Source paths to re-check: the changed items and, transitively, everything that looked them up. */
  private affected(changed: readonly SourceFile[]): Set<string> {
    const out = new Set<string>();
    const queue = changed.map((s) => ({ path: s.path, k: key(s.kind, s.id) }));
    while (queue.length > 0) {
      const { path, k } = queue.pop()!;
      if (out.has(path)) continue;
      out.add(path);
      for (const dep of this.dependents.get(k) ?? []) queue.push({ path: dep, k: this.pathKeys.get(dep) ?? "" });
    }
    return out;
  }

}
