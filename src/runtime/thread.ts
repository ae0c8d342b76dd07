// Assembles a thread's system message and first user message from a compiled directive's
// context plan, as the original runner does (seed 004 "Message Assembly Order"). Knowledge
// content is embedded at build time, so nothing is read from disk here.
import { interpolateContext, matches } from "./context/index.js";
import { pyStrip } from "./pystr.js";
import { pyDict, pyGet, pyItems, type PyDict, type PyValue } from "./py-value.js";

/** One knowledge item embedded in a compiled module: id, its `name` (the wrap tag) and its body. */
export type KnowledgeBlock = readonly [id: string, name: string, content: string];

/** A context hook as compiled: its knowledge already loaded (a null block: the item was not found). */
export interface CompiledHook {
  id: string;
  event: string;
  position: "before" | "after";
  wrap: boolean;
  condition: Record<string, unknown> | null;
  actions: { item_id: string; item_type: string; block: KnowledgeBlock | null }[];
}

/** The context part of a compiled directive. */
export interface ThreadPlan {
  system: KnowledgeBlock[];
  before: KnowledgeBlock[];
  after: KnowledgeBlock[];
  hooks: CompiledHook[];
}

/**
 * What the original's directive executor takes out of the parameters before validating them
 * (`validate()` returns them here), for the thread rather than the directive's inputs.
 */
export interface ExecutionOptions {
  /** The model the thread runs with (the hook context's `model`); empty means the directive's own. */
  model?: string;
  /** Limits over the directive's `<limits>` (`turns`, `spend`, …): the hook context's `limits`. */
  limit_overrides?: PyDict;
  /** The thread this one continues; carried for the caller, not used in rendering. */
  previous_thread_id?: string;
}

export interface ThreadOptions extends ExecutionOptions {
  /** Extra hook-context values (e.g. `depth`, `project_path`). */
  context?: Record<string, unknown>;
}

/** The messages a thread starts with. */
export interface Thread {
  system: string;
  messages: { role: "user"; content: string }[];
}

/** Runs the context hooks of `event`, returning the before/after blocks joined as the original does. */
export function runContextHooks(hooks: readonly CompiledHook[], event: string, ctx: Record<string, unknown>): { before: string; after: string } {
  const before: string[] = [];
  const after: string[] = [];
  for (const hook of hooks) {
    if (hook.event !== event || !matches(ctx, hook.condition ?? {})) continue;
    for (const action of hook.actions) {
      if (!action.block || !action.block[2]) continue;
      const [, name, raw] = action.block;
      const content = raw.includes("${") || raw.includes("{input:") ? String(interpolateContext(raw, ctx) ?? "") : raw;
      const tag = name || action.item_id.slice(action.item_id.lastIndexOf("/") + 1) || "context";
      const type = action.item_type ? ` type="${action.item_type}"` : "";
      const block = hook.wrap ? `<${tag} id="${action.item_id}"${type}>\n${pyStrip(content)}\n</${tag}>` : pyStrip(content);
      (hook.position === "after" ? after : before).push(block);
    }
  }
  return { before: before.join("\n\n"), after: after.join("\n\n") };
}

const joinBlocks = (blocks: readonly KnowledgeBlock[]) =>
  blocks
    .map((b) => pyStrip(b[2]))
    .filter(Boolean)
    .join("\n\n");

/** System message and first user message: hook before, directive before, prompt, directive after, hook after. */
export function buildThread(plan: ThreadPlan, prompt: string, ctx: Record<string, unknown>): Thread {
  const sys = runContextHooks(plan.hooks, "build_system_prompt", ctx);
  const hookSystem = [sys.before, sys.after].filter(Boolean).join("\n\n");
  const directiveSystem = joinBlocks(plan.system);
  const system = hookSystem && directiveSystem ? `${hookSystem}\n\n${directiveSystem}` : hookSystem || directiveSystem;
  const started = runContextHooks(plan.hooks, "thread_started", ctx);
  const parts = [started.before, joinBlocks(plan.before), prompt, joinBlocks(plan.after), started.after].filter((p, i) => i === 2 || p);
  return { system, messages: [{ role: "user", content: parts.join("\n\n") }] };
}

/**
 * The hook context a fresh thread's `thread_started` hooks see, with the original runner's keys;
 * `options.model` names the model (default: the directive's model id, else its tier) and
 * `options.limit_overrides` replace or add limits, as the original resolves them.
 */
export function threadContext(
  id: string,
  metadata: { model?: Record<string, string>; limits?: Readonly<Record<string, PyValue>> },
  permissions: readonly string[],
  body: string,
  inputs: Record<string, unknown>,
  defaults: Readonly<Record<string, unknown>>,
  options: ThreadOptions | undefined,
): Record<string, unknown> {
  // {**limits, **overrides}: an override keeps the limit's place, a new key goes last.
  const items = [...pyItems(metadata.limits ?? {}), ...(options?.limit_overrides ? pyItems(options.limit_overrides) : [])];
  const limits = pyDict(items.map(([k, v]) => [String(k), v] as const));
  // No prototype: inputs named `constructor` or `__proto__` are plain keys.
  const withDefaults: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, inputs);
  for (const [k, v] of Object.entries(defaults)) if (withDefaults[k] === undefined) withDefaults[k] = v;
  return {
    directive: id,
    directive_body: body,
    model: options?.model || metadata.model?.id || metadata.model?.tier || "",
    limits,
    inputs: withDefaults,
    project_path: "",
    depth: 0,
    parent_thread_id: "none",
    spend_limit: pyGet(limits, "spend") ?? "unlimited",
    max_turns: pyGet(limits, "turns") ?? "unlimited",
    capabilities_summary: permissions.length > 0 ? permissions.join(", ") : "unrestricted",
    ...options?.context,
  };
}
