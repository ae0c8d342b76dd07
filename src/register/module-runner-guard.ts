/**
 * Module runners evaluate code themselves, past Node's loader hooks and CommonJS handlers: Vitest
 * (Vite's module runner) runs what the Vite server transformed with `vm.runInThisContext` /
 * `vm.runInContext`, named by the module's file; Vite's own ESModulesEvaluator
 * (`server.ssrLoadModule`) compiles it with `new AsyncFunction(…)`, named by a `//# sourceURL=`
 * comment and called with the module's `import.meta`. Every way to compile a string that can carry
 * such a name is guarded here: the `vm` functions and classes (by `filename`; vm-guard.ts), the
 * four Function constructors of this realm and of every `vm` context (by the `sourceURL` of the
 * text, and, for the async and generator kinds, by the `import.meta` a call hands over;
 * function-constructors.ts).
 *
 * Code named by a file of an output folder runs only when both hold, checked before it runs:
 * the `rye-build/vite` plugin feeds this runner (its load hook verified the bytes the server
 * transformed; see runner-verified.ts for how a worker knows), and the file as it is on disk now
 * verifies against its manifest. Otherwise it is refused with an IntegrityError.
 */
import { IntegrityError } from "../verify/integrity-error.js";
import type { OutputGuard } from "../verify/output-guard.js";
import { fileOfName, metaFiles, sourceUrlFiles } from "./evaluated-file.js";
import { guardRealm, thisRealm } from "./function-constructors.js";
import { runnerUnverified } from "./runner-verified.js";
import { guardVm, type RunOptions } from "./vm-guard.js";

export { RUNNER_VERIFIED } from "./runner-verified.js";

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
  const onCompile = (text: string) => checkEvaluated(guard, sourceUrlFiles(text));
  const onCall = (args: readonly unknown[]) => checkEvaluated(guard, metaFiles(args));
  guardRealm(thisRealm(), onCompile, onCall);
  guardVm(
    (options) => {
      const file = fileOf(options);
      if (file !== null) checkEvaluated(guard, [file]);
    },
    (realm) => guardRealm(realm, onCompile, onCall),
  );
}
