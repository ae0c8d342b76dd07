/**
 * Threads and processes this one starts carry the verifier with them. A worker inherits
 * `--import rye-build/register` only while its `execArgv` is left alone, and Node never runs
 * `--import` in a worker started from a code string (`eval: true`); `fork` drops it with an
 * `execArgv` of its own. Each of them would load build output unverified, so `Worker` and `fork`
 * are wrapped to add the register entry: to execArgv, or, for a code string, as its first line
 * (which, without require() of ES modules, fails the worker instead of running it unverified).
 * What they carry names the entry's own file, never `rye-build/register` (pinned-entry.ts).
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import workerThreads from "node:worker_threads";
import { ENTRY_NAME, pinEntry, pinnedArgs, type Entry } from "./pinned-entry.js";

/**
 * `execArgv` with the register entry pinned to its file (see pinned-entry.ts) and `--import <entry>`
 * added unless a preload already names that file: a bare name would be resolved again in the new
 * thread or process, from its own working directory.
 */
export function withLoader(execArgv: readonly string[], entry: string): string[] {
  const own: Entry = { url: entry, path: fileURLToPath(entry) };
  const args = pinnedArgs(execArgv, own, (value) => value === ENTRY_NAME);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === `--import=${entry}` || a === `--require=${own.path}`) return args;
    if ((a === "--import" && args[i + 1] === entry) || ((a === "-r" || a === "--require") && args[i + 1] === own.path)) return args;
  }
  return ["--import", entry, ...args];
}

/** A worker's code string, preceded by a line that installs the verifier in the worker first. */
export function evalWithLoader(code: string, entryPath: string): string {
  return `require(${JSON.stringify(entryPath)});${code}`;
}

let carried = false;

/** The file a worker or child is started from, as given (links not followed), or null for code and other URLs. */
function startedFrom(file: string | URL): string | null {
  const text = String(file);
  if (text.startsWith("file:")) return fileURLToPath(text);
  return file instanceof URL || /^[a-z][a-z0-9+.-]*:/i.test(text) ? null : resolve(text);
}

/**
 * Wraps `Worker` and `fork` once per thread; `entryUrl` is the register entry's file URL. `check`
 * sees the file each one starts from as given: Node realpaths it before the loader sees it.
 */
export function carryLoader(entryUrl: URL, check: (requested: string) => void = () => {}): void {
  if (carried) return;
  carried = true;
  const entry = pinEntry(entryUrl).url;
  const Base = workerThreads.Worker;
  class Worker extends Base {
    constructor(filename: string | URL, options: workerThreads.WorkerOptions = {}) {
      const evaluated = options.eval === true && typeof filename === "string";
      const asked = evaluated ? null : startedFrom(filename);
      if (asked !== null) check(asked);
      const code = evaluated ? evalWithLoader(filename, fileURLToPath(entryUrl)) : filename;
      super(code, { ...options, execArgv: withLoader(options.execArgv ?? process.execArgv, entry) });
    }
  }
  workerThreads.Worker = Worker;
  const fork = childProcess.fork;
  childProcess.fork = function verifyingFork(modulePath: string | URL, args?: unknown, options?: unknown) {
    const hasArgs = Array.isArray(args);
    const opts = ((hasArgs ? options : args) ?? {}) as childProcess.ForkOptions;
    const asked = startedFrom(modulePath);
    if (asked !== null) check(asked);
    const carriedOptions = { ...opts, execArgv: withLoader(opts.execArgv ?? process.execArgv, entry) };
    return hasArgs ? fork(modulePath, args as string[], carriedOptions) : fork(modulePath, carriedOptions);
  } as typeof childProcess.fork;
  // `import { Worker } from "node:worker_threads"` in the application sees the wrapped ones too.
  syncBuiltinESMExports();
}
