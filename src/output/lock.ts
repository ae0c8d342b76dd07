import { linkSync, lstatSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { readRegular } from "./no-follow.js";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { dirname } from "node:path";

/** Raised when another live build holds the lock for longer than we are willing to wait. */
export class LockTimeoutError extends Error {}

export interface LockOptions {
  /** How long to wait for a live holder, in milliseconds. */
  timeoutMs?: number;
  /** Polling interval while waiting. */
  pollMs?: number;
  /**
   * Seals the holder written into the lock, and opens a lock file's text (null: not sealed by this
   * user for this folder). The lock sits in a folder a checkout can carry: a lock nobody of ours
   * wrote names no build to wait for, and is taken over at once.
   */
  seal?: (holder: string) => string;
  open?: (text: string) => string | null;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

/**
 * Takes an exclusive lock file at `path` (holding `pid@host`) and returns its
 * release function. A lock left by a process that no longer exists on this host (killed with
 * SIGKILL, power loss) is taken over; a live holder is waited for, then reported.
 */
export function acquireLock(path: string, options: LockOptions = {}): () => void {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  const me = `${process.pid}@${hostname()}`;
  // The lock is a complete file hard-linked into place: link() fails if the name exists, and a
  // reader never sees a lock file that is empty because its writer has not written it yet.
  const mine = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const read = () => readHolder(path, options.open);
  writeOwn(mine, options.seal ? options.seal(me) : me);
  for (;;) {
    try {
      linkSync(mine, path);
      unlinkQuietly(mine);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // Only remove the lock if it is still ours (a takeover after a long stall must not be undone).
        if (read() === me) unlinkQuietly(path);
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") {
        rmSync(mine, { force: true });
        throw e;
      }
    }
    const holder = read();
    if (holder !== null && isStale(holder)) {
      // Re-read right before removing, so a lock a third process just took is left alone.
      if (read() === holder) rmSync(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      rmSync(mine, { force: true });
      throw new LockTimeoutError(`another rye build (${holder ?? "unknown process"}) holds ${path}; remove it if no build is running`);
    }
    sleep(options.pollMs ?? 50);
  }
}

/**
 * Removes a file this process just read or made (the held lock, its own candidate): one unlink.
 * rmSync's force walks the path as a tree (lstat, then unlink) and costs several times that in
 * every rebuild of a long-lived process. Absent already: nothing to do.
 */
function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/** Writes this process's candidate lock file; a failure (a full disk) leaves no partial file behind. */
function writeOwn(mine: string, me: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(dirname(mine), { recursive: true });
      writeFileSync(mine, me, { flag: "wx" });
      return;
    } catch (e) {
      rmSync(mine, { force: true });
      // The folder was removed between mkdir and write by a build that created it and failed: once more.
      if ((e as NodeJS.ErrnoException).code === "ENOENT" && attempt < 3) continue;
      throw e;
    }
  }
}

/** The holder a lock names; "" (stale) for a lock file that is not sealed, null when there is none. */
function readHolder(path: string, open?: (text: string) => string | null): string | null {
  const text = readRegular(path);
  // Something that is not a regular file (a planted folder): stale, so it is removed or reported at once.
  if (text === null) return lstatSync(path, { throwIfNoEntry: false }) ? "" : null;
  if (!open) return text;
  return open(text) ?? "";
}

/** A holder is stale when it names a process of this host that no longer runs (or is unreadable garbage). */
function isStale(holder: string): boolean {
  const m = /^(\d+)@(.*)$/.exec(holder);
  if (!m) return true;
  if (m[2] !== hostname()) return false;
  try {
    process.kill(Number(m[1]), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}
