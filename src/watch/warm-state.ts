// What a long-lived build (--watch) keeps of its sources and of its last committed build, so that a
// rebuild after an edit costs what the edit touches: the grouping of the sources by id (the
// compiler's and the fingerprints'), the signature diagnostics, the build timestamp, the tools and
// the registry types are patched file by file instead of recomputed from every source; the items
// with diagnostics and whether each compiled are read from the committed cache.
import type { CacheData } from "../cache/build-cache.js";
import { itemKey } from "../cache/build-cache.js";
import type { SourceGroups } from "../compile/compile-directives.js";
import type { BuildResult, WarmCompile } from "../compile/build.js";
import type { SourceFile } from "../model/source.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { RegistryEntry } from "../emit/emit-directive.js";
import { checkSourceSignatures } from "../sign/check-sources.js";
import { SourceStamps } from "../builder/signing.js";

/** What a committed full build hands to `WarmState`. */
export interface WarmStart {
  sources: readonly SourceFile[];
  cache: CacheData;
  /** From the compiler's result (`BuildResult.carried`) and its compiled ids. */
  compile: NonNullable<BuildResult["carried"]>;
  compiled: string[];
  /** The fingerprints' grouping (`Fingerprints.byId`). */
  fingerprints: Map<string, SourceFile[]>;
  stamps: SourceStamps;
  /** checkSourceSignatures of the sources, without a trust store. */
  signatures: Diagnostic[];
  directives: number;
}

export class WarmState {
  /** The sources the groupings describe (the last build's, committed or not). */
  private sources: readonly SourceFile[];
  readonly groups: SourceGroups;
  readonly fingerprints: Map<string, SourceFile[]>;
  readonly stamps: SourceStamps;
  readonly entries: Map<string, RegistryEntry>;
  /** Undefined after a tool's file changed, until the compiler has compiled the tools again. */
  tools: WarmCompile["tools"];
  /** The whole-build files of the last build (see `WarmCompile.shared`). */
  shared: WarmCompile["shared"];
  /** The committed build the rest describes: its cache, its compiled ids, its items with diagnostics. */
  cache: CacheData;
  compiled: string[];
  readonly directives: number;
  private readonly signatures = new Map<string, Diagnostic[]>();
  private readonly position = new Map<string, number>();
  private readonly noted = new Set<string>();
  private readonly byPath = new Map<string, SourceFile>();

  constructor(start: WarmStart) {
    this.sources = start.sources;
    this.groups = start.compile.groups;
    this.fingerprints = start.fingerprints;
    this.stamps = start.stamps;
    this.entries = start.compile.entries;
    this.tools = start.compile.tools;
    this.shared = start.compile.shared;
    this.cache = start.cache;
    this.compiled = start.compiled;
    this.directives = start.directives;
    for (const d of start.signatures) this.signed(d.loc?.source ?? "").push(d);
    this.groups.order.forEach((s, i) => this.position.set(itemKey(s.kind, s.id), i));
    for (const s of start.sources) this.byPath.set(s.path, s);
    for (const key in start.cache.items) this.note(key);
  }

  /**
   * Moves the groupings to `sources`; false when a file came, went or moved (then this state no
   * longer describes them and a full build replaces it).
   */
  advance(sources: readonly SourceFile[]): boolean {
    const before = this.sources;
    if (before.length !== sources.length) return false;
    const edits: [SourceFile, SourceFile][] = [];
    for (let i = 0; i < sources.length; i++) {
      const a = before[i]!;
      const b = sources[i]!;
      if (a === b) continue;
      if (a.path !== b.path || a.kind !== b.kind || a.id !== b.id || a.ext !== b.ext || a.space !== b.space) return false;
      edits.push([a, b]);
    }
    for (const [a, b] of edits) this.edit(a, b);
    this.sources = sources;
    return true;
  }

  /** Every project file's signature diagnostics (checkSourceSignatures, file by file). */
  signatureList(): Diagnostic[] {
    const all: Diagnostic[] = [];
    for (const ds of this.signatures.values()) all.push(...ds);
    return all;
  }

  /**
   * The project items a rebuild visits, in build order: the ones `affected` names (compiled again)
   * and the ones with diagnostics (answered from the cache, so every diagnostic is reported).
   */
  visit(affected: ReadonlySet<string>): SourceFile[] {
    const at = new Set<number>();
    for (const keys of [affected, this.noted]) {
      for (const key of keys) {
        const i = this.position.get(key);
        if (i !== undefined) at.add(i);
      }
    }
    return [...at].sort((a, b) => a - b).map((i) => this.groups.order[i]!);
  }

  /** The source at `path` among the sources last advanced to. */
  sourceAt(path: string): SourceFile | undefined {
    return this.byPath.get(path);
  }

  wasCompiled(src: SourceFile): boolean {
    return this.cache.items[itemKey(src.kind, src.id)]?.compiled === true;
  }

  /** A warm rebuild committed `next`: `changed` are the keys of the items it compiled. */
  committed(next: CacheData, changed: Iterable<string>, compiled: string[]): void {
    this.cache = next;
    this.compiled = compiled;
    for (const key of changed) this.note(key);
  }

  private note(key: string): void {
    const rec = this.cache.items[key];
    if (rec && (rec.parseDiagnostics.length > 0 || rec.diagnostics.length > 0)) this.noted.add(key);
    else this.noted.delete(key);
  }

  private signed(path: string): Diagnostic[] {
    let ds = this.signatures.get(path);
    if (!ds) this.signatures.set(path, (ds = []));
    return ds;
  }

  private edit(a: SourceFile, b: SourceFile): void {
    const swap = (list: SourceFile[]) => list.map((s) => (s === a ? b : s));
    const byId = this.groups.byId[a.kind];
    const group = byId.get(a.id);
    if (group) byId.set(a.id, swap(group));
    const key = itemKey(a.kind, a.id);
    const fps = this.fingerprints.get(key);
    if (fps) this.fingerprints.set(key, swap(fps));
    const i = this.position.get(key);
    if (i !== undefined && this.groups.order[i] === a) this.groups.order[i] = b;
    this.stamps.edit(a, b);
    if (this.byPath.get(a.path) === a) this.byPath.set(a.path, b);
    if (a.kind === "tool") this.tools = this.shared = undefined;
    if ((b.space ?? "project") === "project") {
      this.signatures.delete(a.path);
      const ds = checkSourceSignatures([b], null);
      if (ds.length > 0) this.signatures.set(b.path, ds);
    }
  }
}
