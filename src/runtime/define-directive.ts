// What a compiled directive module is made of besides its text and its `render()`: one factory
// builds `validate`, `renderThread`, the context plan, the thread plan and the default export from
// compact data, so a module does not repeat that code, and states each fact once (a hook's id and
// items serve both the exported context plan and the thread; knowledge placed in a thread is
// imported from its own module rather than copied).
import { validateDirective, type DirectiveCall, type DirectiveContextPlan, type DirectiveExports, type DirectiveMetadata, type PromptParts, type Rendered, type RenderOptions } from "./directive.js";
import { promptParts } from "./prompt-parts.js";
import { buildThread, threadContext, type CompiledHook, type KnowledgeBlock, type ThreadOptions, type ThreadPlan } from "./thread.js";
import type { DeclaredInput } from "./validate.js";

export { buildPrompt, defaultEnv, dollarPass, interpretWithEnv, own, requireInputs, secondPass, slices, solidEnd, solidStart, str, PyFloat } from "./directive.js";

/** A context hook as a module writes it: id, event, position, wrap, condition, then `[item_id, item_type]` per action. */
export type HookSpec = readonly [id: string, event: string, position: "before" | "after", wrap: boolean, condition: Record<string, unknown> | null, actions: readonly (readonly [string, string])[]];

/** The hooks every thread gets unless the project configures its own (seed 004's DirectiveInstruction). */
export const DEFAULT_HOOKS: readonly HookSpec[] = [["ctx_directive_instruction", "thread_started", "before", false, null, [["rye/agent/core/DirectiveInstruction", "knowledge"]]]];

/**
 * A directive's context as a module writes it: absent keys take their usual value (`chain`: the
 * directive alone, `permissionsFrom`: the directive, `hooks`: `DEFAULT_HOOKS`, lists: empty,
 * `permissions`: the capabilities of its own metadata).
 */
export interface PlanSpec {
  chain?: string[];
  system?: string[];
  before?: string[];
  after?: string[];
  suppress?: string[];
  permissionsFrom?: string | null;
  hooks?: readonly HookSpec[];
  permissions?: readonly string[];
}

/** A knowledge module as imported (`import * as k`), or a block written in place for an item that has no module in the output. */
export type KnowledgeSource = { readonly id: string; readonly metadata: Readonly<Record<string, unknown>>; readonly content: string } | KnowledgeBlock;

/** A call as a module writes it when its target is the item it names: `[primary, item_type, item_id, parameters, space]`. */
export type CallSpec = DirectiveCall | readonly [string, string, string, Record<string, unknown> | null, string];

/** `[name, type, required (1/0), description, default]`; null or a shorter row: the key is absent. */
export type FieldSpec = readonly [string, string, 0 | 1, (string | null)?, string?];

/**
 * Metadata as a module writes it: `permissions` may be a list of capability strings (each a
 * `{tag: "cap", content}`), `inputs` and `outputs` lists of `FieldSpec` rows. Expanded in place, so
 * every key keeps its position.
 */
export function metadataOf(m: Record<string, unknown>): DirectiveMetadata {
  const perms = m.permissions;
  if (Array.isArray(perms) && typeof perms[0] === "string") m.permissions = perms.map((content: string) => ({ tag: "cap", content }));
  for (const key of ["inputs", "outputs"]) {
    const rows = m[key];
    if (Array.isArray(rows) && Array.isArray(rows[0])) m[key] = (rows as FieldSpec[]).map((r) => field(r, key === "inputs"));
  }
  return m as DirectiveMetadata;
}

/** An `<input>` (name, type, required, default, description) or `<output>` (no default) in the parser's key order. */
function field(r: FieldSpec, input: boolean): DeclaredInput {
  const out: DeclaredInput = { name: r[0], type: r[1], required: r[2] === 1 };
  if (input && r[4] != null) out.default = r[4];
  if (r[3] != null) out.description = r[3];
  return out;
}

type Render<I> = (inputs: I, options?: RenderOptions) => Rendered;

/**
 * The exports of a compiled directive module other than its `render()` (which stays its own code),
 * and the prompt parts `render` builds the prompt from: `meta` is the metadata as `metadataOf` reads
 * it, `permissions` the content's permissions block as `promptParts` takes it.
 */
export function defineDirective<Id extends string, I>(
  id: Id,
  meta: Record<string, unknown>,
  permissionsBlock: string | null | undefined,
  render: Render<I>,
  defaults: Readonly<Record<string, string>>,
  spec: PlanSpec,
  callSpecs: readonly CallSpec[],
  knowledge: readonly KnowledgeSource[] = [],
): [DirectiveExports<Id, I>, PromptParts] {
  const metadata = metadataOf(meta);
  const blocks = new Map(knowledge.map((k) => (Array.isArray(k) ? [k[0], k as KnowledgeBlock] : blockOf(k as Exclude<KnowledgeSource, KnowledgeBlock>))));
  const hooks = spec.hooks ?? DEFAULT_HOOKS;
  const contextPlan: DirectiveContextPlan = {
    chain: spec.chain ?? [id],
    system: spec.system ?? [],
    before: spec.before ?? [],
    after: spec.after ?? [],
    suppress: spec.suppress ?? [],
    permissionsFrom: spec.permissionsFrom === undefined ? id : spec.permissionsFrom,
    hooks: hooks.map((h) => ({ id: h[0], event: h[1], position: h[2], wrap: h[3], items: h[5].map((a) => a[0]) })),
  };
  const found = (ids: string[]) => {
    const out: KnowledgeBlock[] = [];
    for (const x of ids) if (blocks.has(x)) out.push(blocks.get(x)!);
    return out;
  };
  const thread: ThreadPlan = {
    system: found(contextPlan.system),
    before: found(contextPlan.before),
    after: found(contextPlan.after),
    hooks: hooks.map((h): CompiledHook => ({
      id: h[0],
      event: h[1],
      position: h[2],
      wrap: h[3],
      condition: h[4],
      actions: h[5].map(([item_id, item_type]) => ({ item_id, item_type, block: item_type === "knowledge" && item_id ? (blocks.get(item_id) ?? null) : null })),
    })),
  };
  const permissions = spec.permissions ?? (metadata.permissions ?? []).map((p) => p.content);
  const calls = callSpecs.map(callOf);
  const validate = (params: unknown) => validateDirective<I>(id, metadata.inputs ?? [], params);
  const renderThread = (inputs: I, options?: RenderOptions & ThreadOptions) => {
    const rendered = render(inputs, options);
    const ctx = threadContext(id, metadata, permissions, rendered.body, (inputs ?? {}) as Record<string, unknown>, defaults, options);
    return buildThread(thread, rendered.prompt, ctx);
  };
  return [{ id, metadata, render, validate, renderThread, contextPlan, calls }, promptParts(metadata, permissionsBlock)];
}

function blockOf(k: Exclude<KnowledgeSource, KnowledgeBlock>): [string, KnowledgeBlock] {
  return [k.id, [k.id, typeof k.metadata.name === "string" ? k.metadata.name : "", k.content]];
}

function callOf(c: CallSpec): DirectiveCall {
  if (!Array.isArray(c)) return c as DirectiveCall;
  const [primary, item_type, item_id, parameters, space] = c as Extract<CallSpec, readonly unknown[]>;
  return { primary, item_type, item_id, parameters, target: { kind: item_type, id: item_id, space } };
}
