// `rye test --bundle FILE`: the items of a bundle, loaded as `rye run` loads one: read once,
// verified against trust anchors from outside the checkout, and only then evaluated. A bundle
// carries directives and tools, not knowledge modules. Its tools run as `rye run <bundle> tool`
// runs them: the checkout chooses no code, and each chain file is re-hashed against the plan.
import { execa as cliExeca } from "execa";
import { rmSync } from "node:fs";
import { bundlePreflight } from "../bundle/bundle-preflight.js";
import { bundleToolOptions } from "../bundle/bundle-run-options.js";
import { importVerifiedBundle, type BundleTrustOptions } from "../bundle/import-verified-bundle.js";
import type { ChainPlan } from "../runtime/exec/plan.js";
import type { Execa } from "../runtime/exec/run-process.js";
import { emptyBroken, type DirectiveTarget, type Targets, type ToolRunner, type ToolTarget } from "./targets.js";

type BundledTool = ToolTarget & { plan?: Partial<ChainPlan> & { files?: readonly { path: string; sha256: string }[] } };

/** Throws IntegrityError (and evaluates nothing) when the bundle does not verify. */
export async function loadBundle(path: string, label: string, trust: BundleTrustOptions & { project: string }): Promise<Targets> {
  const loaded = await importVerifiedBundle<{ directives?: Record<string, DirectiveTarget>; tools?: Record<string, BundledTool>; provenanceOf?: (m: unknown) => unknown }>(path, label, trust);
  const tools = loaded.module.tools ?? {};
  return {
    directive: new Map(Object.entries(loaded.module.directives ?? {})),
    tool: new Map(Object.entries(tools)),
    knowledge: new Map(),
    broken: emptyBroken(),
    absent: new Set(["knowledge"]),
    runTool: bundledToolRunner(path, tools, trust),
    provenance: (kind, id) => loaded.module.provenanceOf?.(kind === "tool" ? tools[id] : loaded.module.directives?.[id]) ?? null,
    dispose: loaded.dispose,
  };
}

function bundledToolRunner(bundle: string, tools: Record<string, BundledTool>, trust: BundleTrustOptions & { project: string }): ToolRunner {
  // A sibling tool's file is vouched for by the bundle's plans (by hash), like the tool's own.
  const where = { bundle, cwd: trust.cwd, env: trust.env, project: trust.project, trustCheckout: false, trustedKeys: trust.trustedKeys, bundledFiles: Object.values(tools).flatMap((t) => t.plan?.files ?? []) };
  return async (id, tool, params, dryRun) => {
    const plan = (tool as BundledTool).plan;
    const configSchema = tool.metadata?.config_schema;
    const runOptions = bundleToolOptions(where, plan, cliExeca as unknown as Execa);
    try {
      const refused = dryRun ? null : bundlePreflight(plan, params, configSchema, runOptions);
      if (refused) return { status: "error", error: refused, item_id: id };
      return await tool.execute(params, { ...runOptions, configSchema, dryRun });
    } finally {
      const cache = runOptions.extraEnv?.PYTHONPYCACHEPREFIX;
      if (cache) rmSync(cache, { recursive: true, force: true });
    }
  };
}
