// out/.rye/ is the writer's own folder (lock, journal, staging), but it sits in the checkout like the
// rest of out/: a pull request can put a link there (out/.rye itself → the home folder, .gitignore →
// ~/.bashrc, staging → a folder to be emptied). Before a build writes anything into it, the folder
// must be a plain folder, and whatever no build of ours creates there is removed (by name: a link is
// unlinked, never followed).
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { OutputError, writeFailure, type OutputFs } from "./output-fs.js";
import { WORK_DIR } from "./output-record.js";

/** The lock and a build's candidate lock files: briefly two names for one file while it is taken. */
const isLock = (name: string) => name === "lock" || name.startsWith("lock.");

/**
 * Refuses (RYE8005) an out/.rye that is not a plain folder; removes from one every symlink, special
 * file and (but for the lock) file with a second name, at its top and in its staging folder's place.
 */
export function scrubWorkDir(outDir: string, fs: OutputFs): void {
  const dir = join(outDir, WORK_DIR);
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return;
  if (!st.isDirectory()) {
    const what = st.isSymbolicLink() ? "a symlink" : "not a folder";
    throw new OutputError(`${dir} is ${what}; it is rye build's own work folder and must be a plain folder: remove it and build again`, dir, "RYE8005");
  }
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) continue;
      const planted = !e.isFile() || (!isLock(e.name) && lstatSync(path).nlink > 1);
      if (planted) fs.unlink(path);
    }
  } catch (e) {
    throw writeFailure(e, dir, "cleaning");
  }
}
