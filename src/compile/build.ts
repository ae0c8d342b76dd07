// The compiler as a pure function: sources in, output files and diagnostics out. No I/O here;
// the build engine (src/builder/) reads the project and writes the output folder.
import { compileDirectives, type CompileScope, type ItemOutcome, type SourceGroups } from "./compile-directives.js";
import { compileTools, type CompiledTool } from "./compile-tools.js";
import { sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { emit, emitShared, moduleFiles } from "../emit/index.js";
import { emitDirective, sameEntry, type RegistryEntry } from "../emit/emit-directive.js";
import type { DeclarationMapOptions } from "../emit/declaration-map.js";
import { emitKnowledge } from "../emit/emit-knowledge.js";
import { emitTool } from "../emit/emit-tool.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import { sha256Hex } from "../sign/hash-region.js";

export interface BuildOptions {
  /** The first `.ai/config/agent/hook_conditions.yaml` found across the spaces, if any. */
  hookConfig?: { path: string; text: string } | null;
  /**
   * Incremental and streaming builds: each project directive and knowledge item's files go to
   * `onItem` as soon as they are emitted (null when the item produced none) instead of into the
   * result, and items `reuse` answers for are skipped. `files` then holds only whole-build files.
   */
  items?: BuildItemHooks;
  /** Also emit each module's TypeScript source under `ts/` (`rye build --emit-ts`). */
  emitTs?: boolean;
  /** Where the sources are from the output folder: `index.d.ts` then maps to each directive's `.md` (see `EmitOptions.declarationMap`). */
  declarationMap?: DeclarationMapOptions;
  /** A warm rebuild (with `items`): see `WarmCompile`. */
  warm?: WarmCompile;
  /** `groupSources` of these sources, when the caller has made it already. */
  groups?: SourceGroups;
}

/**
 * What a warm rebuild (--watch) carries over from the last build instead of recomputing it: the
 * items to visit and the grouping (see `CompileScope`), each directive's registry type by id
 * (updated here for the items visited), and the tools when none changed.
 */
export interface WarmCompile extends CompileScope {
  entries: Map<string, RegistryEntry>;
  tools?: ToolsResult;
  /** The whole-build files of the last build and what they were made from: kept when none of it moved. */
  shared?: SharedFiles;
}

type ToolsResult = { tools: CompiledTool[]; diagnostics: Diagnostic[] };
type SharedFiles = { compiled: string[]; tools: ToolsResult; files: ReadonlyMap<string, string> };

/** See `BuildOptions.items`. */
export interface BuildItemHooks {
  /** Should answer with the outcome `onItem` was given: a directive's carries its `registry` type for `index.d.ts`. */
  reuse?(src: SourceFile): ItemOutcome | undefined;
  onLookup?(from: SourceFile, kind: ItemKind, id: string): void;
  onItem(src: SourceFile, outcome: ItemOutcome, files: Map<string, string> | null): void;
  /** True once the build is known to fail (it will write nothing): later items are checked but not emitted. */
  failed?(): boolean;
  /** False: items only, no whole-build files (a parallel build's share: the main thread emits those once). */
  wholeBuild?: boolean;
}

export interface BuildResult {
  /** Output-relative path → file text (directive modules and the index). */
  files: Map<string, string>;
  diagnostics: Diagnostic[];
  /** Ids compiled without errors. */
  compiled: string[];
  /** Tool ids compiled without errors (modules under `tools/`). */
  tools?: string[];
  /** With `items`: what a later warm rebuild carries over (see `WarmCompile`). */
  carried?: { groups: SourceGroups; entries: Map<string, RegistryEntry>; tools: ToolsResult; shared: SharedFiles };
}

/** Compiles a project: parse → analyze → emit. An item with errors is reported and not emitted. */
export function build(sources: readonly SourceFile[], version: string, options: BuildOptions = {}): BuildResult {
  const items = options.items;
  // Each module's provenance names its source's sha256 (as the manifest does): looked up only for the few modules emitted from the list.
  let texts: Map<string, string> | undefined;
  const shaOf = (path: string) => {
    const text = (texts ??= new Map(sources.map((s) => [s.path, s.text]))).get(path);
    return text === undefined ? undefined : sha256Hex(text);
  };
  const ts = options.emitTs === true;
  if (items) {
    // Each directive's registry type travels with its outcome, so a reused item (not re-analysed) still has it.
    const warm = options.warm;
    const entries = warm ? warm.entries : new Map<string, RegistryEntry>();
    let moved = false;
    const entry = (id: string, registry: RegistryEntry) => {
      if (!sameEntry(entries.get(id), registry)) (moved = true), entries.set(id, registry);
    };
    const reuse = items.reuse;
    // Tools first: a build that already has an error writes nothing, so its items are checked, not emitted.
    const tools = warm?.tools ?? compileTools(sources);
    const toolsFailed = tools.diagnostics.some((x) => x.severity === "error");
    const emitting = () => !toolsFailed && items.failed?.() !== true;
    const { diagnostics, compiled, groups } = compileDirectives(sources, options.hookConfig ?? null, {
      reuse: reuse && ((src) => {
        const outcome = reuse(src) as (ItemOutcome & { registry?: unknown }) | undefined;
        if (src.kind === "directive" && isRegistryEntry(outcome?.registry)) entry(src.id, outcome.registry);
        return outcome;
      }),
      onLookup: items.onLookup,
      onKnowledge: (src, outcome, k) => items.onItem(src, outcome, k && emitting() ? moduleFiles(emitKnowledge(k, version, { ts, sourceSha256: sha256Hex(src.text) }), ts) : null),
      onDirective: (src, outcome, a) => {
        if (!a || !emitting()) return items.onItem(src, outcome, null);
        const m = emitDirective(a, version, { ts, sourceSha256: sha256Hex(src.text) });
        entry(a.id, m.registry);
        const carried: ItemOutcome & { registry: RegistryEntry } = Object.assign({}, outcome, { registry: m.registry });
        items.onItem(src, carried, moduleFiles(m, ts));
      },
    }, warm, options.groups);
    if (items.wholeBuild === false) return { files: new Map(), diagnostics, compiled, tools: tools.tools.map((t) => t.id) };
    // Tools are few and cheap: compiled every build, written only when their text changes.
    const last = warm?.shared;
    const kept = last && !moved && last.compiled === compiled && last.tools === tools;
    const files = kept ? new Map(last.files) : emitShared(compiled, version, tools.tools.map((t) => t.id), entries, { ts, declarationMap: options.declarationMap });
    if (!kept) for (const t of tools.tools) for (const [path, text] of moduleFiles(emitTool(t, version, shaOf(t.source)), ts)) files.set(path, text);
    const shared = kept ? last : { compiled, tools, files: new Map(files) };
    return { files, diagnostics: sortDiagnostics([...diagnostics, ...tools.diagnostics]), compiled, tools: tools.tools.map((t) => t.id), carried: { groups, entries, tools, shared } };
  }
  const { analyses, knowledge, diagnostics } = compileDirectives(sources, options.hookConfig ?? null);
  const tools = compileTools(sources);
  return { files: emit(analyses, version, knowledge, tools.tools, { ts, declarationMap: options.declarationMap, sourceSha256: shaOf }), diagnostics: sortDiagnostics([...diagnostics, ...tools.diagnostics]), compiled: analyses.map((a) => a.id), tools: tools.tools.map((t) => t.id) };
}

/** A registry entry as a cached outcome carries it (read back from JSON: checked, not trusted). */
function isRegistryEntry(v: unknown): v is RegistryEntry {
  const e = v as RegistryEntry | null | undefined;
  return typeof e === "object" && e !== null && typeof e.text === "string" && typeof e.source === "string" && typeof e.map === "string";
}
