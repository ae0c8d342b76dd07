/**
 * Module runners evaluate code themselves: Vitest (Vite's module runner) reads a module through
 * the Vite server's transform pipeline and runs the result with `vm.runInThisContext` or
 * `vm.runInContext`, named by the module's file. Neither Node's `load` hook nor the CommonJS
 * handlers see those bytes. Only the `rye-build/vite` plugin, in that server's plugins, verifies them
 * (in its load hook); it says so by setting RUNNER_VERIFIED in the environment the runner's workers
 * inherit. Without it, code named by a file of an output folder is refused here, before it runs,
 * rather than evaluated unverified.
 */
import { realpathSync } from "node:fs";
import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { IntegrityError } from "../verify/integrity-error.js";
import type { OutputGuard } from "../verify/output-guard.js";

/** Set by the Vite plugin in the process whose server transforms what the runner evaluates. */
export const RUNNER_VERIFIED = "RYE_VITE_PLUGIN_VERIFIES";

type RunOptions = { filename?: unknown } | string | undefined;

/** The file a runner names the code by, or null (an inline script, a virtual module). */
function fileOf(options: RunOptions): string | null {
  const name = typeof options === "string" ? options : options?.filename;
  if (typeof name !== "string") return null;
  let path = name.split("?")[0]!;
  if (path.startsWith("file:")) {
    try {
      path = fileURLToPath(path);
    } catch {
      return null;
    }
  }
  if (!isAbsolute(path)) return null;
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function refuse(guard: OutputGuard, options: RunOptions): void {
  if (process.env[RUNNER_VERIFIED] === "1") return;
  const file = fileOf(options);
  if (file === null || guard.outputFolderOf(file) === null) return;
  throw new IntegrityError(file, `${file} is build output evaluated by a module runner (Vitest, Vite's module runner), which reads and runs it without Node's loader, so nothing verified it and it does not run\n  Fix: add ryeVerify() from rye-build/vite to the plugins of that Vite or Vitest config`);
}

let installed = false;

/** Wraps the `vm` functions module runners evaluate files with, once per thread. */
export function guardModuleRunners(guard: OutputGuard): void {
  if (installed) return;
  installed = true;
  const runInThisContext = vm.runInThisContext;
  vm.runInThisContext = function ryeRunInThisContext(code: string, options?: RunOptions) {
    refuse(guard, options);
    return runInThisContext.call(vm, code, options as vm.RunningScriptOptions);
  } as typeof vm.runInThisContext;
  const runInContext = vm.runInContext;
  vm.runInContext = function ryeRunInContext(code: string, context: vm.Context, options?: RunOptions) {
    refuse(guard, options);
    return runInContext.call(vm, code, context, options as vm.RunningScriptOptions);
  } as typeof vm.runInContext;
  const runInNewContext = vm.runInNewContext;
  vm.runInNewContext = function ryeRunInNewContext(code: string, context?: vm.Context, options?: RunOptions) {
    refuse(guard, options);
    return runInNewContext.call(vm, code, context, options as vm.RunningScriptOptions);
  } as typeof vm.runInNewContext;
}
