// How every reader of sources turns a file's bytes into its text, and the buffer it reads them into.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

// The BOM is kept, as Python's `read_text(encoding="utf-8")` keeps it (rye-reference.md §6).
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A source file's bytes as its text: strict UTF-8 (throws on invalid bytes), a BOM kept. */
export function decodeSource(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * One buffer per thread that the usual file is read into: a buffer allocated per read is memory
 * outside the heap that stays with the process until a collection. A file over 1 MB gets its own.
 */
let scratch = Buffer.allocUnsafe(64 * 1024);
const SCRATCH_MAX = 1024 * 1024;

/** A buffer of at least `size` bytes to read one file into; the next call may hand out the same one. */
export function readBuffer(size: number): Buffer {
  if (size <= scratch.length) return scratch;
  if (size > SCRATCH_MAX) return Buffer.allocUnsafe(size);
  return (scratch = Buffer.allocUnsafe(SCRATCH_MAX));
}

/** A file rye will not read: not a regular file, or larger than the limit. `reason` is for a diagnostic. */
export class NotReadable extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * The bytes of a regular file of at most `maxBytes` (decisions.md #25): opened without blocking and
 * checked on the open file, so a FIFO, socket or device (or a link to /dev/zero) is refused at once
 * instead of blocking or reading forever. Throws NotReadable, or the fs error.
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new NotReadable(`it is ${st.isFIFO() ? "a FIFO" : st.isSocket() ? "a socket" : st.isCharacterDevice() || st.isBlockDevice() ? "a device" : "not a file"}, not a regular file; only regular files are read`);
    if (st.size > maxBytes) throw new NotReadable(`it is ${st.size} bytes, over the limit of ${maxBytes} bytes`);
    // One byte more than the size, to see a file that grew since the stat; never more than the limit.
    const bytes = Buffer.allocUnsafe(Math.min(st.size + 1, maxBytes + 1));
    let n = 0;
    for (let got = 1; got > 0 && n < bytes.length; n += got) got = readSync(fd, bytes, n, bytes.length - n, null);
    if (n > maxBytes) throw new NotReadable(`it grew past the limit of ${maxBytes} bytes while read`);
    return bytes.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
