// How every reader of sources turns a file's bytes into its text, and the buffer it reads them into.
import { readRegular, Unreadable } from "./read-regular.js";

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
export { Unreadable as NotReadable };

/**
 * The bytes of a regular file of at most `maxBytes` (decisions.md #25), through the one reader
 * (read-regular.ts): a FIFO, socket or device (or a link to /dev/zero) is refused at once instead
 * of blocking or reading forever. Links are followed: the callers' walks judged them. Throws NotReadable.
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  return readRegular(path, { kind: "source", maxBytes, link: { links: "follow" } });
}
