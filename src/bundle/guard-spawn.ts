/**
 * The last check before a bundled tool's process starts: whatever chose it (the plan, an
 * interpreter variable, a search list), the program must not be a file of the checkout unless the
 * bundle's plan names that very file (its hash was checked before the run), and its environment
 * goes through `checkoutEnv`. It wraps the spawner the runtime is given, so it holds for bundles
 * built by any rye version: their runtime spawns through the `execa` option too.
 */
import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import type { Execa } from "../runtime/exec/run-process.js";
import type { Checkout } from "./checkout.js";
import { checkoutEnv } from "./checkout-env.js";

/** What the guard needs: the checkout, the files the plan vouches for, and how to opt out. */
export interface SpawnGuard {
  checkout: Checkout;
  /** Absolute paths of the plan's chain files (re-hashed before the run). */
  planFiles: readonly string[];
  /** Appended to every refusal, e.g. "pass --trust-checkout to let it". */
  optIn: string;
}

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const real = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** The file the OS would run for `file`: a path as given (against `cwd`), else the first executable on PATH. */
export function locateProgram(file: string, path: string | undefined, cwd: string): string | null {
  if (file.includes("/")) return isAbsolute(file) ? file : resolve(cwd, file);
  for (const dir of (path ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(isAbsolute(dir) ? dir : resolve(cwd, dir), file);
    if (executable(candidate)) return candidate;
  }
  return null;
}

/** Why `file` may not start under `guard`, or null; also returns the environment to start it with. */
export function checkSpawn(file: string, env: Readonly<Record<string, string | undefined>>, cwd: string, guard: SpawnGuard): { env: Record<string, string>; problem: string | null } {
  const checked = checkoutEnv(env, guard.checkout);
  if (checked.problem) return { env: checked.env, problem: `${checked.problem}; a bundle run does not let the checkout choose code to run (${guard.optIn})` };
  const program = locateProgram(file, checked.env.PATH, cwd);
  if (program !== null && guard.checkout.contains(program)) {
    const vouched = new Set(guard.planFiles.flatMap((f) => [f, real(f)]));
    if (!vouched.has(program) && !vouched.has(real(program))) {
      return { env: checked.env, problem: `${program} lies in the checkout, and a bundle run does not let the checkout choose code to run (${guard.optIn})` };
    }
  }
  return { env: checked.env, problem: null };
}

/** `inner`, refusing (by throwing, which the runtime reports as a failed start) what `checkSpawn` refuses. */
export function guardedExeca(inner: Execa, guard: SpawnGuard): Execa {
  return (file, args, options) => {
    const cwd = typeof options.cwd === "string" && options.cwd ? options.cwd : process.cwd();
    const env = (options.env ?? {}) as Record<string, string | undefined>;
    const { env: childEnv, problem } = checkSpawn(file, env, cwd, guard);
    if (problem) throw new Error(`refused: ${problem}`);
    return inner(file, args, { ...options, env: childEnv });
  };
}
