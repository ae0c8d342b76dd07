import { parsePyJson, pyJsonDumps } from "../py-json.js";

/** The portable form of a chain element, as responses and lockfiles carry it (`_chain_element_to_dict`). */
export interface ChainDict {
  item_id: string;
  space: string;
  tool_type: unknown;
  executor_id: unknown;
  integrity: string | null;
}

/** Template variables derived from the chain's paths (`_compute_anchor_context`), before run-time overrides. */
export interface PlanContext {
  tool_path: string;
  tool_dir: string;
  tool_parent: string;
  /** The tool's directory until an active anchor resolves it. */
  anchor_path: string;
  /** `<dir of the element with anchor.lib>/<lib>`, or "" when no element names one. */
  runtime_lib: string;
  project_path?: string;
  user_space?: string;
  system_space?: string;
}

/** One element's `config_resolve` spec, resolved from `.ai/config/` at run time. */
export interface ConfigResolveStep {
  /** Position in the chain: 0 is the tool itself (its config goes to `resolved_config`). */
  index: number;
  item_id: string;
  spec: unknown;
  /** Keys, besides `timeout`, that the element accepts from the resolved execution config. */
  execution_params: string[];
}

/**
 * Everything the executor needs from a resolved chain, decided at build time: a JSON-serialisable
 * value emitted into the tool's module. Only `${VAR}`/`{param}` templating and the spawn remain.
 */
export interface ChainPlan {
  item_id: string;
  chain: ChainDict[];
  validation: { valid: boolean; issues: string[]; validated_pairs: number };
  root: { item_id: string; executor_id: unknown };
  /** Every element's `config` merged shallowly: the primitive's first, each element toward the tool overriding. */
  config: Record<string, unknown>;
  /** The elements' `env_config` blocks, primitive first: the order both env merges walk. */
  env_configs: { item_id: string; env_config: Record<string, unknown> }[];
  /** The first element's (tool-most) `anchor` settings, or null. */
  anchor: Record<string, unknown> | null;
  /** The first element's (tool-most) `verify_deps` settings, or null. */
  verify_deps: Record<string, unknown> | null;
  config_resolve: ConfigResolveStep[];
  context: PlanContext;
  /** Each element's file with the SHA-256 of the text it was compiled from, re-checked before a run. */
  files?: PlanFile[];
}

/** A chain element's file as compiled: relative paths are relative to the project root. */
export interface PlanFile {
  item_id: string;
  path: string;
  sha256: string;
  /** True when the file carries a `rye:signed:` line (verified at build time). */
  signed: boolean;
}

/** Primitive ids the executor can run: the current `execute` primitive and its earlier `subprocess` name. */
export const PROCESS_PRIMITIVES: readonly string[] = ["rye/core/primitives/execute", "rye/core/primitives/subprocess"];

/** Serialises a plan as JSON text that keeps Python floats (`1.0`) distinct from ints, for emitting. */
export function planToJson(plan: ChainPlan): string {
  return pyJsonDumps(plan);
}

/** Reads a plan written by `planToJson`, restoring floats as PyFloat. */
export function planFromJson(text: string): ChainPlan {
  return parsePyJson(text) as ChainPlan;
}
