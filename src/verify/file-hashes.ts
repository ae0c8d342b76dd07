// sha256 of output files for `rye verify`, each read once; a large build's files are read and hashed
// on worker threads first.
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

// A link is never followed and only a regular file is read: a FIFO or a device planted in out/ must
// not hang the check (the listing reports them).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** sha256 of regular files by absolute path, each read once (null: absent, a link, or not a file). */
export class FileHashes {
  private readonly cache = new Map<string, string | null>();
  // One buffer for every read: a build of 10k items is ~30k files, and fresh buffers cost GC time.
  private readonly buffer = Buffer.allocUnsafe(1 << 20);
  of(path: string): string | null {
    let h = this.cache.get(path);
    if (h === undefined) {
      h = this.hash(path);
      this.cache.set(path, h);
    }
    return h;
  }

  /**
   * Hashes `paths` ahead of the checks on one thread per core: reading and hashing is most of what
   * verifying a large build costs. Returns the hashes in the order of `paths`; null where a file was
   * not hashed there (too few files to be worth threads, or unreadable): `of` then reports it.
   */
  async prefetch(paths: readonly string[], minimum = 2000): Promise<(string | null)[]> {
    const threads = Math.min(availableParallelism(), 4);
    if (paths.length < minimum || threads < 2) return [];
    const share = Math.ceil(paths.length / threads);
    const parts = await Promise.all(Array.from({ length: threads }, (_, i) => hashElsewhere(paths.slice(i * share, (i + 1) * share))));
    return parts.flat();
  }

  private hash(path: string): string | null {
    let fd: number;
    try {
      fd = openSync(path, OPEN_FLAGS);
    } catch {
      return null;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return null;
      const hash = createHash("sha256");
      // A file that fits the buffer and reads whole at its stat size needs no read that returns 0.
      const first = readSync(fd, this.buffer, 0, this.buffer.length, null);
      hash.update(this.buffer.subarray(0, first));
      if (first < st.size || first === this.buffer.length) {
        for (let n; (n = readSync(fd, this.buffer, 0, this.buffer.length, null)) > 0; ) hash.update(this.buffer.subarray(0, n));
      }
      return hash.digest("hex");
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }
}

// Self-contained (node: built-ins only) so it runs the same from dist/ and from the TypeScript sources.
const HASH_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { openSync, readSync, closeSync, fstatSync } = require("node:fs");
const buffer = Buffer.allocUnsafe(1 << 20);
const out = [];
for (const path of workerData.paths) {
  let fd;
  out.push(null);
  try { fd = openSync(path, workerData.flags); } catch { continue; }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) continue;
    const hash = createHash("sha256");
    const first = readSync(fd, buffer, 0, buffer.length, null);
    hash.update(buffer.subarray(0, first));
    if (first < st.size || first === buffer.length) {
      for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
    }
    out[out.length - 1] = hash.digest("hex");
  } catch {} finally { closeSync(fd); }
}
parentPort.postMessage(out);
`;

function hashElsewhere(paths: string[]): Promise<(string | null)[]> {
  return new Promise((done, fail) => {
    const worker = new Worker(HASH_WORKER, { eval: true, workerData: { paths, flags: OPEN_FLAGS } });
    worker.once("message", (m: (string | null)[]) => done(m));
    worker.once("error", fail);
  });
}
