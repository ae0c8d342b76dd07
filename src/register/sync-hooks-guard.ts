/**
 * Paths that load modules where rye's asynchronous hooks cannot stand outermost.
 *
 * `module.registerHooks` (Node ≥ 22.15) runs synchronous hooks inside the loader thread, before the
 * asynchronous ones: a later `load` hook that reads a file itself and short-circuits hands Node bytes
 * rye never saw. Every hook set registered after rye's is wrapped, so whatever source its `load`
 * returns for a file of an output folder is checked like the bytes of rye's own hook; a result with
 * no source for such a file (left for Node to read) is refused.
 *
 * `ShadowRealm#importValue` (behind `--experimental-shadow-realm`) loads modules with no hook at all:
 * where that API exists the verifier refuses to start, rather than leave a way around it.
 */
import Module, { syncBuiltinESMExports } from "node:module";
import { fileURLToPath } from "node:url";
import { IntegrityError } from "../verify/integrity-error.js";
import type { OutputGuard } from "../verify/output-guard.js";

type LoadResult = { format?: string | null; source?: string | ArrayBuffer | ArrayBufferView | null; shortCircuit?: boolean };
type SyncLoad = (url: string, context: unknown, nextLoad: (url: string, context?: unknown) => LoadResult) => LoadResult;
type SyncHooks = { load?: SyncLoad; resolve?: unknown };
type RegisterHooks = (hooks: SyncHooks) => unknown;

function bytesOf(source: NonNullable<LoadResult["source"]>): Uint8Array | string {
  if (typeof source === "string" || source instanceof Uint8Array) return source;
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  return new Uint8Array(source);
}

/** The `load` hook `load`, with every result for a file of an output folder verified. */
export function verifiedSyncLoad(guard: OutputGuard, load: SyncLoad): SyncLoad {
  return function ryeVerifiedSyncLoad(url, context, nextLoad) {
    const result = load(url, context, nextLoad);
    if (!url.startsWith("file:")) return result;
    const path = fileURLToPath(url);
    if (result?.source !== null && result?.source !== undefined) guard.check(path, bytesOf(result.source));
    else if (guard.beforeRead(path) !== null) throw new IntegrityError(path, `${path} would be loaded by a synchronous module hook without its source passing through the verifier, so it does not run`);
    return result;
  };
}

/** Wraps `module.registerHooks` where it exists; refuses to start where ShadowRealm exists. */
export function guardSyncHooks(guard: OutputGuard, mod: { registerHooks?: RegisterHooks } = Module as unknown as { registerHooks?: RegisterHooks }): void {
  if (typeof (globalThis as { ShadowRealm?: unknown }).ShadowRealm === "function") {
    throw new Error("ShadowRealm is enabled (--experimental-shadow-realm): its importValue loads modules with no hook, so rye cannot verify build output in this process; run without that flag");
  }
  const original = mod.registerHooks;
  if (typeof original !== "function") return;
  mod.registerHooks = function ryeVerifiedRegisterHooks(this: unknown, hooks: SyncHooks) {
    if (hooks === null || typeof hooks !== "object" || typeof hooks.load !== "function") return original.call(this, hooks);
    return original.call(this, { ...hooks, load: verifiedSyncLoad(guard, hooks.load) });
  };
  if (mod === (Module as unknown)) syncBuiltinESMExports();
}
