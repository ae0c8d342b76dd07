// The one writer of trust-entry files: every entry `rye keys trust | revoke | expire | rotate`
// creates or rewrites goes through `writeEntryFile`. `--space .` names a checkout, and a checkout can
// carry a link anywhere on `.ai/config/keys/trusted/<fp>.toml`: following `.ai/config/keys` would put
// the key into the user's own store (trusted for every output and the loader), following the entry
// file would overwrite whatever it points at. So each folder from the space root down is looked at
// without following links and must be a plain folder (a missing one is made alone, then looked at
// again), the entry's own name must be absent or a regular file, and the text goes to a fresh name
// opened with O_EXCL | O_NOFOLLOW that is then renamed over the entry (a rename replaces a name, it
// never writes through one). Anything else is refused, naming the path; nothing is written.
import { closeSync, constants, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join, sep } from "node:path";
import { describeWithTarget } from "../project/read-regular.js";
import { TRUST_DIRS } from "./keys.js";

const WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** A trust-entry write refused because of what lies on its path (a link, a file where a folder goes). */
export class EntryPathRefused extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} ${reason}; rye keys writes trust entries only through plain folders and files, so nothing was written`);
  }
}

/** The space root and the parts below it of an entry path `<root>/<one of TRUST_DIRS>/<name>.toml`. */
function entryLocation(path: string): { root: string; parts: string[] } {
  const all = path.split(sep);
  const name = all[all.length - 1] ?? "";
  for (const dir of TRUST_DIRS) {
    const parts = [...dir, name];
    const at = all.length - parts.length;
    if (at >= 1 && parts.every((p, i) => all[at + i] === p) && name.endsWith(".toml") && name !== ".toml") {
      return { root: all.slice(0, at).join(sep) || sep, parts };
    }
  }
  throw new EntryPathRefused(path, "is not a trust entry (<space>/.ai/config/keys/trusted/<name>.toml)");
}

/** Makes sure each folder of `parts` (the last part excepted) below `root` is a plain folder, making missing ones unless `create` is false. */
function plainFolderChain(root: string, parts: readonly string[], create = true): void {
  for (let i = 1; i < parts.length; i++) {
    const abs = join(root, ...parts.slice(0, i));
    let st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st && !create) return;
    if (!st) {
      try {
        mkdirSync(abs);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      st = lstatSync(abs);
    }
    if (!st.isDirectory()) throw new EntryPathRefused(abs, `is ${describeWithTarget(abs, st)}, not a folder`);
  }
}

function plainEntryName(path: string): void {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st && !st.isFile()) throw new EntryPathRefused(path, `is ${describeWithTarget(path, st)}, not a trust entry file`);
}

/**
 * Throws EntryPathRefused when `writeEntryFile(path, …)` would be refused, creating nothing: for a
 * command that changes something else first (rotate retires the signing key) and must not stop halfway.
 */
export function checkEntryPath(path: string): void {
  const { root, parts } = entryLocation(path);
  plainFolderChain(root, parts, false);
  plainEntryName(path);
}

/** Writes `text` as the trust entry at `path` (see above); throws EntryPathRefused, having written nothing, when the path is not plain. */
export function writeEntryFile(path: string, text: string): void {
  const { root, parts } = entryLocation(path);
  // The root is named by whoever runs rye (--space, USER_SPACE): made if missing, links above it are theirs.
  mkdirSync(root, { recursive: true });
  plainFolderChain(root, parts);
  plainEntryName(path);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  const bytes = Buffer.from(text, "utf8");
  const fd = openSync(temp, WRITE, 0o666);
  try {
    try {
      for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at, bytes.byteLength - at, at);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}
