// The data of a directive module in the compact forms runtime/define-directive.ts expands: each is
// written that way only when the expansion gives back exactly the value (keys in the same order),
// and as it is otherwise.
import type { DirectiveAnalysis } from "../analyze/analysis.js";
import { CAPABILITY_PREFIX, DEFAULT_HOOKS, METADATA_KEYS, USUAL_CALL, USUAL_TYPE, type PlanSpec } from "../runtime/define-directive.js";
import type { DirectiveCall } from "../runtime/directive.js";

const sameKeys = (o: object, keys: readonly string[]) => {
  const own = Object.keys(o);
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
};

/**
 * The metadata with `permissions`, `inputs` and `outputs` as `metadataOf` reads them, where they fit,
 * and by position (`METADATA_KEYS`) when its keys come in that order.
 */
export function compactMetadata(meta: Record<string, unknown>): Record<string, unknown> | unknown[] {
  const out: Record<string, unknown> = { ...meta };
  const perms = meta.permissions;
  if (Array.isArray(perms) && perms.length > 0 && perms.every((p) => p && sameKeys(p, ["tag", "content"]) && p.tag === "cap" && typeof p.content === "string")) {
    const contents = perms.map((p: { content: string }) => p.content);
    // One string when every capability splits back exactly: `rye.` first, no space, none empty after it.
    const joinable = contents.every((c) => c.length > CAPABILITY_PREFIX.length && c.startsWith(CAPABILITY_PREFIX) && !c.includes(" "));
    out.permissions = joinable ? contents.map((c) => c.slice(CAPABILITY_PREFIX.length)).join(" ") : contents;
  }
  for (const key of ["inputs", "outputs"] as const) {
    const list = meta[key];
    if (!Array.isArray(list) || list.length === 0) continue;
    const rows = list.map((f: Record<string, unknown>) => row(f, key === "inputs"));
    if (rows.every((r) => r !== null)) out[key] = rows;
  }
  return byPosition(out) ?? out;
}

/** The values of `m` by position in `METADATA_KEYS` (holes where a key is absent), or null when its keys are not in that order. */
function byPosition(m: Record<string, unknown>): unknown[] | null {
  const values: unknown[] = [];
  let at = 0;
  for (const k of Object.keys(m)) {
    const i = METADATA_KEYS.indexOf(k as (typeof METADATA_KEYS)[number], at);
    // A hole reads back as an absent key: a value of `undefined` could not be told from one.
    if (i === -1 || m[k] === undefined) return null;
    values[i] = m[k];
    at = i + 1;
  }
  return values;
}

/** `[name, type, required, description, default]`, trailing absent ones left off, the type too when it is `string`; null when the field has another shape. */
function row(f: Record<string, unknown>, input: boolean): unknown[] | null {
  if (!f || typeof f !== "object" || typeof f.name !== "string" || typeof f.type !== "string" || typeof f.required !== "boolean") return null;
  const keys = ["name", "type", "required", ...(input && "default" in f ? ["default"] : []), ...("description" in f ? ["description"] : [])];
  if (!sameKeys(f, keys)) return null;
  if (("default" in f && typeof f.default !== "string") || ("description" in f && typeof f.description !== "string")) return null;
  const r: unknown[] = f.type === USUAL_TYPE ? [f.name, f.required ? 1 : 0] : [f.name, f.type, f.required ? 1 : 0];
  if (f.description !== undefined || f.default !== undefined) r.push(f.description);
  if (f.default !== undefined) r.push(f.default);
  return r;
}

/** The context plan, thread hooks and effective permissions as a `PlanSpec`: only what differs from the usual. */
export function planSpec(a: DirectiveAnalysis): PlanSpec {
  const c = a.context;
  const spec: PlanSpec = {};
  const chain = c?.chain ?? [a.id];
  if (chain.length !== 1 || chain[0] !== a.id) spec.chain = chain;
  for (const k of ["system", "before", "after", "suppress"] as const) if ((c?.[k] ?? []).length > 0) spec[k] = c![k];
  const from = c?.permissionsFrom ?? null;
  if (from !== a.id) spec.permissionsFrom = from;
  const hooks = (c?.hooks ?? []).map((h) => [h.id, h.event, h.position, h.wrap, h.condition, h.actions.map((x) => [x.item_id ?? "", x.item_type ?? ""] as const)] as const);
  // Conditions may hold values JSON cannot write (big ints): only hooks without one compare as text.
  const usual = hooks.length === DEFAULT_HOOKS.length && hooks.every((h) => h[4] === null) && JSON.stringify(hooks) === JSON.stringify(DEFAULT_HOOKS);
  if (!usual) spec.hooks = hooks as PlanSpec["hooks"];
  const permissions = (a.permissions ?? []).map((p) => p.content);
  const own = (a.data.permissions ?? []).map((p) => p.content);
  if (permissions.length !== own.length || permissions.some((p, i) => p !== own[i])) spec.permissions = permissions;
  return spec;
}

/**
 * Each call as `[primary, item_type, item_id, parameters, space]` when its target is the item it
 * names, and without its primary and space when they are the usual ones (`USUAL_CALL`).
 */
export function compactCalls(calls: readonly DirectiveCall[]): unknown[] {
  return calls.map((c) =>
    sameKeys(c, ["primary", "item_type", "item_id", "parameters", "target"]) &&
    c.target && sameKeys(c.target, ["kind", "id", "space"]) &&
    typeof c.item_type === "string" && typeof c.item_id === "string" && c.target.kind === c.item_type && c.target.id === c.item_id
      ? c.primary === USUAL_CALL[0] && c.target.space === USUAL_CALL[1]
        ? [c.item_type, c.item_id, c.parameters]
        : [c.primary, c.item_type, c.item_id, c.parameters, c.target.space]
      : c,
  );
}
