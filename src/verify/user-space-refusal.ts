// Whether a user space may vouch for a checked path: the one rule that keeps a checkout from
// carrying its own trust anchor. Its own module so that what needs only this rule (the bookkeeping
// secret, on every no-op build) does not load the trust store and its TOML reader.
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { accountHome, isInside, workingTreeOf } from "../project/find-project.js";
import { checkoutRootsOf, insideClause, rootHolding, type CheckoutRoot } from "../project/checkout-around.js";

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Where a check happens besides the checked path. */
export interface RefusalContext {
  /** The working directory: its checkout counts too, unless it is this account's home or above it. */
  cwd?: string;
  /** This account's home folder (default: from the password database); tests name another. */
  home?: string | null;
}

/** The project that holds `checked`: an output folder's parent; a bundle's folder, or the one above when that is build output. */
function projectOf(checked: string): string {
  const isDir = existsSync(checked) && statSync(checked).isDirectory();
  return isDir || existsSync(join(dirname(checked), "manifest.json")) ? dirname(isDir ? checked : dirname(checked)) : dirname(checked);
}

/** Every folder a checkout around the check may fill: the checked path's, its project's and the working directory's. */
export function checkoutsAround(checked: string, context: RefusalContext = {}): CheckoutRoot[] {
  const home = context.home === undefined ? accountHome() : context.home;
  const roots: CheckoutRoot[] = [];
  for (const c of new Set([resolve(checked), real(checked)])) {
    roots.push(...checkoutRootsOf(c, `the checked path ${c}`, home));
    roots.push(...checkoutRootsOf(projectOf(c), `${projectOf(c)}, the project that holds the checked path`, home));
  }
  // The working directory of a shell in the home folder (or above it) is not a checkout: home is
  // where the walk up from a checkout stops, by the password database, which no tree sets.
  const cwd = context.cwd === undefined ? null : resolve(context.cwd);
  if (cwd !== null && !(home !== null && (isInside(home, cwd) || isInside(home, real(cwd))))) {
    roots.push(...checkoutRootsOf(cwd, `the working directory ${cwd}`, home));
  }
  return roots;
}

/**
 * Why the user space cannot vouch for `checked`, or null when it can. It is a trust anchor only
 * when it lies outside every checkout around the check (see `checkoutsAround`): the checked path
 * and the project holding it, the working directory, each with its git working tree and every
 * folder above it up to this account's home (password database), a top-level folder or an owner
 * change. A `.git` only adds a root, so a checkout cannot make a folder above it "outside" by
 * carrying one. Refused too: a user space whose own git working tree holds the checked path.
 *
 * A user space nobody named (`named` false: HOME, not USER_SPACE or a flag) above the checked path
 * or the working directory is accepted only when it is this account's home folder: a container
 * whose checkout root is HOME (a top-level folder, say) puts it exactly where a real home sits.
 */
export function userSpaceRefusal(space: string, checked: string, named = true, context: RefusalContext = {}): string | null {
  const roots = checkoutsAround(checked, context);
  const hit = rootHolding(space, roots);
  if (hit !== null) return `it ${insideClause(hit)}`;
  const home = context.home === undefined ? accountHome() : context.home;
  for (const [u, c] of [[resolve(space), resolve(checked)], [real(space), real(checked)]] as const) {
    const tree = workingTreeOf(u);
    if (tree !== null && isInside(c, tree)) return `it is in the same git working tree (${tree}) as the checked path`;
    const cwd = context.cwd === undefined ? null : resolve(context.cwd);
    if (!named && (isInside(c, u) || (cwd !== null && isInside(cwd, u))) && real(u) !== home) {
      return `it lies above the checked path or the working directory, and it is not this account's home folder (${home ?? "unknown"}), so it may be the root of a checkout that holds them (a container whose checkout is HOME)`;
    }
  }
  return null;
}

/** The advice that goes with any refusal of a user space. */
export const OUTSIDE_ADVICE = "set USER_SPACE (or --user-space) to a folder outside every checkout, or pin keys with --trusted-key or RYE_TRUSTED_KEYS";
