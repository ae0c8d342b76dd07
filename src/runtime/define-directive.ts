// What a compiled directive module is made of besides its text and its `render()`: one factory
// builds `validate`, `renderThread`, the context plan, the thread plan and the default export from
// compact data, so a module does not repeat that code, and states each fact once (a hook's id and
// items serve both the exported context plan and the thread; knowledge placed in a thread is
// imported from its own module rather than copied).
import { buildPrompt, dollarPass, requireInputs, validateDirective, type DirectiveCall, type DirectiveContextPlan, type DirectiveExports, type DirectiveMetadata, type PromptParts, type Rendered, type RenderOptions } from "./directive.js";
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

/**
 * A call as a module writes it when its target is the item it names: `[primary, item_type, item_id,
 * parameters, space]`, or `[item_type, item_id, parameters]` for the usual `execute` in the project space.
 */
export type CallSpec = DirectiveCall | readonly [string, string, string, Record<string, unknown> | null, string] | readonly [string, string, Record<string, unknown> | null];

/** The primary and space of a call written as a three-value row. */
export const USUAL_CALL = ["execute", "project"] as const;

/** `[name, type, required (1/0), description, default]`, or without the type when it is `USUAL_TYPE`; null or a shorter row: the key is absent. */
export type FieldSpec = readonly [string, string, 0 | 1, (string | null)?, string?] | readonly [string, 0 | 1, (string | null)?, string?];

/** The type of a field whose row leaves it out (`[name, required, …]`). */
export const USUAL_TYPE = "string";

/**
 * The metadata keys a module may write by position (`[name, version, , description, …]`, a hole
 * where a key is absent), in the order the parser gives them. Only metadata whose keys come in this
 * order is written so; any other is an object.
 */
export const METADATA_KEYS = ["name", "version", "extends", "description", "category", "author", "model", "limits", "permissions", "context", "hooks", "inputs", "outputs", "templates", "preamble"] as const;

/** The prefix every capability of a capability string (`permissions: "execute.tool.x.* …"`) lost. */
export const CAPABILITY_PREFIX = "rye.";

/**
 * Metadata as a module writes it: an object, or values by position (`METADATA_KEYS`). `permissions`
 * may be a list of capability strings (each a `{tag: "cap", content}`), or one string of them
 * without their `rye.`, space-separated; `inputs` and `outputs` lists of `FieldSpec` rows.
 * Expanded in place, so every key keeps its position.
 */
export function metadataOf(written: Record<string, unknown> | readonly unknown[]): DirectiveMetadata {
  const m = Array.isArray(written) ? byPosition(written) : (written as Record<string, unknown>);
  const perms = m.permissions;
  if (typeof perms === "string") m.permissions = perms.split(" ").map((c) => ({ tag: "cap", content: CAPABILITY_PREFIX + c }));
  else if (Array.isArray(perms) && typeof perms[0] === "string") m.permissions = perms.map((content: string) => ({ tag: "cap", content }));
  for (const key of ["inputs", "outputs"]) {
    const rows = m[key];
    if (Array.isArray(rows) && Array.isArray(rows[0])) m[key] = (rows as FieldSpec[]).map((r) => field(r, key === "inputs"));
  }
  return m as DirectiveMetadata;
}

function byPosition(values: readonly unknown[]): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  for (let i = 0; i < values.length; i++) if (i in values) m[METADATA_KEYS[i]!] = values[i];
  return m;
}

/** An `<input>` (name, type, required, default, description) or `<output>` (no default) in the parser's key order. */
function field(spec: FieldSpec, input: boolean): DeclaredInput {
  const r = (typeof spec[1] === "number" ? [spec[0], USUAL_TYPE, ...spec.slice(1)] : spec) as readonly [string, string, 0 | 1, (string | null)?, string?];
  const out: DeclaredInput = { name: r[0], type: r[1], required: r[2] === 1 };
  if (input && r[4] != null) out.default = r[4];
  if (r[3] != null) out.description = r[3];
  return out;
}

type Render<I> = (inputs: I, options?: RenderOptions) => Rendered;

/**
 * `render()`'s usual ending, for a module whose render is the usual one: the body, a raw text made
 * of the body with fixed text around it, a fixed content, no actions, and a prompt that holds the
 * body as it is. `b` is the body with every `{input:}` ref filled, `values` the values filled in:
 * when none holds a `$`, no `${inputs.x}` can appear and the original's second pass would
 * change nothing; else it runs, exactly.
 */
export type Finish = (p: Readonly<Record<string, unknown>>, b: string, ...values: string[]) => Rendered;

/** True when no value holds a `$`. Tested one by one: joining them first would copy them all. */
function plainValues(values: readonly string[]): boolean {
  for (let i = 0; i < values.length; i++) if (values[i]!.includes("$")) return false;
  return true;
}

/** Throws, as the original refuses to render, when an input that is required and has no default is missing. */
export type Need = (p: Readonly<Record<string, unknown>>) => void;

/** What `render()` needs besides its text: `Finish` when the module asked for it, `Need`, the prompt parts and the declared defaults. */
export type RenderKit = [finish: Finish, need: Need, prompt: PromptParts, defaults: Readonly<Record<string, string>>];

/**
 * The exports of a compiled directive module other than its `render()` (which stays its own code),
 * and what `render()` is made with: `meta` is the metadata as `metadataOf` reads it, `permissions`
 * the content's permissions block as `promptParts` takes it, `usual` (raw text before and after the
 * body, content) the fixed parts of a usual render (see `Finish`). A module leaves off the trailing
 * arguments that have their default.
 */
export function defineDirective<Id extends string, I>(
  id: Id,
  meta: Record<string, unknown> | readonly unknown[],
  permissionsBlock: string | null | undefined,
  render: Render<I>,
  usual: readonly [rawHead: string, rawTail: string, content: string] | null = null,
  spec: PlanSpec = {},
  callSpecs: readonly CallSpec[] = [],
  knowledge: readonly KnowledgeSource[] = [],
): [DirectiveExports<Id, I>, ...RenderKit] {
  const metadata = metadataOf(meta);
  const defaults = defaultsOf(metadata.inputs ?? []);
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
  const parts = promptParts(metadata, permissionsBlock);
  const finish = usual ? finisher(parts, defaults, usual) : unusual;
  return [{ id, metadata, render, validate, renderThread, contextPlan, calls }, finish, needOf(id, metadata.inputs ?? []), parts, defaults];
}

/** `Need` for the inputs that are required and have no default, in their declared order. */
function needOf(id: string, inputs: readonly DeclaredInput[]): Need {
  const required = inputs.filter((i) => i.required && i.default === undefined).map((i) => i.name);
  return (p) => {
    for (let i = 0; i < required.length; i++) {
      const name = required[i]!;
      if (!Object.hasOwn(p, name) || p[name] === undefined) requireInputs(id, p, required);
    }
  };
}

/** The defaults `render()` fills absent inputs with: the first declared default of each name. */
function defaultsOf(inputs: readonly DeclaredInput[]): Record<string, string> {
  // No prototype: input names such as `constructor` or `__proto__` must be plain keys here.
  const out: Record<string, string> = Object.create(null);
  for (const i of inputs) if (i.default !== undefined && !(i.name in out)) out[i.name] = i.default as string;
  return out;
}

function finisher(parts: PromptParts, defaults: Readonly<Record<string, string>>, [rawHead, rawTail, content]: readonly [string, string, string]): Finish {
  // The prompt around the body as `buildPrompt` joins it, when nothing is stripped from the body's ends.
  let head = "";
  let tail = "";
  for (const x of [parts.open, parts.permissions ?? null]) if (x !== null) head += `${x}\n`;
  for (const x of [parts.returns, parts.open !== null ? "</directive>" : null]) if (x !== null) tail += `\n${x}`;
  return (p, b, ...values) => {
    if (plainValues(values)) return { body: b, content, raw: rawHead + b + rawTail, actions: [], prompt: head + b + tail };
    const body = dollarPass(b, p, defaults);
    return { body, content, raw: dollarPass(rawHead + b + rawTail, p, defaults), actions: [], prompt: buildPrompt(parts, content, body) };
  };
}

const unusual: Finish = () => {
  throw new TypeError("this module's render() does not end the usual way");
};

function blockOf(k: Exclude<KnowledgeSource, KnowledgeBlock>): [string, KnowledgeBlock] {
  return [k.id, [k.id, typeof k.metadata.name === "string" ? k.metadata.name : "", k.content]];
}

function callOf(c: CallSpec): DirectiveCall {
  if (!Array.isArray(c)) return c as DirectiveCall;
  const row = c as readonly unknown[];
  const [primary, item_type, item_id, parameters, space] = (row.length === 3 ? [USUAL_CALL[0], ...row, USUAL_CALL[1]] : row) as [string, string, string, Record<string, unknown> | null, string];
  return { primary, item_type, item_id, parameters, target: { kind: item_type, id: item_id, space } };
}
