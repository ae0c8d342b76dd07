/**
 * The checkout of a folder that no git working tree holds. An archive, a CI artifact or a Docker
 * context without `.git` still carries the whole repository it came from, and a sub-project cannot
 * tell where that repository began (no list of workspace tools could: a layout unknown to it would
 * open the hole again). So every ancestor counts as checkout, up to the first one that cannot have
 * come with the sources:
 *   - the filesystem root and its own top-level folders (/usr, /opt, /nix, /tmp, /home…), which a
 *     system or every user shares;
 *   - the account's home folder and every folder above it, taken from the password database (the
 *     checkout and the environment set neither HOME nor it);
 *   - a folder owned by someone other than the owner of the folder the walk started from.
 * Counting too much is the safe error: an entry dropped from PATH only leaves a tool to the rest of
 * PATH; an entry kept that the checkout filled would choose the code that runs.
 */
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { accountHome, isInside } from "./find-project.js";

function ownerOf(path: string): number | null {
  try {
    return statSync(path).uid;
  } catch {
    return null;
  }
}

/** The ancestors of `seed` (not `seed` itself) that belong to its checkout when no git tree holds it. */
export function checkoutAncestors(seed: string, home: string | null = accountHome()): string[] {
  const owner = ownerOf(seed);
  const found: string[] = [];
  for (let d = dirname(seed); dirname(d) !== d && dirname(dirname(d)) !== dirname(d); d = dirname(d)) {
    // `d` is neither the filesystem root nor one of its top-level folders (the loop condition).
    if (home !== null && isInside(home, d)) break;
    if (owner === null || ownerOf(d) !== owner) break;
    found.push(d);
  }
  return found;
}
