/**
 * Whether the `rye-build/vite` plugin, whose load hook verifies every output file its server
 * reads, feeds the module runners of this process. The plugin says so in memory, on a
 * registry-wide symbol: the register entry and the plugin may be two copies of this file (a config
 * bundled with its imports, the sources beside dist/), and only code can set it.
 */
const KEY = Symbol.for("rye-build.runner-verified");

/** Set by the Vite plugin in the process whose server transforms what the runner evaluates. */
export const RUNNER_VERIFIED = "RYE_VITE_PLUGIN_VERIFIES";

type Marked = { [KEY]?: true };

/** Called by the plugin: runners of this process evaluate what its load hook verified. */
export function markRunnerVerified(): void {
  (globalThis as Marked)[KEY] = true;
  // Vitest evaluates in worker processes and threads, which inherit the environment.
  process.env[RUNNER_VERIFIED] = "1";
}

/** Whether a runner here evaluates what the plugin verified. */
export function runnerVerified(): boolean {
  return (globalThis as Marked)[KEY] === true || process.env[RUNNER_VERIFIED] === "1";
}
