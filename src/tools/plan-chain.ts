import { dirname, join } from "node:path";
import type { ChainPlan, ConfigResolveStep, PlanContext } from "../runtime/exec/plan.js";
import type { ChainElement } from "./chain-element.js";
import { chainDicts, validateChain } from "./validate-chain.js";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
// Python truthiness of the `if element.config:` style tests the original uses.
const truthyObject = (v: unknown): v is Record<string, unknown> => isObject(v) && Object.keys(v).length > 0;

/**
 * Turns a built chain into the plan the run-time executor follows: merged config, env_config list,
 * anchor and verify_deps settings, config_resolve steps and path context. `anchorCtx` supplies or
 * overrides context values (project/user/system paths, or relocated tool paths).
 */
export function planChain(chain: readonly ChainElement[], anchorCtx: Partial<PlanContext> = {}): ChainPlan {
  const tool = chain[0];
  const root = chain.at(-1);
  if (!tool || !root) throw new Error("planChain needs a chain with at least one element");
  const dicts = chainDicts(chain);
  const validation = validateChain(dicts);
  const config: Record<string, unknown> = {};
  const primitiveFirst = [...chain].reverse();
  for (const e of primitiveFirst) if (truthyObject(e.metadata.config)) Object.assign(config, e.metadata.config);
  const anchorOwner = chain.find((e) => truthyObject(e.metadata.anchor));
  const libOwner = chain.find((e) => isObject(e.metadata.anchor) && e.metadata.anchor.lib);
  const toolDir = dirname(tool.path);
  const context: PlanContext = {
    tool_path: tool.path,
    tool_dir: toolDir,
    tool_parent: dirname(toolDir),
    anchor_path: toolDir,
    runtime_lib: libOwner ? join(dirname(libOwner.path), String((libOwner.metadata.anchor as Record<string, unknown>).lib)) : "",
    ...anchorCtx,
  };
  const configResolve: ConfigResolveStep[] = [];
  chain.forEach((e, index) => {
    if (!e.metadata.config_resolve) return;
    const params = Array.isArray(e.metadata.execution_params) ? e.metadata.execution_params.map(String) : [];
    configResolve.push({ index, item_id: e.item_id, spec: e.metadata.config_resolve, execution_params: params });
  });
  return {
    item_id: tool.item_id,
    chain: dicts,
    validation: { valid: validation.valid, issues: validation.issues, validated_pairs: validation.validated_pairs },
    root: { item_id: root.item_id, executor_id: root.metadata.executor_id ?? null },
    config,
    env_configs: primitiveFirst
      .filter((e) => truthyObject(e.metadata.env_config))
      .map((e) => ({ item_id: e.item_id, env_config: e.metadata.env_config as Record<string, unknown> })),
    anchor: anchorOwner ? (anchorOwner.metadata.anchor as Record<string, unknown>) : null,
    verify_deps: (chain.find((e) => truthyObject(e.metadata.verify_deps))?.metadata.verify_deps as Record<string, unknown>) ?? null,
    config_resolve: configResolve,
    context,
  };
}
