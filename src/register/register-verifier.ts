import { register } from "node:module";
import type { GuardOptions } from "../verify/output-guard.js";

const registered = new Set<string>();

/**
 * Installs the verifying loader hooks in this process (Node ≥ 20.6): every module Node loads from
 * a build output folder from now on is verified first. Registering the same options twice is a no-op.
 */
export function registerVerifier(options: GuardOptions = {}): void {
  if (typeof register !== "function") throw new Error(`Node ${process.versions.node} cannot verify modules as it loads them: module.register needs Node 20.6 or later`);
  const data = { trustedKeys: [...(options.trustedKeys ?? [])], outputDirs: [...(options.outputDirs ?? [])], cwd: options.cwd ?? process.cwd() };
  const key = JSON.stringify(data);
  if (registered.has(key)) return;
  registered.add(key);
  register(new URL("./verify-hooks.js", import.meta.url), { data });
}
