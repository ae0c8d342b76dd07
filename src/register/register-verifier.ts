import { register } from "node:module";
import type { GuardOptions } from "../verify/output-guard.js";

const registered = new Set<string>();

// Node runs the hooks on a thread of its own, which loads JavaScript only: when this file runs from
// the TypeScript sources (the test suite), the hooks come from the compiled dist/ beside them.
function hooksUrl(): URL {
  const self = import.meta.url;
  return self.endsWith(".ts") ? new URL("../../dist/register/verify-hooks.js", self) : new URL("./verify-hooks.js", self);
}

/**
 * Installs the verifying loader hooks in this process (Node ≥ 20.6): every module Node loads from
 * a build output folder from now on is verified first. Registering the same options twice is a no-op.
 */
export function registerVerifier(options: GuardOptions = {}): void {
  if (typeof register !== "function") throw new Error(`Node ${process.versions.node} cannot verify modules as it loads them: module.register needs Node 20.6 or later`);
  const data: GuardOptions = { trustedKeys: [...(options.trustedKeys ?? [])], outputDirs: [...(options.outputDirs ?? [])], cwd: options.cwd ?? process.cwd() };
  if (options.env) data.env = { ...options.env };
  const key = JSON.stringify(data);
  if (registered.has(key)) return;
  register(hooksUrl(), { data });
  registered.add(key);
}
