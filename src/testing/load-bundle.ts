// `rye test --bundle FILE`: the items of a bundle, loaded as `rye run` loads one: read once,
// verified against trust anchors from outside the checkout, and only then evaluated. A bundle
// carries directives and tools, not knowledge modules.
import { importVerifiedBundle, type BundleTrustOptions } from "../bundle/import-verified-bundle.js";
import { emptyBroken, type DirectiveTarget, type Targets, type ToolTarget } from "./targets.js";

/** Throws IntegrityError (and evaluates nothing) when the bundle does not verify. */
export async function loadBundle(path: string, label: string, trust: BundleTrustOptions): Promise<Targets> {
  const loaded = await importVerifiedBundle<{ directives?: Record<string, DirectiveTarget>; tools?: Record<string, ToolTarget> }>(path, label, trust);
  return {
    directive: new Map(Object.entries(loaded.module.directives ?? {})),
    tool: new Map(Object.entries(loaded.module.tools ?? {})),
    knowledge: new Map(),
    broken: emptyBroken(),
    absent: new Set(["knowledge"]),
    dispose: loaded.dispose,
  };
}
