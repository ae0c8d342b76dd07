// Whether a user space may vouch for a checked path: the one rule that keeps a checkout from
// carrying its own trust anchor. Its own module so that what needs only this rule (the bookkeeping
// secret, on every no-op build) does not load the trust store and its TOML reader.
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { accountHome, isInside, workingTreeOf } from "../project/find-project.js";

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Why the user space cannot vouch for `checked`, or null when it can. It is refused when it is the
 * checked folder, lies inside it or in the project that holds it (the folder above an output
 * folder, the folder of a bundle), or shares a git working tree with it: in each case a checkout
 * could carry the user space's `.ai/` with the attacker's key in it. A home folder above the
 * project's own repository is outside all of these, and is accepted.
 *
 * Without a repository nothing marks where a checkout ends: a container whose checkout root is
 * HOME puts the user space above the checked path, exactly where a real home folder sits. So a
 * user space nobody named (`named` false: HOME, not USER_SPACE or a flag) that lies above the checked
 * path with no repository between them is accepted only when it is this account's home folder in
 * the password database, which neither a checkout nor the environment sets.
 */
export function userSpaceRefusal(space: string, checked: string, named = true): string | null {
  // Both as named and with links resolved: an `out` link into a generation folder is still in the project.
  for (const [u, c] of [[resolve(space), resolve(checked)], [real(space), real(checked)]] as const) {
    const isDir = existsSync(c) && statSync(c).isDirectory();
    // An output folder's project is its parent; a bundle's is the folder it sits in, or the one
    // above when that folder is itself build output.
    const project = isDir || existsSync(join(dirname(c), "manifest.json")) ? dirname(isDir ? c : dirname(c)) : dirname(c);
    if (isInside(u, c)) return `it is inside the checked path ${c}`;
    if (isInside(u, project)) return `it is inside ${project}, the project that holds the checked path`;
    const tree = workingTreeOf(u);
    if (tree !== null && isInside(c, tree)) return `it is in the same git working tree (${tree}) as the checked path`;
    if (!named && isInside(c, u) && !repositoryBetween(u, c) && real(u) !== accountHome()) {
      return `it lies above the checked path with no git repository between them, and it is not this account's home folder (${accountHome() ?? "unknown"}), so it may be the root of a checkout that holds the checked path (a container whose checkout is HOME); name the user space with USER_SPACE or --user-space, or pin keys with RYE_TRUSTED_KEYS`;
    }
  }
  return null;
}

/** True when a git working tree holding `checked` starts below `space`. */
function repositoryBetween(space: string, checked: string): boolean {
  const tree = workingTreeOf(checked);
  return tree !== null && tree !== space && isInside(tree, space);
}
