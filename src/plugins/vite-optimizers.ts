/**
 * Vite's dependency optimizers pre-bundle dependencies in bundles of their own, with their own plugin
 * list and none of the application's plugins: one optimizer per environment (client, ssr, and any an
 * application or framework declares through the environment API, Vitest's among them). Each bundle is
 * then served to browsers or evaluated by a module runner as a file of the cache folder, which is in no
 * output folder. So the check is added to every optimizer the resolved config holds, not to a list of
 * the ones known today, and no optimizer reuses a cache: a cache folder inside the checkout is
 * something a checkout can carry, and Vite reuses one whose recorded hashes match without calling any
 * plugin. Forcing re-optimization means every pre-bundle served was made by a run that verified.
 */
import { OutputGuard, type GuardOptions } from "../verify/output-guard.js";
import { ryeVerify as ryeEsbuild } from "./esbuild.js";
import { checkRequest, verifiedLoad } from "./verified-load.js";

/** A dependency optimizer's options, as Vite resolves them (the parts used here). */
export interface OptimizeDeps {
  force?: boolean;
  rolldownOptions?: { plugins?: unknown };
  esbuildOptions?: { plugins?: unknown[] };
}

/** The parts of Vite's resolved config that hold optimizers (Vite 5 has no environments). */
export interface OptimizerConfig {
  optimizeDeps?: OptimizeDeps;
  ssr?: { optimizeDeps?: OptimizeDeps };
  environments?: Record<string, { optimizeDeps?: OptimizeDeps } | undefined>;
}

const OPTIMIZER_PLUGIN = "rye-verify:optimize-deps";
const ESBUILD_PLUGIN = "rye-verify";

/** The check as a plain Rolldown plugin, for an optimizer's own bundle. */
function optimizerPlugin(options: GuardOptions) {
  const guard = new OutputGuard(options);
  return {
    name: OPTIMIZER_PLUGIN,
    resolveId(source: string, importer: string | undefined) {
      return !checkRequest(guard, source, importer) ? null : { id: source, external: true };
    },
    load: (id: string) => verifiedLoad(guard, id),
  };
}

/** Every distinct optimizer of a resolved config: the top-level and SSR ones, and each environment's. */
export function optimizersOf(config: OptimizerConfig): OptimizeDeps[] {
  const all = [config.optimizeDeps, config.ssr?.optimizeDeps, ...Object.values(config.environments ?? {}).map((e) => e?.optimizeDeps)];
  return [...new Set(all.filter((o): o is OptimizeDeps => typeof o === "object" && o !== null))];
}

const named = (name: string) => (p: unknown) => typeof p === "object" && p !== null && (p as { name?: unknown }).name === name;

/** Puts the check first in one optimizer (once), and makes it re-optimize rather than reuse its cache. */
function guardOptimizer(o: OptimizeDeps, options: GuardOptions, rolldown: boolean): void {
  o.force = true;
  // Vite 8 resolves rolldownOptions for every optimizer, whatever the plugin context said.
  if (rolldown || o.rolldownOptions !== undefined) {
    const ro = (o.rolldownOptions ??= {});
    const existing = ro.plugins === undefined ? [] : Array.isArray(ro.plugins) ? ro.plugins : [ro.plugins];
    if (!existing.some(named(OPTIMIZER_PLUGIN))) ro.plugins = [optimizerPlugin(options), ...existing];
  } else {
    const eo = (o.esbuildOptions ??= {});
    const existing = eo.plugins ?? [];
    if (!existing.some(named(ESBUILD_PLUGIN))) eo.plugins = [ryeEsbuild(options), ...existing];
  }
}

/**
 * Adds the check to every optimizer of the resolved config (called from configResolved, after every
 * plugin's config and configEnvironment hook, so no later hook replaces it before optimizers start).
 */
export function guardOptimizers(config: OptimizerConfig, options: GuardOptions, rolldown: boolean): void {
  for (const o of optimizersOf(config)) guardOptimizer(o, options, rolldown);
}
