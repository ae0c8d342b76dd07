// `{role_file}` files live in one private folder per user under the OS temp dir. Each name carries
// the pid of the rye that wrote it, so every run can remove files whose writer is gone (a rye killed
// with SIGKILL never got to remove its own).
import { randomBytes } from "node:crypto";
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const NAME = /^role-(\d+)-[0-9a-f]+\.md$/;

/** The private folder (0700, owned by this user, not a symlink), created when missing. */
export function roleFolder(base = tmpdir()): string {
  const uid = process.getuid?.() ?? 0;
  const dir = join(base, `rye-roles-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink() || (process.getuid && st.uid !== uid) || (st.mode & 0o077) !== 0) {
    throw new Error(`${dir} is not a private folder of this user (it must be a directory with mode 0700); remove it and run again`);
  }
  return dir;
}

/** Writes `content` to a new file only this user can read (0600, exclusive create, random name). */
export function writeRoleFile(content: string, dir = roleFolder()): string {
  const path = join(dir, `role-${process.pid}-${randomBytes(12).toString("hex")}.md`);
  const fd = openSync(path, "wx", 0o600);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return path;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Removes role files whose writing process no longer exists; returns the paths removed. */
export function sweepRoleFiles(dir = roleFolder()): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const m = NAME.exec(name);
    if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(join(dir, name));
  }
  return removed;
}
