// The bytes a one-shot build read of its sources, kept in shared memory up to a budget. Every
// thread decodes a text from them when it parses it: reading each file a second time (open, read,
// close and a sha256 to check it is unchanged) cost a parallel 10k build 100–145 ms per thread
// (docs/performance.md, "The sources read once"). The bytes are the ones the build hashed, so what a
// thread compiles is what the fingerprints describe. Beyond the budget, texts are read again from
// their files (source-facts.ts), so a project of any size holds at most the budget.

/** Source bytes a one-shot build keeps by default: 10k typical items take ~37 MB. */
export const KEPT_SOURCE_BYTES = 64 * 1024 * 1024;

/** Texts are packed into shared buffers of this size; a larger file gets one of its own. */
const CHUNK_BYTES = 4 * 1024 * 1024;

/** Where one source's bytes are kept: a range of a shared buffer. */
export interface KeptBytes {
  buffer: SharedArrayBuffer;
  start: number;
  end: number;
}

/** The shared buffers one build packs its sources' bytes into, up to `budget` bytes in all. */
export class KeptSourceBytes {
  private chunk: Buffer | null = null;
  private used = 0;
  private kept = 0;

  constructor(readonly budget: number = KEPT_SOURCE_BYTES) {}

  /** A copy of `bytes` in shared memory, or null once the budget would be exceeded. */
  keep(bytes: Uint8Array): KeptBytes | null {
    const n = bytes.length;
    if (this.kept + n > this.budget) return null;
    this.kept += n;
    if (!this.chunk || this.used + n > this.chunk.length) {
      // Only the bytes written are touched: the rest of a chunk costs address space, not memory.
      this.chunk = Buffer.from(new SharedArrayBuffer(Math.max(CHUNK_BYTES, n)));
      this.used = 0;
    }
    const start = this.used;
    this.chunk.set(bytes, start);
    this.used += n;
    return { buffer: this.chunk.buffer as SharedArrayBuffer, start, end: start + n };
  }
}

// One Buffer view per shared buffer and thread, so a decode makes no object but the string.
const views = new WeakMap<SharedArrayBuffer, Buffer>();

/**
 * The UTF-8 text between two offsets of a shared buffer: kept bytes decode as when they were read
 * (they were checked to be valid UTF-8 then; a BOM is kept).
 */
export function decodeShared(buffer: SharedArrayBuffer, start: number, end: number): string {
  let view = views.get(buffer);
  if (!view) views.set(buffer, (view = Buffer.from(buffer)));
  return view.toString("utf8", start, end);
}
