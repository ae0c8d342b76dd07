// The file operations the output writer performs, behind one interface so tests can make any one of
// them fail (a full disk, a permission, a process killed between two of them) without a real disk
// in that state.
import { accessSync, constants, mkdirSync, renameSync, rmSync, rmdirSync, unlinkSync } from "node:fs";
import { writeNoFollow } from "./no-follow.js";

export interface OutputFs {
  writeFile(path: string, data: string): void;
  rename(from: string, to: string): void;
  /** Creates `path` and missing parents; returns the first folder it created (undefined: none). */
  mkdir(path: string): string | undefined;
  unlink(path: string): void;
  rmdir(path: string): void;
  /** Removes a folder and everything in it; no error when it is absent. */
  rmTree(path: string): void;
  /** Throws (EACCES, EROFS, …) when this process may not create or remove entries in the folder `dir`. */
  checkWritable(dir: string): void;
}

export const realFs: OutputFs = {
  // Never through a link or into a file with a second name: see no-follow.ts.
  writeFile: (path, data) => writeNoFollow(path, data),
  rename: (from, to) => renameSync(from, to),
  mkdir: (path) => mkdirSync(path, { recursive: true }),
  unlink: (path) => unlinkSync(path),
  rmdir: (path) => rmdirSync(path),
  rmTree: (path) => rmSync(path, { recursive: true, force: true }),
  checkWritable: (dir) => accessSync(dir, constants.W_OK | constants.X_OK),
};

/** A failure to write the output folder, with the file or folder it happened at (for a located diagnostic). */
export class OutputError extends Error {
  constructor(
    message: string,
    /** The file or folder the failure is about. */
    readonly path: string,
    /** RYE8005: the folder is refused; RYE8006: writing it failed (disk full, permission, I/O); RYE8002: a source could not be read again as it was. */
    readonly code: "RYE8002" | "RYE8005" | "RYE8006",
    readonly errno?: string,
    /** The message without the path, for a diagnostic located at `path`. */
    readonly reason = message,
  ) {
    super(message);
  }
}

/** An fs error raised at `path` as an OutputError (RYE8006), with a reason a user can act on. */
export function writeFailure(e: unknown, path: string, doing: string): OutputError {
  if (e instanceof OutputError) return e;
  const errno = (e as NodeJS.ErrnoException).code;
  const reason =
    errno === "ENOSPC" ? "no space left on the device" :
    errno === "EDQUOT" ? "the disk quota is exhausted" :
    errno === "EACCES" || errno === "EPERM" ? "permission denied" :
    errno === "EROFS" ? "the file system is read-only" :
    errno === "EIO" ? "an I/O error" :
    errno ?? (e as Error).message;
  return new OutputError(`${reason} while ${doing} ${path}`, path, "RYE8006", errno, `${reason} while ${doing} it`);
}
