/**
 * Runs one tool of a verified bundle: the API behind `rye run <bundle> tool <id>`. The bundle is
 * verified and evaluated as `importVerifiedBundle` does; its tool then runs with the options of
 * `bundleToolOptions`, so the checkout does not choose code unless `trustCheckout` is set.
 * @example const r = await runBundleTool("out/bundle.mjs", "examples/word_count", { text: "a b" }, { trustedKeys: ["ci-key.pem"] });
 */
import { execa as cliExeca } from "execa";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import type { Execa } from "../runtime/exec/run-process.js";
import type { ChainPlan } from "../runtime/exec/plan.js";
import { bundlePreflight } from "./bundle-preflight.js";
import type { RunToolOptions, ToolResponse } from "../runtime/exec/run-tool.js";
import { bundleToolOptions } from "./bundle-run-options.js";
import { importVerifiedBundle, type BundleTrustOptions } from "./import-verified-bundle.js";

/** Where the bundle's trust anchors come from, where the tool runs, and whether the checkout may choose code. */
export interface RunBundleToolOptions extends BundleTrustOptions {
  /** The project whose chain files the plan is checked against (default: cwd). */
  project?: string;
  /** Let the checkout choose interpreters, `.env` and search paths (the CLI's --trust-checkout). */
  trustCheckout?: boolean;
  dryRun?: boolean;
  /** The spawner (default: execa as installed beside rye). */
  execa?: Execa;
}

interface BundledTool {
  plan?: Partial<ChainPlan> & { files?: readonly { path: string; sha256: string }[] };
  metadata?: Readonly<Record<string, unknown>>;
  execute(params: Record<string, unknown>, options?: RunToolOptions): Promise<ToolResponse>;
}

/** The tool's `rye_execute` response; throws IntegrityError when the bundle does not verify. */
export async function runBundleTool(bundle: string, id: string, params: Record<string, unknown>, options: RunBundleToolOptions = {}): Promise<ToolResponse> {
  const cwd = options.cwd ?? process.cwd();
  const path = resolve(cwd, bundle);
  const loaded = await importVerifiedBundle<{ tools?: Record<string, BundledTool> }>(path, bundle, options);
  try {
    const tools = loaded.module.tools ?? {};
    if (!Object.hasOwn(tools, id)) return { status: "error", error: `Tool not found: ${id}`, item_id: id };
    const tool = tools[id]!;
    const where = { bundle: path, cwd, env: options.env, project: options.project, trustCheckout: options.trustCheckout, trustedKeys: options.trustedKeys,
      // A sibling tool's file is vouched for by the bundle's plans (by hash), like the tool's own.
      bundledFiles: Object.values(tools).flatMap((t) => t.plan?.files ?? []) };
    const execa = options.execa ?? (cliExeca as unknown as Execa);
    try {
      const configSchema = tool.metadata?.config_schema;
      const runOptions = bundleToolOptions(where, tool.plan, execa);
      try {
        // Checked here too, whatever rye version built the bundle's executor.
        const refused = options.dryRun ? null : bundlePreflight(tool.plan, params, configSchema, runOptions);
        if (refused) return { status: "error", error: refused, item_id: id };
        return await tool.execute(params, { ...runOptions, configSchema, dryRun: options.dryRun === true });
      } finally {
        const cache = runOptions.extraEnv?.PYTHONPYCACHEPREFIX;
        if (cache) rmSync(cache, { recursive: true, force: true });
      }
    } catch (e) {
      return { status: "error", error: e instanceof Error ? e.message : String(e), item_id: id };
    }
  } finally {
    loaded.dispose();
  }
}
