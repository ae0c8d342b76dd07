// Tools across spaces: each project tool's executor chain is resolved here, at build time, with
// located diagnostics; what is left for run time is the plan the emitted module carries.
import type { Diagnostic, Location } from "../diagnostics/diagnostic.js";
import { LineIndex } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { CompiledTool } from "../model/items.js";
import type { SourceFile } from "../model/source.js";
import { helperReason } from "../project/file-kinds.js";
import { didYouMeanId } from "../runtime/did-you-mean.js";
import { PROCESS_PRIMITIVES, type ChainPlan } from "../runtime/exec/plan.js";
import { contentHash, normalizeNewlines, sha256Hex } from "../sign/hash-region.js";
import { formatFor, parseSignatureLine } from "../sign/signature-line.js";
import { buildChain, MAX_CHAIN_DEPTH, planChain, searchOrder, type ChainElement, type Space, type ToolFinder } from "../tools/build-chain.js";
import { checkChainScopes } from "../tools/check-scopes.js";
import { checkSplicedValues, type PlaceholderSite } from "../tools/check-shell-script.js";
import type { Span } from "../tools/read-python-metadata.js";
import { readToolMetadata } from "../tools/tool-metadata.js";

export type { CompiledTool } from "../model/items.js";

const spaceOf = (s: SourceFile): Space => (s.space ?? "project") as Space;
const START = { offset: 0, line: 1, column: 1 };

/** Looks ids up among the build's tool sources, by space, first file in probing order winning. */
function sourceFinder(sources: readonly SourceFile[]): { finder: ToolFinder; byPath: Map<string, SourceFile> } {
  const bySpace = new Map<string, Map<string, SourceFile>>();
  const byPath = new Map<string, SourceFile>();
  const systems: `system:${string}`[] = [];
  for (const s of sources) {
    if (s.kind !== "tool") continue;
    const space = spaceOf(s);
    if (space.startsWith("system:") && !systems.includes(space as `system:${string}`)) systems.push(space as `system:${string}`);
    const ids = bySpace.get(space) ?? new Map<string, SourceFile>();
    bySpace.set(space, ids);
    if (!ids.has(s.id)) ids.set(s.id, s);
    byPath.set(s.path, s);
  }
  const finder: ToolFinder = {
    resolve(itemId, fromSpace) {
      for (const space of searchOrder(fromSpace, systems)) {
        const s = bySpace.get(space)?.get(itemId);
        if (s) return { path: s.path, space, text: s.text, ext: s.ext ?? "" };
      }
      return undefined;
    },
  };
  return { finder, byPath };
}

/**
 * Resolves the chain of every project tool that declares metadata (helper modules without any are
 * chain material only), reporting each problem once at the file and field that cause it. Primitives
 * get no module of their own: they run only at the end of a chain.
 */
export function compileTools(sources: readonly SourceFile[]): { tools: CompiledTool[]; diagnostics: Diagnostic[] } {
  const compiler = new ToolCompiler(sources);
  const tools: CompiledTool[] = [];
  const seen = new Set<string>();
  for (const src of sources) {
    if (src.kind !== "tool" || spaceOf(src) !== "project" || seen.has(src.id)) continue;
    seen.add(src.id);
    const tool = compiler.compile(src);
    if (tool) tools.push(tool);
  }
  return { tools, diagnostics: compiler.diagnostics() };
}

type Chain = ReturnType<typeof buildChain>;

/** One build's tools: the files read and hashed once, and each diagnostic reported once. */
class ToolCompiler {
  private readonly finder: ToolFinder;
  private readonly byPath: Map<string, SourceFile>;
  private readonly toolIds: Set<string>;
  /** By code, file and offset: a file shared by many chains reports its problem once. */
  private readonly reported = new Map<string, Diagnostic>();
  private readonly indexes = new Map<string, LineIndex>();
  /** Runtimes and primitives sit in many chains: each file is read and hashed once per build. */
  private readonly reads = new Map<string, { read: ReturnType<typeof readToolMetadata>; hash: string }>();

  constructor(sources: readonly SourceFile[]) {
    ({ finder: this.finder, byPath: this.byPath } = sourceFinder(sources));
    this.toolIds = new Set(sources.filter((s) => s.kind === "tool").map((s) => s.id));
  }

  diagnostics(): Diagnostic[] {
    return [...this.reported.values()];
  }

  /** A project tool's module data, or null when it has none (a helper) or its chain has errors. */
  compile(src: SourceFile): CompiledTool | null {
    const own = this.read(src.text, src.ext ?? "").read;
    if (Object.keys(own.metadata).length === 0) {
      const errors = own.problems.filter((x) => x.severity === "error");
      for (const p of errors) this.report(d.unreadableToolMetadata(this.loc(src.path, p.span), p.message));
      // Shown with --verbose: a file that compiles to nothing must say so (a .sh "tool" above all).
      if (errors.length === 0) this.report(d.skippedFile(this.loc(src.path), helperReason(src.ext ?? "")));
      return null;
    }
    const built = buildChain(src.id, this.finder, { integrity: (text, ext) => this.read(text, ext).hash, readMetadata: (text, ext) => this.read(text, ext).read });
    // A primitive alone is nothing to run: it only ever executes at the end of a chain.
    if (this.reportIssues(src, built) || built.chain.length === 1) return null;
    const plan = planChain(built.chain);
    plan.files = built.chain.map((e) => fileOf(e, this.byPath.get(e.path)!.text));
    let failed = checkSignatures(built.chain, this.byPath, this.report, this.loc);
    failed = this.checkScopes(src, built.chain, plan) || failed;
    failed = this.checkSplices(built.chain, plan) || failed;
    const root = built.chain.at(-1)!;
    if (!PROCESS_PRIMITIVES.includes(root.item_id)) {
      const named = built.chain.at(-2);
      this.report(d.unrunnablePrimitive(named ? this.executorLoc(named) : this.loc(src.path), src.id, root.item_id, PROCESS_PRIMITIVES));
    }
    return failed ? null : { id: src.id, source: src.path, metadata: built.chain[0]!.metadata, plan };
  }

  /** Reports what building the chain met; true when any of it is an error. */
  private reportIssues(src: SourceFile, built: Chain): boolean {
    let failed = false;
    for (const issue of built.issues) {
      const last = built.chain.at(-1);
      const at = last ? this.executorLoc(last) : this.loc(src.path);
      if (issue.code === "metadata_problem") {
        const l = this.loc(issue.path ?? src.path, issue.span);
        this.report(issue.severity === "error" ? d.unreadableToolMetadata(l, issue.message) : d.ignoredToolMetadata(l, issue.message));
        failed ||= issue.severity === "error";
        continue;
      }
      failed = true;
      if (issue.code === "executor_not_found") this.report(d.executorNotFound(at, issue.itemId, src.id, didYouMeanId(issue.itemId, this.toolIds)));
      else if (issue.code === "circular_dependency") {
        const ids = built.chain.map((e) => e.item_id);
        this.report(d.circularChain(at, [...ids.slice(ids.indexOf(issue.itemId)), issue.itemId]));
      } else if (issue.code === "chain_too_deep") this.report(d.chainTooDeep(at, src.id, MAX_CHAIN_DEPTH));
    }
    return failed;
  }

  /** Placeholders of the chain's config that no element provides; true when any is an error. */
  private checkScopes(src: SourceFile, chain: readonly ChainElement[], plan: ChainPlan): boolean {
    let failed = false;
    const { problems, known } = checkChainScopes(chain, plan.config);
    for (const p of problems) {
      const e = chain[p.element]!;
      const l = this.locText(e.path, p.raw, e.spans[p.field]);
      if (p.kind === "foreign") this.report(d.foreignPlaceholderInTool(l, p.raw, p.fix ?? ""));
      else if (p.kind === "lower_case_env") this.report(d.lowerCaseEnvVar(l, p.raw, p.fix ?? ""));
      else this.report(d.unknownRuntimeParam(l, p.raw, src.id, known));
      failed ||= p.kind !== "lower_case_env";
    }
    return failed;
  }

  /** Values spliced into a shell script: refused where the shell may not read them as data; true when any is. */
  private checkSplices(chain: readonly ChainElement[], plan: ChainPlan): boolean {
    const spliced = checkSplicedValues(chain, plan.config);
    // The placeholder's own line of the template leads to the right one of several equal placeholders.
    const at = (s: PlaceholderSite) => {
      const e = chain[s.element]!;
      const line = this.locText(e.path, s.context, e.spans.config);
      const found = line.end.offset - line.start.offset === s.context.length;
      return this.locText(e.path, s.raw, found ? { start: { ...line.start, offset: line.end.offset - s.raw.length }, end: line.end } : e.spans.config);
    };
    for (const r of spliced.refused) this.report(d.unprovenShellContext(at(r), r.message));
    for (const r of spliced.inert) this.report(d.inertOnlySplice(at(r), r.raw, r.where));
    if (spliced.script) this.report(d.shellScriptBySubstitution(at(spliced.script), spliced.script.shell, spliced.script.placeholders));
    return spliced.refused.length > 0;
  }

  private read(text: string, ext: string): { read: ReturnType<typeof readToolMetadata>; hash: string } {
    const key = `${ext}\u0000${text}`;
    let hit = this.reads.get(key);
    if (!hit) this.reads.set(key, (hit = { read: readToolMetadata(text, ext), hash: contentHash(text, "tool", `tool${ext}`) }));
    return hit;
  }

  private readonly report = (diag: Diagnostic): void => {
    const key = `${diag.code}\u0000${diag.loc?.source}\u0000${diag.loc?.start.offset}`;
    if (!this.reported.has(key)) this.reported.set(key, diag);
  };

  private readonly loc = (path: string, span?: Span): Location => ({ source: path, start: span?.start ?? START, end: span?.end ?? span?.start ?? START });

  /** Where `raw` first occurs in a file at or after `from` (else anywhere in it, else at `from`). */
  private locText(path: string, raw: string, from?: Span): Location {
    const text = normalizeNewlines(this.byPath.get(path)?.text ?? "");
    const index = this.indexes.get(path) ?? new LineIndex(text);
    this.indexes.set(path, index);
    let at = text.indexOf(raw, from?.start.offset ?? 0);
    if (at < 0) at = text.indexOf(raw);
    return at < 0 ? this.loc(path, from) : index.location(path, at, at + raw.length);
  }

  /** YAML spans mark the key; point at the executor id itself, where the fix goes. */
  private executorLoc(e: ChainElement): Location {
    return e.ext === ".yaml" || e.ext === ".yml" ? this.locText(e.path, String(e.metadata.executor_id), e.spans.executor_id) : this.loc(e.path, e.spans.executor_id);
  }
}
function fileOf(e: ChainElement, text: string) {
  const signed = parseSignatureLine(normalizeNewlines(text), formatFor("tool", `tool${e.ext}`)) !== null;
  return { item_id: e.item_id, path: e.path, sha256: sha256Hex(text), signed };
}

/** A signed element must still match its signature's hash (the original verifies every element). */
function checkSignatures(
  chain: readonly ChainElement[],
  byPath: ReadonlyMap<string, SourceFile>,
  report: (diag: Diagnostic) => void,
  loc: (path: string, span?: Span) => Location,
): boolean {
  let failed = false;
  for (const e of chain) {
    const text = normalizeNewlines(byPath.get(e.path)!.text);
    const sig = parseSignatureLine(text, formatFor("tool", `tool${e.ext}`));
    if (!sig || sig.hash === e.integrity) continue;
    const line = text.startsWith("#!") ? 2 : 1;
    const offset = line === 2 ? text.indexOf("\n") + 1 : 0;
    const at = { offset, line, column: 1 };
    report(d.modifiedSignedTool(loc(e.path, { start: at, end: at }), e.item_id));
    failed = true;
  }
  return failed;
}
