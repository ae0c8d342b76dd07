// Root reads and writes files whatever their mode, so tests of permission errors run the CLI as
// an unprivileged user when they run as root. That user must be able to reach the CLI: a clone in
// a private folder (mode 0700, as `mktemp -d` makes) is out of its reach, and those tests then say
// so and skip instead of failing on an error that has nothing to do with the build.
import { spawnSync } from "node:child_process";
import { dirname } from "node:path";

/** The unprivileged user (`nobody`). */
export const NOBODY = 65534;
export const isRoot = process.getuid?.() === 0;

let reason: string | null | undefined;

/**
 * Why a test cannot run `bin` as NOBODY here, or null when it can: not root (then permissions
 * apply to the test's own user and no other user is needed), or NOBODY cannot read `bin`.
 */
export function cannotRunAsNobody(bin: string): string | null {
  if (!isRoot) return "runs a build as nobody, which needs root";
  if (reason !== undefined) return reason;
  const r = spawnSync(process.execPath, ["-e", "require('node:fs').accessSync(process.argv[1], require('node:fs').constants.R_OK)", bin], { uid: NOBODY, gid: NOBODY, encoding: "utf8" });
  reason = r.status === 0 ? null : `the unprivileged user cannot reach ${dirname(bin)} (a folder on the way is private to root)`;
  return reason;
}
