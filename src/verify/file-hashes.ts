// sha256 of output files for `rye verify`. A large build's files are hashed by this thread and
// worker threads together, each taking the next run of files from one shared counter, so no thread
// waits while another still has a queue.
import { createHash, type Hash } from "node:crypto";
import * as fs from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

// A link is never followed, and opening never blocks: a FIFO or a device planted in out/ must not
// hang the check. The caller hashes only what its listing saw as a regular file.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
/** Files taken from the shared counter at a time: few enough to share the tail, many enough to rarely touch it. */
const RUN = 32;
const BUFFER = 1 << 20;

type Fs = Pick<typeof fs, "openSync" | "readSync" | "fstatSync" | "closeSync">;

/**
 * sha256 of the regular file at `path` (null: absent, a link, or not a regular file). A file that
 * reads whole in one call below the buffer's size needs no fstat: only a read that returns nothing
 * or fills the buffer asks whether it is a regular file before reading on (a device never ends).
 * `sha256` is an empty hash to copy (cheaper than a new one). Self-contained (everything it uses
 * comes in as arguments): worker threads run its source text.
 */
function hashFile(path: string, buffer: Buffer, flags: number, fs: Fs, sha256: Hash): string | null {
  let fd: number;
  try {
    fd = fs.openSync(path, flags);
  } catch {
    return null;
  }
  try {
    // A regular file reads short only at its end (a short read elsewhere would fail the file, never pass it).
    let n = fs.readSync(fd, buffer, 0, buffer.length, null);
    if ((n === 0 || n === buffer.length) && !fs.fstatSync(fd).isFile()) return null;
    const hash = sha256.copy();
    hash.update(buffer.subarray(0, n));
    if (n === buffer.length) while ((n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0) hash.update(buffer.subarray(0, n));
    return hash.digest("hex");
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Takes runs of `paths` from `next` (a shared counter) until none are left, writing each hash at its
 * index in `out` (null where the path is null); returns where the runs it took start. Self-contained,
 * as hashFile.
 */
function hashRuns(paths: readonly (string | null)[], next: Int32Array, run: number, out: (string | null)[], hash: (path: string) => string | null): number[] {
  const taken: number[] = [];
  for (let start; (start = Atomics.add(next, 0, run)) < paths.length; ) {
    taken.push(start);
    const end = Math.min(start + run, paths.length);
    for (let i = start; i < end; i++) {
      const path = paths[i];
      out[i] = path ? hash(path) : null;
    }
  }
  return taken;
}

// Run from its source text, so it is the same from dist/, the bundle and the TypeScript sources.
// It boots before it has work (booting is most of a worker's cost) and hashes one list.
const HASH_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const fs = require("node:fs");
${hashFile.toString()}
${hashRuns.toString()}
const { run, flags, size } = workerData;
const buffer = Buffer.allocUnsafe(size);
const sha256 = createHash("sha256");
parentPort.once("message", ({ paths, next }) => {
  const out = [];
  const taken = hashRuns(paths, new Int32Array(next), run, out, (p) => hashFile(p, buffer, flags, fs, sha256));
  parentPort.postMessage({ taken, hashes: taken.map((s) => out.slice(s, s + run)) });
});
`;

/** What a worker hashed: where each run it took starts, and the run's hashes; null when it failed. */
type Part = { taken: number[]; hashes: (string | null)[][] } | null;

interface Helper {
  worker: Worker;
  part: Promise<Part>;
}

/** sha256 of regular files by absolute path. */
export class FileHashes {
  // One buffer for every read and one empty hash to copy: fresh ones for ~20k files cost GC and setup time.
  private readonly buffer = Buffer.allocUnsafe(BUFFER);
  private readonly sha256 = createHash("sha256");
  private helpers: Helper[] = [];

  of(path: string): string | null {
    return hashFile(path, this.buffer, OPEN_FLAGS, fs, this.sha256);
  }

  /** Boots the worker threads `start` uses ahead of time: one per further core, up to three. */
  spawn(): void {
    if (this.helpers.length > 0) return;
    this.helpers = Array.from({ length: Math.min(availableParallelism(), 4) - 1 }, helper);
  }

  /**
   * Starts hashing `paths` on the worker threads (spawned now if they were not) and returns the
   * hashes in the order of `paths` (null for a null path) once `finish` has hashed the rest on this
   * thread. Below `minimum` files, or on one core, this thread hashes them all; `here: false` leaves
   * them all to the workers where there are any.
   */
  start(paths: readonly (string | null)[], { minimum = 2000, here = true } = {}): { finish(): Promise<(string | null)[]> } {
    const next = new Int32Array(new SharedArrayBuffer(4));
    if (paths.length >= minimum) this.spawn();
    const helpers = paths.length >= minimum ? this.helpers : [];
    for (const h of this.helpers) {
      h.worker.postMessage(helpers.includes(h) ? { paths, next: next.buffer } : { paths: [], next: next.buffer });
      h.worker.ref();
    }
    this.helpers = [];
    return {
      finish: async () => {
        const out: (string | null)[] = new Array(paths.length).fill(null);
        if (here || helpers.length === 0) hashRuns(paths, next, RUN, out, (p) => this.of(p));
        for (const part of await Promise.all(helpers.map((h) => h.part))) {
          if (part) part.taken.forEach((start, k) => part.hashes[k]!.forEach((h, j) => (out[start + j] = h)));
          // A worker that failed may have taken runs it never hashed: this thread hashes them all again.
          else for (let i = 0; i < paths.length; i++) out[i] = paths[i] ? this.of(paths[i]!) : null;
        }
        return out;
      },
    };
  }
}

function helper(): Helper {
  const worker = new Worker(HASH_WORKER, { eval: true, workerData: { run: RUN, flags: OPEN_FLAGS, size: BUFFER } });
  // A worker waiting for work it never gets must not keep the process alive; `start` refs it.
  worker.unref();
  const part = new Promise<Part>((done) => {
    worker.once("message", (m: Part) => done(m));
    // Resolving twice is harmless: a worker that posted its hashes exits after them.
    worker.once("error", () => done(null));
    worker.once("exit", () => done(null));
  });
  return { worker, part };
}
