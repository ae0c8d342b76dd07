/**
 * The last check before a bundled tool's process starts: whatever chose it (the plan, an
 * interpreter variable, a search list, a launcher in argv), the program must not be a file of the
 * checkout unless the bundle's plan names that very file (its hash was checked before the run), its
 * environment goes through `checkoutEnv`, and launch-guard.ts judges what the launcher walk
 * reaches. It wraps the spawner the runtime is given, so it holds for bundles built by any rye
 * version: their runtime spawns through the `execa` option too.
 */
import { realpathSync } from "node:fs";
import type { Execa } from "../runtime/exec/run-process.js";
import type { Checkout } from "./checkout.js";
import { checkoutEnv } from "./checkout-env.js";
import { launchProblem } from "./launch-guard.js";

/** What the guard needs: the checkout, the files the plan vouches for, and how to opt out. */
export interface SpawnGuard {
  checkout: Checkout;
  /** Absolute paths of the plan's chain files (re-hashed before the run). */
  planFiles: readonly string[];
  /** Appended to every refusal, e.g. "pass --trust-checkout to let it". */
  optIn: string;
}

export { locateProgram } from "./locate-program.js";

const real = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/**
 * Why `file args` may not start under `guard`, or null; also returns the environment to start it
 * with. The judged process is the one the launcher walk reaches, with the environment and working
 * directory it really gets (launch-guard.ts).
 */
export function checkSpawn(file: string, args: readonly string[], env: Readonly<Record<string, string | undefined>>, cwd: string, guard: SpawnGuard): { env: Record<string, string>; problem: string | null } {
  const checked = checkoutEnv(env, guard.checkout);
  if (checked.problem) return { env: checked.env, problem: `${checked.problem}; a bundle run does not let the checkout choose code to run (${guard.optIn})` };
  const vouched = new Set(guard.planFiles.flatMap((f) => [f, real(f)]));
  const problem = launchProblem(file, args, checked.env, cwd, { checkout: guard.checkout, vouched, optIn: guard.optIn });
  return { env: checked.env, problem };
}

/** `inner`, refusing (by throwing, which the runtime reports as a failed start) what `checkSpawn` refuses. */
export function guardedExeca(inner: Execa, guard: SpawnGuard): Execa {
  return (file, args, options) => {
    const cwd = typeof options.cwd === "string" && options.cwd ? options.cwd : process.cwd();
    const env = (options.env ?? {}) as Record<string, string | undefined>;
    const { env: childEnv, problem } = checkSpawn(file, args, env, cwd, guard);
    if (problem) throw new Error(`refused: ${problem}`);
    return inner(file, args, { ...options, env: childEnv });
  };
}
