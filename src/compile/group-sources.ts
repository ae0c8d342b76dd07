// Sources by kind and id, in probing order: the index every lookup of a build goes through.
import * as d from "../diagnostics/codes.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ItemKind, SourceFile } from "../model/source.js";

/** Sources by kind and id, each id's files in probing order; and what the ids' files report on their own. */
export interface SourceGroups {
  byId: Record<ItemKind, Map<string, SourceFile[]>>;
  /** decisions.md #18: a second file of one id, kind and space. */
  duplicates: Diagnostic[];
  /** The project items in the order `compileDirectives` compiles them (or asks `reuse` about them): knowledge, then directives. */
  order: SourceFile[];
}

export const spaceOf = (s: SourceFile): string => s.space ?? "project";
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
