// What a build asks of every source before it compiles any (its fingerprint, whether it may be
// signed, its signature's timestamp), taken from the file's bytes when `readProject` first reads
// it. A one-shot build then holds no text as a string: each is decoded where it is parsed, from the
// bytes kept in shared memory (kept-bytes.ts) or, beyond their budget, from the file read again.
// At 10k items the texts are ~37 MB of strings that lived long enough on the main thread to be
// promoted to its old generation, and the heap that grew for them stayed committed to the build's end.
import { readRegular } from "./read-regular.js";
import type { SourceFile } from "../model/source.js";
import { OutputError } from "../output/output-fs.js";
import { sha256Hex } from "../sign/hash-region.js";
import { sourceTimestamp } from "../sign/sign-item.js";
import { standaloneString } from "../analyze/standalone-copy.js";
import { decodeSource, readBuffer } from "./source-text.js";
import { decodeShared, type KeptBytes } from "./kept-bytes.js";

/** A source file as the build first read it. */
export interface SourceFacts {
  /** The absolute path it was read from. */
  file: string;
  /** Its size in bytes, and the sha256 of those bytes (which is that of its text as UTF-8: decoding is strict and keeps a BOM). */
  size: number;
  sha256: string;
  /** The timestamp of the `rye:signed:` line it starts with (`sourceTimestamp`), or null. */
  stamp: string | null;
  /** Whether `rye:signed:` occurs in its first 512 characters (`mayBeSigned`). */
  signed: boolean;
  /** What the open file's stat said just before it was read (the up-to-date stamp records it). */
  mtimeMs: number;
  ino: number;
  /** Where its bytes are kept in shared memory, when they are (else its text is read again from the file). */
  kept?: KeptBytes;
}

const facts = new WeakMap<SourceFile, SourceFacts>();

/**
 * What `readProject` recorded of the file `src` was read from, when its text is decoded on use
 * (`rereadTexts`) and has not been assigned since; otherwise undefined.
 */
export function factsOf(src: SourceFile): SourceFacts | undefined {
  return facts.get(src);
}

/** Whether a source may carry a signature: the cheap test before a signature is looked for. */
export function mayBeSigned(text: string): boolean {
  return text.slice(0, 512).includes("rye:signed:");
}

/**
 * `fields` as a source whose text `text` was decoded from `bytes` read from `file`, whose open file's
 * stat was `stat`: what a build asks of it is recorded, and its `text` is decoded again on every
 * use from `kept` (those bytes, kept), or without it read from the file again and checked against
 * them (see `readAgain`).
 */
export function readTextOnUse(fields: Omit<SourceFile, "text">, file: string, bytes: Uint8Array, text: string, stat: Pick<SourceFacts, "mtimeMs" | "ino">, kept: KeptBytes | null = null): SourceFile {
  const stamp = sourceTimestamp(text);
  // A match is a view into the whole text: a copy of its characters keeps the text collectable.
  const read: SourceFacts = { file, size: bytes.length, sha256: sha256Hex(bytes), stamp: stamp === null ? null : standaloneString(stamp), signed: mayBeSigned(text), mtimeMs: stat.mtimeMs, ino: stat.ino, kept: kept ?? undefined };
  const src = sourceWithText(fields, kept ? () => decodeShared(kept.buffer, kept.start, kept.end) : () => readAgain(fields.path, read));
  facts.set(src, read);
  return src;
}

// Every source's `text` accessor is made of these two functions, the text itself coming from a
// loader kept per source: V8 gives objects whose accessors are the same functions one shape, and
// turns each object given closures of its own into a dictionary of properties (slow to read, and
// every site that reads a source's `kind`, `id` or `path` then takes the slowest path).
const loaders = new WeakMap<SourceFile, () => string>();

function loadText(this: SourceFile): string {
  return loaders.get(this)!();
}

function assignText(this: SourceFile, text: string): void {
  loaders.delete(this);
  facts.delete(this);
  Object.defineProperty(this, "text", { value: text, writable: true, enumerable: true, configurable: true });
}

const TEXT_ON_USE: PropertyDescriptor = { get: loadText, set: assignText, enumerable: true, configurable: true };

/** A new source of `fields` whose `text` is `get()` on every use; whoever assigns a text gets a plain property again, and no facts. */
export function sourceWithText(fields: Omit<SourceFile, "text">, get: () => string): SourceFile {
  // Added to an object that has no `text` yet: turning a data property into an accessor would
  // make the object a dictionary too. Copied with Object.assign: in this V8 (Node 20) an object
  // made by a spread and then given another property gets a map of its own once the spread's inline
  // cache is warm, so every source had its own shape (docs/performance.md, "One shape per kind").
  const src = Object.assign({}, fields) as SourceFile;
  Object.defineProperty(src, "text", TEXT_ON_USE);
  loaders.set(src, get);
  return src;
}

/**
 * Makes the `text` of an existing source `get()` on every use (see `sourceWithText`); its facts are
 * kept, so `get` must give the text they describe.
 */
export function textGetter(src: SourceFile, get: () => string): void {
  if (!loaders.has(src)) Object.defineProperty(src, "text", TEXT_ON_USE);
  loaders.set(src, get);
}

/**
 * The text of `read.file` if it still holds `read.size` bytes with `read.sha256`. Anything else
 * (edited, replaced, deleted, unreadable since the build read it) fails the build with RYE8002 at
 * `path`: its output would not match what was checked.
 */
export function readAgain(path: string, read: Pick<SourceFacts, "file" | "size" | "sha256">): string {
  let bytes: Buffer | null = null;
  try {
    // The one reader, limited to the size first read: a FIFO put in the file's place, or a file
    // that grew, fails the check instead of blocking or reading on.
    bytes = readRegular(read.file, { kind: "source", maxBytes: read.size, link: { links: "follow" }, buffer: readBuffer });
  } catch {
    bytes = null;
  }
  if (bytes !== null && bytes.length === read.size && sha256Hex(bytes) === read.sha256) return decodeSource(bytes);
  const reason = "it changed while the build was reading it, so nothing was written; build again";
  throw new OutputError(`${path}: ${reason}`, path, "RYE8002", undefined, reason);
}
