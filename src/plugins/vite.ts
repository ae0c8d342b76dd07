/**
 * `rye-build/vite`: a Vite (and Rollup) plugin whose `load` hook verifies every file of a build
 * output folder before Vite sees it, with the same check as the Node loader: each file is read
 * once, and the verified text is what Vite transforms (dev), bundles (build) and runs (SSR). A
 * failing file fails the build or the request.
 *
 * Rye output that ships inside a dependency is what SSR externalises: Node, not Vite, would load it,
 * past the load hook. So a build bundles it instead (resolveId turns the external into a module
 * the load hook verifies), and the dev server, which imports externals itself, installs the Node
 * verifier in its own process first.
 */
import { realpathSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { isAbsolute, join } from "node:path";
import { registerVerifier } from "../register/register-verifier.js";
import { OutputGuard, type GuardOptions } from "../verify/output-guard.js";
import { codeFileOf, verifiedLoad } from "./verified-load.js";

type Resolved = { id: string; external?: boolean | "absolute" | "relative" } | null;
type ResolveContext = { resolve(source: string, importer: string | undefined, options: Record<string, unknown>): Promise<Resolved> };

/** The shape of the plugin (a subset of Vite's and Rollup's Plugin type, so neither is a dependency). */
export interface RyeVitePlugin {
  name: string;
  enforce: "pre";
  configureServer(): void;
  resolveId(this: ResolveContext, source: string, importer: string | undefined, options?: Record<string, unknown>): Promise<{ id: string; external: false } | null>;
  load(id: string): string | null;
}

/** The file an external import names, as Node would find it from `importer`; null when none is found. */
function externalFile(resolved: NonNullable<Resolved>, source: string, importer: string | undefined): string | null {
  if (isAbsolute(resolved.id)) return resolved.id;
  try {
    return createRequire(importer && isAbsolute(importer) ? importer : join(process.cwd(), "index.js")).resolve(source);
  } catch {
    return null;
  }
}

/** The plugin; options add anchor keys (`trustedKeys`) and folders that must be build output (`outputDirs`). */
export function ryeVerify(options: GuardOptions = {}): RyeVitePlugin {
  let guard: OutputGuard | undefined;
  const guardOf = () => (guard ??= new OutputGuard(options));
  return {
    name: "rye-verify",
    enforce: "pre",
    configureServer() {
      // SSR in dev imports externalised dependencies with Node's own loader: that loader verifies too.
      registerVerifier(options);
    },
    async resolveId(source, importer, resolveOptions = {}) {
      if (source.startsWith("\0") || isBuiltin(source) || source.startsWith(".") || isAbsolute(source)) return null;
      const resolved = await this.resolve(source, importer, { ...resolveOptions, skipSelf: true });
      if (!resolved?.external) return null;
      const file = externalFile(resolved, source, importer);
      if (file === null || codeFileOf(file) === null) return null;
      let real: string;
      try {
        real = realpathSync(file);
      } catch {
        return null;
      }
      // Build output left external would run unverified wherever the bundle runs: bundle it, verified.
      return guardOf().outputFolderOf(real) === null ? null : { id: real, external: false };
    },
    load(id) {
      return verifiedLoad(guardOf(), id);
    },
  };
}

export default ryeVerify;
