/**
 * The resolve-time and bundle-time rules of the Vite plugin, for webpack and Rspack, whose unplugin
 * `resolveId` cannot ask the bundler where a request lands (there is no `this.resolve`) and whose
 * output has no Rollup-style chunk list. Both keep webpack's module factory hooks:
 *
 * - `afterResolve` sees every request with the file it resolved to: a request naming an output folder
 *   (`./out`, whose package.json `main` or `exports` can point anywhere) must land inside it.
 * - `finishModules` sees every module of the compilation, externals included: a package left external
 *   is loaded by plain Node where the bundle runs, so one holding build output refuses the build.
 */
import { isAbsolute, resolve } from "node:path";
import type { OutputGuard } from "../verify/output-guard.js";
import { checkExternals, type ExternalImport, type PackageOutput } from "./package-output.js";

/** What webpack and Rspack hand `afterResolve` (the part read here). */
interface ResolveData {
  request: string;
  context: string;
  createData?: { resource?: string };
}

/** A module of the compilation: an external one carries its request (webpack) or says so in its identifier (Rspack). */
interface CompiledModule {
  request?: unknown;
  externalType?: unknown;
  identifier?: () => string;
}

type Tap<A extends unknown[]> = { tap(name: string, fn: (...args: A) => unknown): void };

/** The parts of a webpack or Rspack compiler the checks tap. */
export interface WebpackLikeCompiler {
  options: { context?: string; output?: { path?: string } };
  hooks: {
    compilation: Tap<[{ hooks: { finishModules: Tap<[Iterable<CompiledModule>]> } }, { normalModuleFactory: { hooks: { afterResolve: Tap<[ResolveData]> } } }]>;
  };
}

const NAME = "rye-verify";

/** A request that names an output folder, or a path in one, must resolve to a file inside that folder. */
function checkResolved(guard: OutputGuard, data: ResolveData): void {
  const resource = data.createData?.resource?.split("?")[0];
  if (!resource || !isAbsolute(resource) || !/^(?:\.\.?(?:\/|$)|\/)/.test(data.request)) return;
  const named = resolve(data.context, data.request.split("?")[0]!);
  if (guard.outputFolderNamed(named) === null) return;
  // A link on the path as written is refused as such (checkRequest's rule), before where it led.
  guard.checkRequested(named);
  guard.checkLands(named, resource);
}

/** The specifiers an external module leaves to Node: webpack's `request` (a string, list or per-type map), or Rspack's identifier. */
function externalRequests(m: CompiledModule): string[] {
  if (m.externalType !== undefined) {
    const r = m.request;
    const all = typeof r === "string" ? [r] : Array.isArray(r) ? r : typeof r === "object" && r !== null ? Object.values(r).flat() : [];
    return all.filter((s): s is string => typeof s === "string").slice(0, 1);
  }
  // Rspack's modules expose no fields: its external module is named `external <type> "<request>"`.
  const id = typeof m.identifier === "function" ? m.identifier() : "";
  const match = /^external (?:[\w-]+ )?"([^"]+)"$/.exec(id);
  return match ? [match[1]!] : [];
}

/** Taps both checks into a webpack or Rspack compiler. */
export function tapWebpackLike(compiler: WebpackLikeCompiler, guardOf: () => OutputGuard, packagesOf: () => PackageOutput): void {
  const root = compiler.options.context ?? process.cwd();
  compiler.hooks.compilation.tap(NAME, (compilation, { normalModuleFactory }) => {
    normalModuleFactory.hooks.afterResolve.tap(NAME, (data) => {
      checkResolved(guardOf(), data);
      return undefined;
    });
    compilation.hooks.finishModules.tap(NAME, (modules) => {
      const externals: ExternalImport[] = [];
      for (const m of modules) for (const source of externalRequests(m)) externals.push({ file: "the bundle", source });
      const dir = compiler.options.output?.path ?? root;
      checkExternals(packagesOf(), dir, root, externals, (name) => `remove "${name}" from externals`);
    });
  });
}
