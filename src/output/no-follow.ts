// File operations that never follow a link out of the folder they are given. A checkout can hold
// symlinks, hard links and special files anywhere in out/ and .rye-cache/: reads take only regular
// files (a FIFO would block a read forever, a link would read another file), writes never go through
// a symlink or into a file with a second name, and a path is used only when every folder on it
// below its root is a plain folder.
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, writeSync } from "node:fs";
import { readRegularText } from "../project/read-regular.js";
import { join } from "node:path";

const WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The text of `path` when it is a regular file (not a link, FIFO or device) of bounded size, else null. */
export function readRegular(path: string): string | null {
  try {
    return readRegularText(path, { kind: "manifest", link: { links: "refuse" } });
  } catch {
    return null;
  }
}

/** An error for a write refused because of what is at the path (reported like any write failure). */
function refused(path: string, what: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${path} is ${what}; rye build never writes through it`), { code: "ELOOP", path });
}

/**
 * Writes `data` to `path`, creating it, but never through a symlink (O_NOFOLLOW), into a special
 * file, or into a regular file that has a second name (a hard link: the bytes would change
 * somewhere else too). The file is truncated only after it was checked.
 */
export function writeNoFollow(path: string, data: string | Uint8Array): void {
  const fd = openSync(path, WRITE, 0o666);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw refused(path, "not a regular file");
    if (st.nlink > 1) throw refused(path, "a file with another name (a hard link)");
    ftruncateSync(fd, 0);
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at, bytes.byteLength - at, at);
  } finally {
    closeSync(fd);
  }
}

/**
 * True when every folder on `rel` (a `/`-separated path under `root`, its last part excepted) that
 * exists is a plain folder, not a symlink or anything else. `checked` remembers folders found plain.
 */
export function plainFolders(root: string, rel: string, checked?: Set<string>): boolean {
  for (let i = rel.indexOf("/"); i > 0; i = rel.indexOf("/", i + 1)) {
    const dir = rel.slice(0, i);
    if (checked?.has(dir)) continue;
    const st = lstatSync(join(root, dir), { throwIfNoEntry: false });
    if (!st) return true;
    if (!st.isDirectory()) return false;
    checked?.add(dir);
  }
  return true;
}

/** What is at `path` without following a link: "absent", "file" (regular, one name), "dir", or "other". */
export function entryKind(path: string): "absent" | "file" | "dir" | "other" {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return !st ? "absent" : st.isDirectory() ? "dir" : st.isFile() && st.nlink === 1 ? "file" : "other";
}
