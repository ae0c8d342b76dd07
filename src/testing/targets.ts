// What the cases run against: the compiled items, however they were loaded (compiled in memory,
// from built output through the verifying loader, or from a verified bundle).
import type { ItemKind } from "../model/source.js";
import type { Catalog, ItemShape } from "./check-cases.js";

export interface DirectiveTarget {
  metadata: { inputs?: { name: string; required?: boolean; default?: unknown }[] } & Record<string, unknown>;
  validate(params: unknown): { status: string; error?: string; inputs?: unknown; options?: Record<string, unknown> } & Record<string, unknown>;
  render(inputs: unknown, options?: { env?: Record<string, string> }): Record<string, unknown>;
  renderThread(inputs: unknown, options?: Record<string, unknown>): { system: string; messages: { content: string }[] };
  contextPlan?: { system: string[]; before: string[]; after: string[]; hooks: { items: string[] }[] };
  calls?: unknown[];
}

export interface KnowledgeTarget {
  metadata: Record<string, unknown>;
  content: string;
}

export interface ToolTarget {
  metadata?: Record<string, unknown>;
  plan?: { chain?: { item_id: string }[] } & Record<string, unknown>;
  execute(params: Record<string, unknown>, options?: Record<string, unknown>): Promise<{ status: string } & Record<string, unknown>>;
}

export type ToolResponse = { status: string } & Record<string, unknown>;
export type ToolRunner = (id: string, tool: ToolTarget, params: Record<string, unknown>, dryRun: boolean) => Promise<ToolResponse>;

/** The loaded items by id; an item in `broken` exists but did not compile. `absent` kinds are not carried at all (a bundle has no knowledge). */
export interface Targets {
  directive: Map<string, DirectiveTarget>;
  knowledge: Map<string, KnowledgeTarget>;
  tool: Map<string, ToolTarget>;
  broken: Map<ItemKind, Set<string>>;
  /** `kind:id` of items of `broken` that have no error but no module either (a chain's primitive). */
  moduleless?: Set<string>;
  absent: Set<ItemKind>;
  /** Runs a tool (for real, or a dry run) with the checks its source demands: set by the loader. */
  runTool?: ToolRunner;
  /** An item's provenance record (runtime/provenance.ts), when the items come from a signed build or bundle. */
  provenance?(kind: ItemKind, id: string): unknown;
  dispose(): void;
}

export const emptyBroken = (): Map<ItemKind, Set<string>> => new Map([["directive", new Set()], ["knowledge", new Set()], ["tool", new Set()]]);

/** The shapes the checks need, from the loaded items' own metadata. */
export function catalogOf(t: Targets): Catalog {
  const directive = new Map<string, ItemShape>();
  for (const [id, d] of t.directive) {
    const inputs = d.metadata.inputs ?? [];
    directive.set(id, { inputs: inputs.map((i) => i.name), required: inputs.filter((i) => i.required && i.default === undefined).map((i) => i.name), closed: inputs.length > 0 });
  }
  const knowledge = new Map<string, ItemShape>([...t.knowledge.keys()].map((id) => [id, { inputs: [], required: [], closed: true }]));
  const tool = new Map<string, ItemShape>();
  for (const [id, x] of t.tool) {
    const schema = (x.metadata?.config_schema ?? null) as { properties?: Record<string, unknown>; required?: string[] } | null;
    const props = schema?.properties ? Object.keys(schema.properties) : [];
    tool.set(id, { inputs: props, required: Array.isArray(schema?.required) ? schema.required.map(String) : [], closed: props.length > 0 });
  }
  // An item that exists but did not compile is still known: its cases fail as not compiled, not as unknown items.
  const open: ItemShape = { inputs: [], required: [], closed: false };
  for (const [kind, ids] of t.broken) for (const id of ids) ({ directive, knowledge, tool })[kind].set(id, open);
  const carried = <T>(kind: ItemKind, m: T) => (t.absent.has(kind) ? null : m);
  return { directive: carried("directive", directive), knowledge: carried("knowledge", knowledge), tool: carried("tool", tool) };
}
