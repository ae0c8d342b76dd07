import type { DirectiveAnalysis } from "../analyze/analysis.js";
import type { KnowledgeItem } from "../model/items.js";
import { emitKnowledge } from "./emit-knowledge.js";
import { emitDirective, sameEntry, type RegistryEntry } from "./emit-directive.js";
import { emitIndex, emitToolsIndex } from "./emit-index.js";
import type { DeclarationMapOptions } from "./declaration-map.js";
import { emitTool } from "./emit-tool.js";
import type { CompiledTool } from "../model/items.js";

/**
 * Where an item's TypeScript source goes: under `ts/`, not beside its `.js`. TypeScript resolves
 * `./x.js` to `x.ts` before `x.d.ts`, so a source next to the declarations would make every
 * consumer type-check every module body; `ts/` mirrors the tree so its relative imports still work.
 */
export const TS_DIR = "ts/";

/**
 * One item's module files, keyed by output path: the `.js` and `.d.ts` consumers load, and with
 * `ts` (`rye build --emit-ts`) its TypeScript source under `ts/`. Off by default: the source holds
 * the same text as the `.js` and would double the output for no consumer (see README, "What out/ holds").
 */
export function moduleFiles(m: { path: string; js: string; ts: string; dts: string }, ts = false): Map<string, string> {
  const files = new Map([[`${m.path}.js`, m.js]]);
  if (ts) files.set(`${TS_DIR}${m.path}.ts`, m.ts);
  files.set(`${m.path}.d.ts`, m.dts);
  return files;
}

/** What `emit` writes besides the `.js` and `.d.ts` of every item. */
export interface EmitOptions {
  /** Also the TypeScript source of every module, under `ts/`. */
  ts?: boolean;
  /** Where the sources are from the output folder: `index.d.ts` then maps its registry to each directive's `.md` (see declaration-map.ts). */
  declarationMap?: DeclarationMapOptions;
  /** The sha256 of the source at a path (an item's `source`), for each module's `provenance`. */
  sourceSha256?: (source: string) => string | undefined;
}

/** The files that depend on the whole build, not on one item: the two registries and out/package.json. */
export function emitShared(ids: readonly string[], version: string, toolIds: readonly string[] = [], entries: ReadonlyMap<string, RegistryEntry> = new Map(), options: EmitOptions = {}): Map<string, string> {
  // A watching process rebuilds these after every change; the registry of 10k ids is worth keeping.
  // Compared entry by entry: an unchanged item's registry entry is the very object of the last build.
  const registry = ids.map((id) => entries.get(id));
  const last = lastShared;
  if (
    last && last.version === version && last.ts === Boolean(options.ts) && sameMapOptions(last.declarationMap, options.declarationMap) &&
    sameList(last.ids, ids) && sameList(last.registry, registry, sameEntry) && sameList(last.toolIds, toolIds)
  ) return new Map(last.files);
  const files = new Map<string, string>();
  for (const [name, registry] of [["index", emitIndex(ids, version, entries, options.declarationMap)], ["tools", emitToolsIndex(toolIds, version)]] as const) {
    files.set(`${name}.js`, registry.js);
    if (options.ts) files.set(`${TS_DIR}${name}.ts`, registry.ts);
    files.set(`${name}.d.ts`, registry.dts);
  }
  // The output is ES modules whatever the enclosing project's package.json says.
  files.set("package.json", `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`);
  lastShared = { version, ts: Boolean(options.ts), declarationMap: options.declarationMap, ids: [...ids], registry, toolIds: [...toolIds], files: new Map(files) };
  return files;
}
let lastShared:
  | { version: string; ts: boolean; declarationMap: DeclarationMapOptions | undefined; ids: readonly string[]; registry: readonly (RegistryEntry | undefined)[]; toolIds: readonly string[]; files: ReadonlyMap<string, string> }
  | undefined;
const sameMapOptions = (a: DeclarationMapOptions | undefined, b: DeclarationMapOptions | undefined) => a === b || (a?.sourceRoot === b?.sourceRoot);
const sameList = <T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean = Object.is) => a.length === b.length && a.every((x, i) => same(x, b[i] as T));

/** Emits every analysed directive plus the registry, as output-relative path → file text. */
export function emit(analyses: readonly DirectiveAnalysis[], version: string, knowledge: readonly KnowledgeItem[] = [], tools: readonly CompiledTool[] = [], options: EmitOptions = {}): Map<string, string> {
  const files = new Map<string, string>();
  const sha = (source: string) => options.sourceSha256?.(source) ?? null;
  for (const k of knowledge) for (const [path, text] of moduleFiles(emitKnowledge(k, version, { ts: options.ts === true, sourceSha256: sha(k.source) }), options.ts)) files.set(path, text);
  const entries = new Map<string, RegistryEntry>();
  for (const a of analyses) {
    const m = emitDirective(a, version, { ts: options.ts === true, sourceSha256: sha(a.source) });
    entries.set(a.id, m.registry);
    for (const [path, text] of moduleFiles(m, options.ts)) files.set(path, text);
  }
  for (const t of tools) for (const [path, text] of moduleFiles(emitTool(t, version, sha(t.source)), options.ts)) files.set(path, text);
  for (const [path, text] of emitShared(analyses.map((a) => a.id), version, tools.map((t) => t.id), entries, options)) files.set(path, text);
  return files;
}
