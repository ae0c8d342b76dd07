/**
 * The folders a checkout holding a folder may fill, by the widest rule: the folder itself, the git
 * working tree holding it, and always its ancestors up to the account's home, a top-level folder
 * or an owner change (checkout-ancestors.ts). A `.git` is a file the checkout itself may carry (an
 * archive can hold an empty one anywhere), so it only ever adds a root; it never ends the walk.
 * Each folder is taken as named and with links resolved.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { accountHome, isInside, workingTreeOf } from "./find-project.js";
import { checkoutAncestors } from "./checkout-ancestors.js";

/** A folder of a checkout, and why it counts (for messages). */
export interface CheckoutRoot {
  root: string;
  /** The seed itself, the git working tree holding it, or a folder above it. */
  kind: "seed" | "tree" | "above";
  /** What the seed is, e.g. "the working directory /w". */
  what: string;
}

function forms(path: string): string[] {
  const named = resolve(path);
  try {
    const real = realpathSync(named);
    return real === named ? [named] : [named, real];
  } catch {
    return [named];
  }
}

/** The checkout roots around `seed` (described as `what`, e.g. "the working directory"). */
export function checkoutRootsOf(seed: string, what: string, home: string | null = accountHome()): CheckoutRoot[] {
  const roots: CheckoutRoot[] = [];
  for (const form of forms(seed)) {
    roots.push({ root: form, kind: "seed", what });
    const tree = workingTreeOf(form);
    if (tree !== null) for (const t of forms(tree)) roots.push({ root: t, kind: "tree", what });
    for (const above of checkoutAncestors(form, home)) roots.push({ root: above, kind: "above", what });
  }
  return roots;
}

/** The root of `roots` that holds `path` (either of its forms), seeds before trees before folders above; or null. */
export function rootHolding(path: string, roots: readonly CheckoutRoot[]): CheckoutRoot | null {
  for (const kind of ["seed", "tree", "above"] as const) {
    for (const form of forms(path)) {
      const hit = roots.find((r) => r.kind === kind && isInside(form, r.root));
      if (hit !== undefined) return hit;
    }
  }
  return null;
}

/** Why a path inside `hit` is in a checkout, as a clause after "it". */
export function insideClause(hit: CheckoutRoot): string {
  if (hit.kind === "seed") return `is inside ${hit.what}`;
  if (hit.kind === "tree") return `is in the same git working tree (${hit.root}) as ${hit.what}`;
  return `is inside ${hit.root}, a folder above ${hit.what}: a checkout may fill it, and no marker in the tree (a .git, an .ai/) can end the checkout below it`;
}
