import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { DeclaredInput, DirectiveData, DirectiveLocations } from "../parse/directive-data.js";
import type { ParsedDirective } from "../parse/parse-directive.js";
import type { DirectiveContextPlan } from "../runtime/directive.js";
import { hooksFromDirective, type HookDef } from "./hooks.js";
import { standaloneCopy } from "./standalone-copy.js";

/**
 * A directive found in some space, as another directive's analysis may read it (as its parent or
 * a call's target): only these fields, so a build need not keep every directive's parse.
 */
export interface DirectiveEntry {
  id: string;
  space: string;
  data: Pick<DirectiveData, "extends" | "context" | "permissions"> & { inputs?: CalleeInput[] };
  locs: Pick<DirectiveLocations, "root" | "extends" | "context">;
  /** Its files exist but none parses: it is found (its own diagnostics say why), with no data. */
  failed?: true;
}

/** What a call to a directive is checked against: each input's name, whether it is required, and whether it has a default. */
export type CalleeInput = Pick<DeclaredInput, "name" | "required" | "default"> & { type?: string };

/** The directive being analysed, with its whole parse. */
export interface LeafEntry extends DirectiveEntry {
  parsed: ParsedDirective;
  data: DirectiveData;
}

/**
 * What is kept of a directive for the directives that look it up later: copied, so that it does
 * not keep the directive's parse or text alive (see standalone-copy.ts).
 */
export function lookupView(entry: DirectiveEntry): DirectiveEntry {
  const { extends: parent, context, permissions, inputs } = entry.data;
  const data: DirectiveEntry["data"] = {};
  if (parent !== undefined) data.extends = parent;
  if (context !== undefined) data.context = context;
  if (permissions !== undefined) data.permissions = permissions;
  // `<inputs>` inside `<metadata>` leaves a text field (an error of its own, RYE2015): no inputs.
  if (Array.isArray(inputs)) data.inputs = inputs.map(({ name, required, type, default: value }) => (value === undefined ? { name, required, type } : { name, required, type, default: value }));
  const { root, extends: extendsLoc, context: contextLocs } = entry.locs;
  const view: DirectiveEntry = { id: entry.id, space: entry.space, data: standaloneCopy(data), locs: standaloneCopy({ root, extends: extendsLoc, context: contextLocs }) };
  if (entry.failed) view.failed = true;
  return view;
}

/**
 * What a thread of this directive will be told, resolved at build time (seed 004): the plan its
 * module exports, with the hooks as defined (conditions are checked at run time).
 */
export interface ContextPlan extends Omit<DirectiveContextPlan, "hooks"> {
  hooks: HookDef[];
}

const POSITIONS = ["system", "before", "after"] as const;

/**
 * Walks `extends` leaf to root, then composes context root first, de-duplicated by first
 * occurrence, as the original's `_resolve_directive_chain`. Missing parents, cycles and missing
 * knowledge items are diagnostics located where they were written.
 */
export function resolveContext(
  leaf: LeafEntry,
  findDirective: (id: string) => DirectiveEntry | undefined,
  hasKnowledge: (id: string) => boolean,
  configHooks: readonly HookDef[],
): { plan: ContextPlan; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const chain: DirectiveEntry[] = [leaf];
  const seen = new Set([leaf.id]);
  let current: DirectiveEntry = leaf;
  while (current.data.extends) {
    const parentId = current.data.extends;
    const at = current.locs.extends ?? current.locs.root;
    if (seen.has(parentId)) {
      // A cycle is one mistake: it is reported once, by its member whose id sorts first, at that
      // member's own `extends`, listing the members. Directives that lead into it say nothing more.
      const members = chain.slice(chain.findIndex((c) => c.id === parentId)).map((c) => c.id);
      const first = [...members].sort()[0]!;
      if (leaf.id === first) diagnostics.push(d.circularExtends(leaf.locs.extends ?? leaf.locs.root, leaf.id, [...members, leaf.id]));
      break;
    }
    // Each directive embeds its chain's knowledge, so unbounded chains grow output quadratically.
    if (chain.length >= d.MAX_EXTENDS_DEPTH) {
      diagnostics.push(d.extendsTooDeep(leaf.locs.extends ?? leaf.locs.root, chain.length));
      break;
    }
    seen.add(parentId);
    const parent = findDirective(parentId);
    if (!parent) {
      diagnostics.push(d.missingParent(at, parentId, [...seen]));
      break;
    }
    chain.push(parent);
    current = parent;
  }
  chain.reverse();

  const plan: ContextPlan = { chain: chain.map((c) => c.id), system: [], before: [], after: [], suppress: [], permissionsFrom: null, hooks: [] };
  // Sets, not Array.includes: a chain may carry tens of thousands of ids, and a scan per id is quadratic.
  const listed = { system: new Set<string>(), before: new Set<string>(), after: new Set<string>(), suppress: new Set<string>() };
  for (const entry of chain) {
    const ctx = entry.data.context;
    if (!ctx) continue;
    for (const p of [...POSITIONS, "suppress"] as const) for (const id of ctx[p]) if (!listed[p].has(id)) listed[p].add(id), plan[p].push(id);
  }
  // The original's comment says "nearest parent", but its loop takes the root-most one; we follow the code.
  plan.permissionsFrom = leaf.data.permissions?.length ? leaf.id : (chain.slice(0, -1).find((c) => c.data.permissions?.length)?.id ?? null);

  const suppressed = new Set(plan.suppress);
  for (const p of POSITIONS) plan[p] = plan[p].filter((id) => !suppressed.has(id));
  const hooks = [...hooksFromDirective(leaf.data, leaf.id), ...configHooks].sort((a, b) => a.layer - b.layer);
  plan.hooks = hooks.filter((h) => !suppressed.has(h.id) && !h.actions.some((a) => a.item_id !== undefined && suppressed.has(a.item_id)));

  // Report missing knowledge where each entry was written (in whichever file of the chain).
  for (const entry of chain) {
    for (const c of entry.locs.context) {
      if (c.position !== "suppress" && !suppressed.has(c.id) && !hasKnowledge(c.id)) {
        diagnostics.push(d.missingKnowledge(c.loc, c.id, c.position));
      }
    }
  }
  const known = new Set([...POSITIONS.flatMap((p) => chain.flatMap((c) => c.data.context?.[p] ?? [])), ...hooks.flatMap((h) => [h.id, ...h.actions.map((a) => a.item_id ?? "")])]);
  for (const c of leaf.locs.context) {
    if (c.position === "suppress" && !known.has(c.id)) diagnostics.push(d.unusedSuppress(c.loc, c.id));
  }
  return { plan, diagnostics };
}
