/**
 * `rye-build/vite`: a Vite (and Rollup) plugin whose `load` hook verifies every file of a build
 * output folder before Vite sees it, with the same check as the Node loader: each file is read
 * once, and the verified text is what Vite transforms (dev), bundles (build) and runs (SSR). A
 * failing file fails the build or the request.
 *
 * Rye output that ships inside a dependency is what SSR externalises: Node, not Vite, would load it,
 * past the load hook. So a build bundles a dependency whose entry is output (resolveId turns the
 * external into a module the load hook verifies), and refuses a bundle that leaves external any
 * package holding output anywhere in its files or its dependencies' (package-output.ts); the dev
 * server, which imports externals itself, installs the Node verifier in its own process first.
 *
 * Vite bundles some modules in builds of their own, without the application's `plugins`: worker
 * entries (`new Worker(new URL(…))`, `?worker`) use `worker.plugins`, and each environment's
 * dependency optimizer pre-bundles dependencies with its own plugin list. The `config` hook adds the
 * check to workers, `configResolved` to every optimizer, which re-optimizes instead of reusing a
 * cache (vite-optimizers.ts).
 *
 * Vite's asset pipeline reads some files itself, without any load hook: `new URL("…", import.meta.url)`
 * (inlined as a `data:` URL, which nothing can trace back to its file, or emitted as an asset) and
 * everything under `publicDir` (copied as is). So the plugin owns the output phase too: a `new URL`
 * naming build output is refused where the importer is transformed, a publicDir holding build output
 * is refused when the config is resolved, and every emitted asset or chunk made from build output
 * must be bytes that verify (an asset) or modules this plugin's load hook verified (a chunk).
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { registerVerifier } from "../register/register-verifier.js";
import { markRunnerVerified } from "../register/runner-verified.js";
import { IntegrityError } from "../verify/integrity-error.js";
import { OutputGuard, type GuardOptions } from "../verify/output-guard.js";
import { checkExternals, externalsOf, PackageOutput } from "./package-output.js";
import { checkRequest, codeFileOf, verifiedLoad } from "./verified-load.js";
import { guardOptimizers, type OptimizerConfig } from "./vite-optimizers.js";
import { refuseInlinedOutput } from "./inlined-output-guard.js";

// Before anything of a config that imports this module runs (inlined-output-guard.ts).
refuseInlinedOutput();

type Resolved = { id: string; external?: boolean | "absolute" | "relative" } | null;
type ResolveContext = { resolve(source: string, importer: string | undefined, options: Record<string, unknown>): Promise<Resolved> };
/** The parts of Vite's user config the plugin adds itself to. */
interface ViteConfig {
  root?: string;
  worker?: { plugins?: () => unknown[] };
}
type ConfigContext = { meta?: { rolldownVersion?: string } } | undefined;
/** The parts of Vite's resolved config the plugin reads, or adds the check to. */
type ResolvedConfig = OptimizerConfig & { root: string; publicDir?: string };
/** What Vitest hands a plugin's `configureVitest` hook (the part used here). */
type CacheKey = (module: { id: string }) => string | false | undefined;
export interface VitestContext {
  experimental_defineCacheKeyGenerator?: (generator: CacheKey) => void;
}

/** The shape of the plugin (a subset of Vite's and Rollup's Plugin type, so neither is a dependency). */
export interface RyeVitePlugin {
  name: string;
  enforce: "pre";
  config(this: ConfigContext, config: ViteConfig): void;
  configResolved(config: ResolvedConfig): void;
  configureServer(): void;
  configureVitest(context: VitestContext): void;
  resolveId(this: ResolveContext, source: string, importer: string | undefined, options?: Record<string, unknown>): Promise<Resolved>;
  load(id: string): string | null;
  transform(code: string, id: string): null;
  generateBundle(options: { dir?: string; file?: string }, bundle: Record<string, BundleItem>): void;
}

/** An emitted asset or chunk, as Rollup and Rolldown describe it (the part checked here). */
type BundleItem =
  | { type: "asset"; fileName: string; source: string | Uint8Array; originalFileNames?: readonly string[]; originalFileName?: string | null }
  | { type: "chunk"; fileName: string; facadeModuleId?: string | null; moduleIds?: readonly string[]; imports?: readonly string[]; dynamicImports?: readonly string[] };

/** `new URL("<literal>", import.meta.url)`, except a worker entry (bundled by the worker build, whose load hook verifies). */
const ASSET_URL = /(?<!(?:Shared)?Worker\s*\(\s*)new\s+URL\s*\(\s*(["'`])([^"'`$\n]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/** Refuses a `new URL` in `code` (the module `id`) that names build output: Vite would ship that file's bytes past every load hook. */
function checkAssetUrls(guard: OutputGuard, code: string, id: string): void {
  const importer = id.split("?")[0]!;
  if (!code.includes("import.meta.url") || id.startsWith("\0") || !isAbsolute(importer)) return;
  for (const m of code.matchAll(ASSET_URL)) {
    const target = resolve(dirname(importer), m[2]!.replace(/[?#].*$/s, ""));
    if (guard.outputFolderNamed(target) === null && !isOutputFile(guard, target)) continue;
    throw new IntegrityError(target, `${target} is build output that ${importer} names with new URL(…, import.meta.url): Vite copies or inlines that file as an asset without verifying it, so the build is refused\n  Fix: import the module instead, so it is verified and bundled`);
  }
}

/** The real paths of every file and folder under `dir` (links followed once). */
function entriesUnder(dir: string): string[] {
  const paths = [dir, ...readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) => join(e.parentPath, e.name))];
  return paths.flatMap((p) => {
    try {
      return [realpathSync(p)];
    } catch {
      return [];
    }
  });
}

/** Refuses a publicDir that holds build output, or lies in it: Vite serves and copies publicDir as is. */
function checkPublicDir(guard: OutputGuard, publicDir: string | undefined): void {
  if (!publicDir || !isAbsolute(publicDir)) return;
  try {
    if (!statSync(publicDir).isDirectory()) return;
  } catch {
    return;
  }
  for (const real of entriesUnder(publicDir)) {
    const inside = statSync(real).isDirectory() ? join(real, "_") : real;
    const folder = guard.outputFolderOf(inside);
    if (folder !== null) throw new IntegrityError(folder, `${publicDir} (Vite's publicDir) holds build output (${folder}): Vite copies publicDir into the build and serves it without verifying a byte, so it is refused\n  Fix: move the output folder out of publicDir and import its modules instead`);
  }
}

/**
 * The output phase: an asset emitted from a file of an output folder must be that file's signed
 * bytes; a chunk holding a module of an output folder must hold only modules this plugin verified.
 */
function checkBundle(guard: OutputGuard, root: string, bundle: Record<string, BundleItem>, verified: ReadonlySet<string>): void {
  for (const item of Object.values(bundle)) {
    if (item.type === "asset") {
      const names = item.originalFileNames ?? (item.originalFileName ? [item.originalFileName] : []);
      for (const name of names) {
        const file = resolve(root, name);
        if (!isOutputFile(guard, file)) continue;
        guard.beforeRead(file);
        guard.check(file, item.source);
      }
      continue;
    }
    for (const id of [item.facadeModuleId, ...(item.moduleIds ?? [])]) {
      if (!id || !isOutputFile(guard, id) || verified.has(realpathSync(id.split("?")[0]!))) continue;
      throw new IntegrityError(id, `${id} is build output that reached ${item.fileName} without being verified by the rye-build/vite load hook, so the build is refused`);
    }
  }
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

/** Whether a module id names a file of an output folder. */
function isOutputFile(guard: OutputGuard, id: string): boolean {
  const path = id.split("?")[0]!;
  if (id.startsWith("\0") || !isAbsolute(path)) return false;
  try {
    return guard.outputFolderOf(realpathSync(path)) !== null;
  } catch {
    return false;
  }
}

/** Adds the check to worker bundles, which Vite builds with `worker.plugins` instead of the application's. */
function addToWorkers(config: ViteConfig, options: GuardOptions): void {
  const workerPlugins = config.worker?.plugins;
  // Vite asks for new instances for each worker bundle: the worker copy does not add itself again.
  config.worker = { ...config.worker, plugins: () => [ryeVerify(options, false), ...(workerPlugins ? workerPlugins() : [])] };
}

/** The plugin; options add anchor keys (`trustedKeys`) and folders that must be build output (`outputDirs`). */
export function ryeVerify(options: GuardOptions = {}, separateBundles = true): RyeVitePlugin {
  let guard: OutputGuard | undefined;
  let root = process.cwd();
  let rolldown = false;
  const verified = new Set<string>();
  const guardOf = () => (guard ??= new OutputGuard(options));
  let packages: PackageOutput | undefined;
  const packagesOf = () => (packages ??= new PackageOutput(guardOf()));
  return {
    name: "rye-verify",
    enforce: "pre",
    config(config) {
      // What Vitest's module runner and ssrLoadModule evaluate passes through this load hook: the register entry's runner guard lets it run.
      markRunnerVerified();
      // Vite 7's rolldown-vite and Vite 8 bundle dependencies with Rolldown; earlier ones with esbuild.
      rolldown = typeof this?.meta?.rolldownVersion === "string";
      if (separateBundles) addToWorkers(config, options);
    },
    configResolved(config) {
      root = config.root;
      checkPublicDir(guardOf(), config.publicDir);
      // Every environment's dependency optimizer, as resolved after every plugin's config hooks.
      if (separateBundles) guardOptimizers(config, options, rolldown);
    },
    configureServer() {
      // SSR in dev imports externalised dependencies with Node's own loader: that loader verifies too.
      registerVerifier(options);
    },
    configureVitest(context) {
      // Vitest's file-system module cache (experimental.fsModuleCache) hands workers transformed code
      // from node_modules/.experimental-vitest-cache, which a checkout can carry, without calling load:
      // build output is never cached, so it is always read, and verified, here.
      context.experimental_defineCacheKeyGenerator?.(({ id }) => (isOutputFile(guardOf(), id) ? false : undefined));
    },
    async resolveId(source, importer, resolveOptions = {}) {
      // Vite follows links before load sees a file: the import as written is checked here.
      // A runtime package stays an external bare import, resolved where the bundle runs, never from out/.
      if (checkRequest(guardOf(), source, importer, root)) return { id: source, external: true };
      // A request naming an output folder (or a path in one) must land inside it, whatever out/package.json says.
      const named = /^\.\.?(?:\/|$)/.test(source) ? join(importer && isAbsolute(importer) ? dirname(importer.split("?")[0]!) : root, source) : null;
      if (named !== null && guardOf().outputFolderNamed(named) !== null) {
        const landed = await this.resolve(source, importer, { ...resolveOptions, skipSelf: true });
        if (landed && isAbsolute(landed.id.split("?")[0]!)) guardOf().checkLands(named, landed.id.split("?")[0]!);
        return landed;
      }
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
      const text = verifiedLoad(guardOf(), id);
      if (text !== null) verified.add(realpathSync(id.split("?")[0]!));
      return text;
    },
    transform(code, id) {
      checkAssetUrls(guardOf(), code, id);
      return null;
    },
    generateBundle(output, bundle) {
      checkBundle(guardOf(), root, bundle, verified);
      checkExternals(packagesOf(), output.dir ?? (output.file ? dirname(output.file) : root), root, externalsOf(bundle), (name) => `for an SSR build, add "${name}" to ssr.noExternal`);
    },
  };
}

export default ryeVerify;
