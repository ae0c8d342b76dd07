import Module, { createRequire, register, syncBuiltinESMExports } from "node:module";
import { pathToFileURL } from "node:url";
import { OutputGuard, type GuardOptions } from "../verify/output-guard.js";
import { carryLoader } from "./carry-loader.js";
import { guardModuleRunners } from "./module-runner-guard.js";
import { installRequireHook } from "./require-hook.js";
import { RESOLVE_PREFIX } from "./resolve-request.js";
import { guardSyncHooks } from "./sync-hooks-guard.js";

const registered = new Set<string>();
// Captured before keepOutermost replaces the export, so rye's own registrations do not trigger it.
const registerHooks = register;

// Node runs the hooks on a thread of its own, which loads JavaScript only: when this file runs from
// the TypeScript sources (the test suite), the hooks come from the compiled dist/ beside them.
function distUrl(name: string): URL {
  const self = import.meta.url;
  return self.endsWith(".ts") ? new URL(`../../dist/register/${name}`, self) : new URL(`./${name}`, self);
}

/**
 * Resolves an import the way the ES module loader does, synchronously. A relative or absolute one
 * is a URL relative to its parent. Any other goes to `import.meta.resolve`, which blocks on the hooks
 * thread, whose resolve hook answers a request naming the real specifier and parent (with the
 * loader's conditions and the application's other resolve hooks). Where no hooks thread answers
 * (in that thread itself, which runs `-r` preloads too), Node's CommonJS resolution from the same
 * parent stands in. Throws, as Node's linking would, when nothing is found.
 */
function resolveImport(specifier: string, parentUrl: string): string {
  if (/^\.{0,2}\//.test(specifier) || specifier.startsWith("file:")) return new URL(specifier, parentUrl).href;
  // A module loaded by a `-r` preload has no import.meta.resolve: CommonJS resolution stands in there too.
  if (typeof import.meta.resolve !== "function") return pathToFileURL(createRequire(parentUrl).resolve(specifier)).href;
  const answer = import.meta.resolve(RESOLVE_PREFIX + encodeURIComponent(JSON.stringify([specifier, parentUrl])));
  if (!answer.startsWith(RESOLVE_PREFIX)) return answer;
  return pathToFileURL(createRequire(parentUrl).resolve(specifier)).href;
}

let reRegisters: Array<[URL, GuardOptions]> | undefined;

/**
 * Hooks run last-registered first, and a `load` hook that returns a source with `shortCircuit`
 * never calls the ones registered before it: a hook registered after rye's that reads output files
 * itself would hand Node unverified bytes. So every later `module.register` is followed by rye's
 * hooks registered again, outermost: their `load` verifies whatever source the chain below returns.
 * Both `require("node:module").register` and the ES named export are replaced.
 */
function keepOutermost(hooks: URL, data: GuardOptions): void {
  if (reRegisters) {
    reRegisters.push([hooks, data]);
    return;
  }
  const all = (reRegisters = [[hooks, data]]);
  const mod = Module as unknown as { register: typeof register };
  const original = mod.register;
  mod.register = function ryeOutermostRegister(this: unknown, ...args: Parameters<typeof register>) {
    const result = original.apply(this, args);
    // The original, not the import binding: that binding is this function once the exports are synced.
    for (const [url, options] of all) original.call(this, url, { data: options });
    return result;
  } as typeof register;
  syncBuiltinESMExports();
}

/**
 * Installs the verifier in this thread (Node ≥ 20.6): the loader hooks for `import`, the CommonJS
 * handlers for `require()` (ES modules included), and the register entry in every worker and forked
 * process started from here. Every file of a build output folder is verified before it runs.
 * Registering the same options twice is a no-op.
 */
export function registerVerifier(options: GuardOptions = {}): void {
  if (typeof register !== "function") throw new Error(`Node ${process.versions.node} cannot verify modules as it loads them: module.register needs Node 20.6 or later`);
  const data: GuardOptions = { trustedKeys: [...(options.trustedKeys ?? [])], outputDirs: [...(options.outputDirs ?? [])], cwd: options.cwd ?? process.cwd() };
  if (options.env) data.env = { ...options.env };
  const key = JSON.stringify(data);
  if (registered.has(key)) return;
  registerHooks(distUrl("verify-hooks.js"), { data });
  keepOutermost(distUrl("verify-hooks.js"), data);
  // The first registration's options guard require(): one set of CommonJS handlers per thread.
  const guard = new OutputGuard(data);
  installRequireHook(guard, resolveImport);
  guardModuleRunners(guard);
  guardSyncHooks(guard);
  carryLoader(distUrl("index.js"), (requested) => guard.checkRequested(requested));
  registered.add(key);
}

/**
 * The main script as given on the command line: Node realpaths it before any hook sees it, so a
 * main script that is a link inside an output folder is refused here, from the register entry.
 */
export function checkMainScript(main: string | undefined = process.argv[1]): void {
  if (main) new OutputGuard({ cwd: process.cwd() }).checkRequested(main);
}
