// The runtime's one way to read a file (emitted code may not import the compiler's reader, so it
// has its own, with the same rule): opened without blocking, so a FIFO never waits; judged by fstat
// on the open descriptor, so only a regular file is read; and read to at most the size it had then,
// itself under a limit, so a link to /dev/zero or a growing file is an error, not an endless read.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Far above any .env, tool, dependency or manifest the runtime reads, and far below memory. */
export const RUNTIME_READ_LIMIT = 64 * 1024 * 1024;

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The UTF-8 text of the regular file at `path` (links followed), or throws naming why not. */
export function readRegularFile(path: string | URL, limit = RUNTIME_READ_LIMIT): string {
  const fd = openSync(path, FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${String(path)} is not a regular file; only regular files are read`);
    if (st.size > limit) throw new Error(`${String(path)} is ${st.size} bytes, over the limit of ${limit} bytes`);
    const bytes = Buffer.allocUnsafe(st.size);
    let n = 0;
    for (let got = 1; got > 0 && n < st.size; n += got) got = readSync(fd, bytes, n, st.size - n, null);
    return bytes.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
