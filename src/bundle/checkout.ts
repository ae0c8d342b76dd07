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
  try {
    return realpathSync(path);
  } catch {
    // A path that does not exist yet: resolve its nearest existing ancestor, keep the rest.
  }
  const chain = [path];
  for (let at = path, parent = dirname(at); parent !== at; at = parent, parent = dirname(at)) chain.push(parent);
  // A folder that does not resolve has no descendant that does, so the nearest existing ancestor is
  // found by halving: a few lookups however many components are missing.
  let missing = 0;
  let found = chain.length;
  while (found - missing > 1) {
    const mid = (missing + found) >> 1;
    if (resolves(chain[mid]!)) found = mid;
    else missing = mid;
  }
  // No ancestor resolves: keep the top as named, as for a root that does not resolve.
  const topAt = Math.min(found, chain.length - 1);
  const top = found < chain.length ? realpathSync(chain[found]!) : chain[topAt]!;
  const rest = chain.slice(0, topAt).map((at, i) => at.slice(chain[i + 1]!.length + (chain[i + 1]!.endsWith(sep) ? 0 : 1)));
  return rest.length === 0 ? top : join(top, ...rest.reverse());
}

function resolves(path: string): boolean {
  try {
    realpathSync(path);
    return true;
  } catch {
    return false;
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
