/**
 * The checks of a bundled tool run done by the CLI itself, before the bundle's own runtime runs: a
 * bundle built by an earlier rye carries an executor without them, and the bundle's bytes are what
 * runs. Refuses caller parameters that name rye's path context or replace a config value deciding
 * what runs (caller-params.ts), and walks the dependency scope (verify-deps.ts) as executePlan does.
 */
import { isAbsolute, resolve } from "node:path";
import { anchorApplies, resolveAnchorPath } from "../runtime/exec/anchor.js";
import { callerParamsProblem, CONTEXT_KEYS } from "../runtime/exec/caller-params.js";
import type { ChainPlan } from "../runtime/exec/plan.js";
import type { RunToolOptions } from "../runtime/exec/run-tool.js";
import { depsEnabled, depsScope, verifyDeps } from "../runtime/exec/verify-deps.js";

/** Why the run may not start (a message), or null. */
export function bundlePreflight(plan: Partial<ChainPlan> | undefined, params: Readonly<Record<string, unknown>>, configSchema: unknown, o: RunToolOptions): string | null {
  if (!plan || !plan.context) return null;
  const refused = callerParamsProblem(params, plan.config ?? {}, [...CONTEXT_KEYS, ...Object.keys(plan.context)], configSchema);
  if (refused) return refused;
  const projectPath = o.projectPath ?? process.cwd();
  const at = (p: string | undefined) => (!p || isAbsolute(p) ? (p ?? "") : resolve(projectPath, p));
  const c = plan.context;
  const ctx: Record<string, string> = {
    tool_path: at(c.tool_path), tool_dir: at(c.tool_dir), tool_parent: at(c.tool_parent), anchor_path: at(c.anchor_path), runtime_lib: at(c.runtime_lib), project_path: projectPath,
  };
  if (plan.anchor && anchorApplies(plan.anchor, ctx.tool_dir!)) ctx.anchor_path = resolveAnchorPath(plan.anchor, ctx);
  const settings = depsEnabled(plan.verify_deps) ? plan.verify_deps! : o.defaultVerifyDeps;
  if (!settings || !o.verifyDependency) return null;
  try {
    verifyDeps(depsScope(settings, ctx), o.verifyDependency, new Set((plan.files ?? []).map((f) => at(f.path))));
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return null;
}
