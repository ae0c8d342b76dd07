/**
 * Threads and processes this one starts carry the verifier with them. A worker inherits
 * `--import rye-build/register` only while its `execArgv` is left alone, and Node never runs
 * `--import` in a worker started from a code string (`eval: true`); `fork` drops it with an
 * `execArgv` of its own. Each of them would load build output unverified, so `Worker` and `fork`
 * are wrapped to add the register entry: to execArgv, or, for a code string, as its first line
 * (which, without require() of ES modules, fails the worker instead of running it unverified).
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { fileURLToPath } from "node:url";
import workerThreads from "node:worker_threads";

/** `execArgv` with `--import <entry>` added unless it already imports the register entry. */
export function withLoader(execArgv: readonly string[], entry: string): string[] {
  const args = [...execArgv];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = a === "--import" ? args[i + 1] : a.startsWith("--import=") ? a.slice("--import=".length) : undefined;
    if (value === entry || value === "rye-build/register") return args;
  }
  return ["--import", entry, ...args];
}

/** A worker's code string, preceded by a line that installs the verifier in the worker first. */
export function evalWithLoader(code: string, entryPath: string): string {
  return `require(${JSON.stringify(entryPath)});${code}`;
}

let carried = false;

/** Wraps `Worker` and `fork` once per thread; `entryUrl` is the register entry's file URL. */
export function carryLoader(entryUrl: URL): void {
  if (carried) return;
  carried = true;
  const entry = entryUrl.href;
  const Base = workerThreads.Worker;
  class Worker extends Base {
    constructor(filename: string | URL, options: workerThreads.WorkerOptions = {}) {
      const evaluated = options.eval === true && typeof filename === "string";
      const code = evaluated ? evalWithLoader(filename, fileURLToPath(entryUrl)) : filename;
      super(code, { ...options, execArgv: withLoader(options.execArgv ?? process.execArgv, entry) });
    }
  }
  workerThreads.Worker = Worker;
  const fork = childProcess.fork;
  childProcess.fork = function verifyingFork(modulePath: string | URL, args?: unknown, options?: unknown) {
    const hasArgs = Array.isArray(args);
    const opts = ((hasArgs ? options : args) ?? {}) as childProcess.ForkOptions;
    const carriedOptions = { ...opts, execArgv: withLoader(opts.execArgv ?? process.execArgv, entry) };
    return hasArgs ? fork(modulePath, args as string[], carriedOptions) : fork(modulePath, carriedOptions);
  } as typeof childProcess.fork;
  // `import { Worker } from "node:worker_threads"` in the application sees the wrapped ones too.
  syncBuiltinESMExports();
}
