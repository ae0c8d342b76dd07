/**
 * Where a bundle run's process finds a program, and how a refusal of the checkout rule reads:
 * shared by the launcher walk (launch-guard.ts) and the operand checks (launch-operands.ts).
 */
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import type { Checkout } from "./checkout.js";

/** What the rule needs: the checkout, the plan's files (as named and resolved), and how to opt in. */
export interface LaunchScope {
  checkout: Checkout;
  vouched: ReadonlySet<string>;
  optIn: string;
}

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
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

/** The environment and working directory a program starts with. */
export interface State {
  env: Record<string, string>;
  cwd: string;
}

export const refuse = (what: string, scope: LaunchScope) => `${what}; a bundle run does not let the checkout choose code to run (${scope.optIn})`;
export const where = (word: string, at: number) => (at >= 0 ? `argv[${at}] ${JSON.stringify(word)}` : `${JSON.stringify(word)} (inside env -S)`);

/** True when `path` lies in the checkout and the plan did not hash it. */
export function outsidePlan(path: string, scope: LaunchScope): boolean {
  if (!scope.checkout.contains(path)) return false;
  return !scope.vouched.has(path) && !scope.vouched.has(realOf(path));
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
