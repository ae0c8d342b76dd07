/**
 * "The checkout" of a bundle run (decisions.md #23): the folders a pull request or a downloaded
 * archive can fill, whose files must not choose what code a verified bundle runs. They are
 *   1. the bundle's own folder, and the project above it when that folder is build output
 *      (it holds `manifest.json`), or the nearest folder at or above it holding `.ai/`;
 *   2. the project of the working directory (the nearest folder holding `.ai/`, as rye build finds it);
 *   3. the project a tool runs against (`--project`);
 *   4. the working directory itself, whether or not it holds `.ai/`;
 *   5. every git working tree holding one of these (the nearest folder at or above it with `.git`),
 *      and, always, their ancestors up to the home folder or a top-level system folder
 *      (checkout-ancestors.ts). A `.git` is itself a file of the checkout: an archive can carry an
 *      empty one anywhere, so it may widen the checkout (to a working tree above home) but never
 *      narrow it.
 * Each is taken both as named and with links resolved, and a path is in the checkout when either
 * of its two forms lies in either form of a root. The user space is outside the checkout unless it
 * lies inside one of these folders, and then it is a checkout folder like any other.
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { locateProject } from "../builder/load-project.js";
import { isInside, workingTreeOf } from "../project/find-project.js";
import { checkoutAncestors } from "../project/checkout-ancestors.js";
export { isInside };

/** The folders of a bundle run's checkout, and a test for paths inside them. */
export interface Checkout {
  /** Every root, as named and resolved, without duplicates. */
  roots: readonly string[];
  /** True when `path` (absolute, or relative to the working directory) lies in the checkout. */
  contains(path: string): boolean;
}

/** Where a bundle run happens. */
export interface CheckoutOptions {
  /** The bundle file. */
  bundle: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The project a bundled tool runs against, when there is one. */
  project?: string;
}

/** The most components `real()` resolves: each missing one costs a lookup, and a caller's value can hold any number. */
export const MAX_PATH_COMPONENTS = 4096;

/** A path with more than MAX_PATH_COMPONENTS components, which `real()` does not resolve. */
export class PathTooDeepError extends Error {}

function real(path: string): string {
  if (path.split(sep).length > MAX_PATH_COMPONENTS) {
    throw new PathTooDeepError(`${path.slice(0, 64)}… has more than ${MAX_PATH_COMPONENTS} components`);
  }
  // A path that does not exist yet: resolve its nearest existing ancestor, keep the rest.
  const rest: string[] = [];
  for (let at = path; ; ) {
    try {
      return join(realpathSync(at), ...rest);
    } catch {
      const parent = dirname(at);
      if (parent === at) return rest.length === 0 ? at : join(at, ...rest);
      rest.unshift(at.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      at = parent;
    }
  }
}

/** The project holding a bundle: the folder above an output folder, else the nearest `.ai/` project. */
function bundleProject(folder: string, options: CheckoutOptions): string | null {
  if (existsSync(join(folder, "manifest.json"))) return dirname(folder);
  const found = locateProject({ cwd: folder, env: options.env });
  return "problem" in found ? null : found.root;
}

/** The checkout around a bundle run (see the file comment for exactly which folders). */
export function checkoutOf(options: CheckoutOptions): Checkout {
  const bundleFile = resolve(options.cwd, options.bundle);
  const seeds: string[] = [];
  for (const file of new Set([bundleFile, real(bundleFile)])) {
    const folder = dirname(file);
    seeds.push(folder);
    const project = bundleProject(folder, options);
    if (project) seeds.push(project);
  }
  seeds.push(resolve(options.cwd));
  const fromCwd = locateProject({ cwd: options.cwd, env: options.env });
  if (!("problem" in fromCwd)) seeds.push(fromCwd.root);
  if (options.project !== undefined) seeds.push(resolve(options.cwd, options.project));
  const roots = new Set<string>();
  for (const seed of seeds) {
    for (const form of [seed, real(seed)]) {
      roots.add(form);
      const tree = workingTreeOf(form);
      if (tree !== null) {
        roots.add(tree);
        roots.add(real(tree));
      }
      for (const above of checkoutAncestors(form)) roots.add(above);
    }
  }
  const list = [...roots];
  const contains = (path: string) => {
    const named = isAbsolute(path) ? resolve(path) : resolve(options.cwd, path);
    return [named, real(named)].some((p) => list.some((root) => isInside(p, root)));
  };
  return { roots: list, contains };
}
