/**
 * Module runners evaluate code themselves, past Node's loader hooks and CommonJS handlers: Vitest
 * (Vite's module runner) runs what the Vite server transformed with `vm.runInThisContext` /
 * `vm.runInContext`, named by the module's file; Vite's own ESModulesEvaluator
 * (`server.ssrLoadModule`) compiles it with `new AsyncFunction(…)`, named by a `//# sourceURL=`
 * comment and called with the module's `import.meta`. Every way to compile a string that can carry
 * such a name is guarded here: the `vm` functions and classes (by `filename`), the four Function
 * constructors (by the `sourceURL` of the text, and, for the async and generator kinds, by the
 * `import.meta` a call hands over).
 *
 * Code named by a file of an output folder runs only when both hold, checked before it runs:
 * the `rye-build/vite` plugin feeds this runner (its load hook verified the bytes the server
 * transformed; see runner-verified.ts for how a worker knows), and the file as it is on disk now
 * verifies against its manifest. Otherwise it is refused with an IntegrityError.
 */
import vm from "node:vm";
import { syncBuiltinESMExports } from "node:module";
import { IntegrityError } from "../verify/integrity-error.js";
import type { OutputGuard } from "../verify/output-guard.js";
import { fileOfName, metaFiles, sourceUrlFiles } from "./evaluated-file.js";
import { guardFunctionConstructors } from "./function-constructors.js";
import { runnerUnverified } from "./runner-verified.js";

export { RUNNER_VERIFIED } from "./runner-verified.js";

type RunOptions = { filename?: unknown; identifier?: unknown } | string | undefined;

/** The file a `vm` call names its code by (`filename`, or a module's `identifier`), or null. */
function fileOf(options: RunOptions): string | null {
  const name = typeof options === "string" ? options : (options?.filename ?? options?.identifier);
  return typeof name === "string" ? fileOfName(name) : null;
}

/** Refuses code named by `files` when one of them is build output that nothing verified. */
export function checkEvaluated(guard: OutputGuard, files: readonly string[]): void {
  for (const file of files) {
    if (guard.outputFolderOf(file) === null) continue;
    const unverified = runnerUnverified();
    if (unverified !== null) throw new IntegrityError(file, `${file} is build output evaluated by a module runner (Vitest, Vite's module runner and ssrLoadModule), which reads and runs it without Node's loader, so ${unverified} and it does not run\n  Fix: add ryeVerify() from rye-build/vite to the plugins of that Vite or Vitest config`);
    // The plugin verified the bytes its server read; the file must still be exactly what was signed.
    guard.beforeRead(file);
    guard.check(file, guard.read(file));
  }
}

let installed = false;

/** Wraps what module runners evaluate code with, once per thread. */
export function guardModuleRunners(guard: OutputGuard): void {
  if (installed) return;
  installed = true;
  const check = (options: RunOptions) => {
    const file = fileOf(options);
    if (file !== null) checkEvaluated(guard, [file]);
  };
  guardVm(check);
  guardFunctionConstructors(
    (text) => checkEvaluated(guard, sourceUrlFiles(text)),
    (args) => checkEvaluated(guard, metaFiles(args)),
  );
}

type AnyFn = (...args: never[]) => unknown;

/** Replaces `vm[name]` by a function that checks the options at `at` first. */
function wrapCall(name: "runInThisContext" | "runInContext" | "runInNewContext" | "compileFunction", at: number, check: (o: RunOptions) => void): void {
  const original = vm[name] as AnyFn;
  (vm as unknown as Record<string, AnyFn>)[name] = new Proxy(original, {
    apply(target, self, args: unknown[]) {
      check(args[at] as RunOptions);
      return Reflect.apply(target, self, args);
    },
  });
}

/** Replaces the class `vm[name]` by a Proxy that checks its options before constructing (instanceof unchanged). */
function wrapClass(name: "Script" | "SourceTextModule", check: (o: RunOptions) => void): void {
  const original = (vm as unknown as Record<string, AnyFn | undefined>)[name];
  if (typeof original !== "function") return;
  (vm as unknown as Record<string, AnyFn>)[name] = new Proxy(original, {
    construct(target, args: unknown[], newTarget) {
      check(args[1] as RunOptions);
      return Reflect.construct(target, args, newTarget === undefined ? target : newTarget) as object;
    },
  });
}

function guardVm(check: (o: RunOptions) => void): void {
  wrapCall("runInThisContext", 1, check);
  wrapCall("runInContext", 2, check);
  wrapCall("runInNewContext", 2, check);
  wrapCall("compileFunction", 2, check);
  wrapClass("Script", check);
  // Only with --experimental-vm-modules.
  wrapClass("SourceTextModule", check);
  // `import { runInThisContext } from "node:vm"` in a runner sees the wrapped ones too.
  syncBuiltinESMExports();
}
