// Every file `rye test` looks up, creates, rewrites or removes in a checkout is a snapshot under
// `.ai/tests/__snapshots__/`, and every such operation goes through here. A checkout can hold a
// link anywhere on that path (a dangling link where a snapshot is missing, a linked
// `__snapshots__` folder), and following one would write or delete outside the project: the trust
// store, another project's files. So a path is used only when, by its words, it lies under the
// snapshot folder (no `..`, `.` or empty part), every folder on it from the project root down is a
// plain folder (a missing one is created alone and checked again), and the file itself is written
// with O_NOFOLLOW into a regular file of one name, or removed only when it is one. Anything else is
// refused, naming the path and what lies there; nothing is written or removed.
import { lstatSync, mkdirSync, unlinkSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { entryKind, plainFolders, writeNoFollow } from "../output/no-follow.js";
import { describeWithTarget } from "../project/read-regular.js";

/** The folder, relative to the project root, that holds every snapshot. */
export const SNAPSHOT_FOLDER = ".ai/tests/__snapshots__";

/** A path refused because of what lies on it; `rel` is relative to the project root when inside it. */
export class PathRefused extends Error {
  constructor(
    readonly rel: string,
    readonly reason: string,
  ) {
    super(`${rel} ${reason}; rye test reads, writes and removes files of a project only through plain folders and files`);
  }
}

/** The parts of `rel` (relative to the root) after checking its words place it under the snapshot folder. */
function partsOf(rel: string): string[] {
  const parts = rel.split("/");
  const under = SNAPSHOT_FOLDER.split("/").every((p, i) => parts[i] === p) && parts.length > 3;
  if (!under || parts.some((p) => p === "" || p === "." || p === ".." || p.includes("\\") || p.includes("\0"))) {
    throw new PathRefused(rel, `is not a path under ${SNAPSHOT_FOLDER}/`);
  }
  return parts;
}

/**
 * Checks that every folder of `parts` (the last part excepted) below `root` is a plain folder.
 * `create` makes a missing one (one level at a time, each checked after); without it, true means
 * a folder is missing (so the file is absent too).
 */
function folderChain(root: string, parts: readonly string[], create: boolean): boolean {
  for (let i = 1; i < parts.length; i++) {
    const rel = parts.slice(0, i).join("/");
    const abs = join(root, rel);
    let st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st && !create) return true;
    if (!st) {
      mkdirSync(abs);
      st = lstatSync(abs);
    }
    if (!st.isDirectory()) throw new PathRefused(rel, `is ${describeWithTarget(abs, st)}, not a folder`);
  }
  return false;
}

/** The final entry judged: "absent", "file" (regular, one name), or refused. */
function fileAt(root: string, rel: string): "absent" | "file" {
  const abs = join(root, rel);
  const kind = entryKind(abs);
  if (kind === "absent" || kind === "file") return kind;
  const st = lstatSync(abs);
  throw new PathRefused(rel, `is ${st.isFile() ? "a file with another name (a hard link)" : describeWithTarget(abs, st)}`);
}

/** Whether the snapshot at `rel` exists as a plain file; throws PathRefused for anything else on the path. */
export function snapshotEntry(root: string, rel: string): "absent" | "file" {
  const parts = partsOf(rel);
  if (folderChain(root, parts, false)) return "absent";
  return fileAt(root, rel);
}

/** Writes the snapshot at `rel`, creating its folders; throws PathRefused (having written nothing) when the path is not plain. */
export function writeSnapshot(root: string, rel: string, text: string): void {
  folderChain(root, partsOf(rel), true);
  fileAt(root, rel);
  try {
    writeNoFollow(join(root, rel), text);
  } catch (e) {
    throw new PathRefused(rel, `cannot be written (${(e as Error).message})`);
  }
}

/** Removes the snapshot at `rel` when it is a plain file; throws PathRefused for anything else on the path. */
export function removeSnapshot(root: string, rel: string): void {
  const parts = partsOf(rel);
  if (folderChain(root, parts, false) || fileAt(root, rel) === "absent") return;
  unlinkSync(join(root, rel));
}

/** Checks that the snapshot folder itself and each folder above it is plain; false when it is absent. */
export function snapshotFolderPlain(root: string): boolean {
  const parts = SNAPSHOT_FOLDER.split("/");
  if (folderChain(root, [...parts, "x"], false)) return false;
  return true;
}

/**
 * The report file `--output-file` names. Whoever runs rye names it, but often inside the checkout
 * (`junit.xml` in CI), where the checkout may have put a link: the file is written with O_NOFOLLOW
 * into a regular file of one name, and when it lies in the project every folder on its way must be plain.
 */
export function writeOutputFile(path: string, text: string, root: string): void {
  const rel = relative(root, path);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  if (inside && !plainFolders(root, rel.split(sep).join("/"))) throw new PathRefused(rel, "has a link or a file where a folder is on its way");
  try {
    writeNoFollow(path, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new PathRefused(inside ? rel : path, code === "ELOOP" ? "is a symbolic link" : `cannot be written (${(e as Error).message})`);
  }
}
