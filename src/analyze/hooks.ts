import { parse as parseYaml, YAMLError } from "yaml";
import * as d from "../diagnostics/codes.js";
import { LineIndex, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { DirectiveData } from "../parse/directive-data.js";
import { readBlockYaml } from "../parse/read-block-yaml.js";
import { YAML_1_1 } from "../parse/yaml-1-1-scalars.js";
import { MAX_YAML_DEPTH, yamlTooDeepAt } from "../parse/yaml-depth.js";
import { reportRefusedRegexes } from "./hook-regexes.js";

/** A context hook: on `event`, load knowledge items and inject them before or after the prompt. */
export interface HookDef {
  id: string;
  event: string;
  layer: number;
  position: "before" | "after";
  wrap: boolean;
  condition: Record<string, unknown> | null;
  actions: { primary?: string; item_type?: string; item_id?: string; params?: Record<string, unknown> }[];
  /** Where the hook was defined: a directive id or a config file path. */
  from: string;
}

/**
 * Seed 004's `ctx_directive_instruction`, used when no `hook_conditions.yaml` is found in any
 * space (decisions.md #2: DirectiveInstruction is context injected before the prompt, unwrapped).
 */
export const DEFAULT_CONTEXT_HOOKS: HookDef[] = [
  {
    id: "ctx_directive_instruction",
    event: "thread_started",
    layer: 2,
    position: "before",
    wrap: false,
    condition: null,
    actions: [{ primary: "execute", item_type: "knowledge", item_id: "rye/agent/core/DirectiveInstruction" }],
    from: "built-in (seed 004)",
  },
];

/** Context hooks of a `hook_conditions.yaml` (its `context_hooks` list). */
export function hooksFromConfig(text: string, from: string): HookDef[] {
  const doc = (readBlockYaml(text, YAML_1_1) ?? parseYaml(text, { version: "1.1" })) as { context_hooks?: Record<string, unknown>[] } | null;
  return (doc?.context_hooks ?? []).map((h, i) => toHook(h, from, `${from}#${i}`, 2));
}

/**
 * `hooksFromConfig` for a build: a file that does not parse is a located RYE3002 (file, line and
 * column of the YAML error) and configures no hooks, instead of failing the build elsewhere.
 */
export function readHookConfig(text: string, path: string): { hooks: HookDef[]; diagnostics: Diagnostic[] } {
  // Measured before composing: the yaml package and the conditions' evaluation recurse per level.
  const deep = yamlTooDeepAt(text);
  if (deep !== -1) return { hooks: [], diagnostics: [d.yamlTooDeep(new LineIndex(text).location(path, deep, deep + 1), MAX_YAML_DEPTH)] };
  try {
    // A hook whose regex is refused configures nothing: its condition could not be evaluated.
    const lines = new LineIndex(text);
    const diagnostics: Diagnostic[] = [];
    const hooks = hooksFromConfig(text, path).filter((h) => {
      const refused = reportRefusedRegexes(h.condition, text, 0, text.length, path, lines);
      for (const r of refused) diagnostics.push(r); // not push(...refused): the stack holds one argument per item
      return refused.length === 0;
    });
    return { hooks, diagnostics };
  } catch (e) {
    const offset = e instanceof YAMLError ? e.pos[0] : 0;
    const detail = (e instanceof Error ? e.message : String(e)).split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    return { hooks: [], diagnostics: [d.invalidHookYaml(new LineIndex(text).location(path, offset, offset + 1), detail)] };
  }
}

/** Hooks declared in a directive's `<hooks>` (layer 1 unless given). */
export function hooksFromDirective(data: DirectiveData, id: string): HookDef[] {
  return (data.hooks ?? []).map((h, i) => toHook(h, id, `${id}#hook${i}`, 1));
}

function toHook(h: Record<string, unknown>, from: string, fallbackId: string, layer: number): HookDef {
  const actions = Array.isArray(h.actions) ? (h.actions as HookDef["actions"]) : h.action ? [h.action as HookDef["actions"][number]] : [];
  const wrap = h.wrap === undefined ? true : !(h.wrap === false || h.wrap === "false");
  return {
    id: typeof h.id === "string" ? h.id : fallbackId,
    event: String(h.event ?? ""),
    layer: Number(h.layer ?? layer),
    position: h.position === "after" ? "after" : "before",
    wrap,
    condition: (h.condition as Record<string, unknown>) ?? null,
    actions,
    from,
  };
}
