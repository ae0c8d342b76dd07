// Tools across spaces: each project tool's executor chain is resolved here, at build time, with
// located diagnostics; what is left for run time is the plan the emitted module carries.
import type { Diagnostic, Location } from "../diagnostics/diagnostic.js";
import { LineIndex } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { didYouMeanId } from "../runtime/did-you-mean.js";
import type { SourceFile } from "../model/source.js";
import { PROCESS_PRIMITIVES, type ChainPlan } from "../runtime/exec/plan.js";
import { contentHash, normalizeNewlines, sha256Hex } from "../sign/hash-region.js";
import { formatFor, parseSignatureLine } from "../sign/signature-line.js";
import { buildChain, MAX_CHAIN_DEPTH, planChain, searchOrder, type ChainElement, type Space, type ToolFinder } from "../tools/build-chain.js";
import { checkChainScopes } from "../tools/check-scopes.js";
import { checkSplicedValues, type PlaceholderSite } from "../tools/check-shell-script.js";
import type { Span } from "../tools/read-python-metadata.js";
import { readToolMetadata, type ToolMetadata } from "../tools/tool-metadata.js";
import { helperReason } from "../project/file-kinds.js";

/** A project tool whose chain resolved: what its module is emitted from. */
export interface CompiledTool {
  id: string;
  source: string;
  metadata: ToolMetadata;
  plan: ChainPlan;
}

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
  const { finder, byPath } = sourceFinder(sources);
  const diagnostics = new Map<string, Diagnostic>();
  const indexes = new Map<string, LineIndex>();
  const loc = (path: string, span?: Span): Location => ({ source: path, start: span?.start ?? START, end: span?.end ?? span?.start ?? START });
  const locText = (path: string, raw: string, from?: Span): Location => {
    const text = normalizeNewlines(byPath.get(path)?.text ?? "");
    const index = indexes.get(path) ?? new LineIndex(text);
    indexes.set(path, index);
    let at = text.indexOf(raw, from?.start.offset ?? 0);
    if (at < 0) at = text.indexOf(raw);
    return at < 0 ? loc(path, from) : index.location(path, at, at + raw.length);
  };
  // YAML spans mark the key; point at the executor id itself, where the fix goes.
  const executorLoc = (e: ChainElement): Location =>
    e.ext === ".yaml" || e.ext === ".yml" ? locText(e.path, String(e.metadata.executor_id), e.spans.executor_id) : loc(e.path, e.spans.executor_id);
  const report = (diag: Diagnostic) => {
    const key = `${diag.code}\u0000${diag.loc?.source}\u0000${diag.loc?.start.offset}`;
    if (!diagnostics.has(key)) diagnostics.set(key, diag);
  };
  // Runtimes and primitives sit in many chains: read and hash each file once per build.
  const cache = new Map<string, { read: ReturnType<typeof readToolMetadata>; hash: string }>();
  const memo = (text: string, ext: string) => {
    const key = `${ext}\u0000${text}`;
    let hit = cache.get(key);
    if (!hit) cache.set(key, (hit = { read: readToolMetadata(text, ext), hash: contentHash(text, "tool", `tool${ext}`) }));
    return hit;
  };
  const tools: CompiledTool[] = [];
  const seen = new Set<string>();
  const toolIds = new Set(sources.filter((s) => s.kind === "tool").map((s) => s.id));
  for (const src of sources) {
    if (src.kind !== "tool" || spaceOf(src) !== "project" || seen.has(src.id)) continue;
    seen.add(src.id);
    const own = memo(src.text, src.ext ?? "").read;
    if (Object.keys(own.metadata).length === 0) {
      const errors = own.problems.filter((x) => x.severity === "error");
      for (const p of errors) report(d.unreadableToolMetadata(loc(src.path, p.span), p.message));
      // Shown with --verbose: a file that compiles to nothing must say so (a .sh "tool" above all).
      if (errors.length === 0) report(d.skippedFile(loc(src.path), helperReason(src.ext ?? "")));
      continue;
    }
    const built = buildChain(src.id, finder, { integrity: (text, ext) => memo(text, ext).hash, readMetadata: (text, ext) => memo(text, ext).read });
    let failed = false;
    for (const issue of built.issues) {
      const last = built.chain.at(-1);
      const at = last ? executorLoc(last) : loc(src.path);
      if (issue.code === "metadata_problem") {
        const l = loc(issue.path ?? src.path, issue.span);
        report(issue.severity === "error" ? d.unreadableToolMetadata(l, issue.message) : d.ignoredToolMetadata(l, issue.message));
        failed ||= issue.severity === "error";
        continue;
      }
      failed = true;
      if (issue.code === "executor_not_found") report(d.executorNotFound(at, issue.itemId, src.id, didYouMeanId(issue.itemId, toolIds)));
      else if (issue.code === "circular_dependency") {
        const ids = built.chain.map((e) => e.item_id);
        report(d.circularChain(at, [...ids.slice(ids.indexOf(issue.itemId)), issue.itemId]));
      } else if (issue.code === "chain_too_deep") report(d.chainTooDeep(at, src.id, MAX_CHAIN_DEPTH));
    }
    // A primitive alone is nothing to run: it only ever executes at the end of a chain.
    if (failed || built.chain.length === 1) continue;
    const plan = planChain(built.chain);
    plan.files = built.chain.map((e) => fileOf(e, byPath.get(e.path)!.text));
    failed = checkSignatures(built.chain, byPath, report, loc) || failed;
    const { problems, known } = checkChainScopes(built.chain, plan.config);
    for (const p of problems) {
      const e = built.chain[p.element]!;
      const l = locText(e.path, p.raw, e.spans[p.field]);
      if (p.kind === "foreign") report(d.foreignPlaceholderInTool(l, p.raw, p.fix ?? ""));
      else if (p.kind === "lower_case_env") report(d.lowerCaseEnvVar(l, p.raw, p.fix ?? ""));
      else report(d.unknownRuntimeParam(l, p.raw, src.id, known));
      failed ||= p.kind !== "lower_case_env";
    }
    const spliced = checkSplicedValues(built.chain, plan.config);
    // The placeholder's own line of the template leads to the right one of several equal placeholders.
    const at = (s: PlaceholderSite) => {
      const e = built.chain[s.element]!;
      const line = locText(e.path, s.context, e.spans.config);
      const found = line.end.offset - line.start.offset === s.context.length;
      return locText(e.path, s.raw, found ? { start: { ...line.start, offset: line.end.offset - s.raw.length }, end: line.end } : e.spans.config);
    };
    for (const r of spliced.refused) report(d.unprovenShellContext(at(r), r.message));
    for (const r of spliced.inert) report(d.inertOnlySplice(at(r), r.raw, r.where));
    failed ||= spliced.refused.length > 0;
    if (spliced.script) report(d.shellScriptBySubstitution(at(spliced.script), spliced.script.shell, spliced.script.placeholders));
    const root = built.chain.at(-1)!;
    if (!PROCESS_PRIMITIVES.includes(root.item_id)) {
      const named = built.chain.at(-2);
      report(d.unrunnablePrimitive(named ? executorLoc(named) : loc(src.path), src.id, root.item_id, PROCESS_PRIMITIVES));
    }
    if (!failed) tools.push({ id: src.id, source: src.path, metadata: built.chain[0]!.metadata, plan });
  }
  return { tools, diagnostics: [...diagnostics.values()] };
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
