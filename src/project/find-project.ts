// Which folder a command works on. A project is a folder holding `.ai/`; without --project the
// nearest one at or above the working directory is used, as tsc finds tsconfig.json. Nothing here
// creates or writes anything, so a command that is given no project touches nothing.
import { existsSync, realpathSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname, join, resolve, sep } from "node:path";

export type FoundProject = { root: string } | { problem: string };

export interface FindProjectOptions {
  /** `--project DIR` as given; relative to `cwd`. */
  project?: string;
  cwd: string;
  /**
   * The user space. Walking up stops below it: a home folder's `.ai/` is the user space, not a
   * project, and building it by accident would write `out/` into home. `--project` may still name it.
   */
  userSpace?: string;
}

/** True when `dir` holds a `.ai` folder (a symlink to one counts). */
export function holdsProject(dir: string): boolean {
  return statOf(join(dir, ".ai"))?.isDirectory() ?? false;
}

/** A stat, or undefined for a path that cannot be looked at (missing, a file in the way, no permission). */
function statOf(path: string) {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The project root, or why there is none (the CLI reports that as a usage error). */
export function findProject(options: FindProjectOptions): FoundProject {
  if (options.project !== undefined) return checkGiven(resolve(options.cwd, options.project), options.project);
  const start = resolve(options.cwd);
  const stop = options.userSpace === undefined ? null : resolve(options.cwd, options.userSpace);
  for (let dir = start; ; dir = dirname(dir)) {
    if (dir === stop) {
      return { problem: `no project found: no folder from ${start} up to the user space ${stop} holds .ai/ (the user space is not a project; pass --project ${stop} to build it)` };
    }
    if (holdsProject(dir)) return { root: dir };
    if (dirname(dir) === dir) break;
  }
  return { problem: `no project found: neither ${start} nor any folder above it holds .ai/; run rye inside a project or pass --project DIR` };
}

function checkGiven(root: string, given: string): FoundProject {
  const st = statOf(root);
  if (!st) return { problem: `--project ${given}: ${root} does not exist` };
  if (!st.isDirectory()) return { problem: `--project ${given}: ${root} is not a folder` };
  if (!holdsProject(root)) return { problem: `--project ${given}: ${root} holds no .ai/ folder, so it is not a Rye project (items live in .ai/directives/, .ai/knowledge/ and .ai/tools/)` };
  return { root };
}

/** True when `child` is `parent` or lies below it (paths as given, no links resolved). */
export function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** The nearest folder at or above `dir` holding `.git` (a directory, or a worktree's file), if any. */
export function workingTreeOf(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return d;
    if (dirname(d) === d) return null;
  }
}

/**
 * This account's home folder from the password database, links resolved (as named when it cannot be
 * resolved), or null when the account has none. Neither a checkout nor the environment sets it, so
 * it is where "outside the checkout" can be anchored when no repository marks the checkout's edge.
 */
export function accountHome(): string | null {
  let home: string;
  try {
    home = userInfo().homedir;
  } catch {
    return null;
  }
  try {
    return realpathSync(home);
  } catch {
    return home;
  }
}
