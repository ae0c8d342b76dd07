// The sources of a parallel build, as every thread reads them. A text read from a file is read from
// that file again when a thread parses it, and checked against the sha256 of the text the build
// read first: the file system's cache keeps those bytes outside the process, where a copy of every
// text held them until the build ended (37 MB at 10k items, most of it never read by a given thread:
// a thread parses only its share and what that looks up). Other texts (given by a caller, or not
// valid UTF-8 round trips) travel UTF-8 encoded in one SharedArrayBuffer, decoded when read.
// Either way the decoded string is short-lived garbage instead of a copy kept to the end.
import { closeSync, constants, openSync, readSync } from "node:fs";
import type { ItemKind, SourceFile } from "../compile/source.js";
import { OutputError } from "../output/output-fs.js";
import { sha256Hex } from "../sign/hash-region.js";
import { decodeSource } from "../project/read-project.js";

/** Where a source's text is: in the text itself, between two offsets of the buffer, or in a file with this sha256. */
type Place = string | [start: number, end: number] | OnDisk;

/** A file, and the size and sha256 of its bytes when the build read it. */
type OnDisk = { file: string; sha256: string; size: number };

/** One source in a SharedSources. */
type Entry = [kind: ItemKind, id: string, path: string, ext: string | undefined, space: string | undefined, place: Place];

/** What a build worker receives instead of the SourceFile array: cloned cheaply, the texts not at all. */
export interface SharedSources {
  buffer: SharedArrayBuffer;
  entries: Entry[];
}

/** The file a source was read from and the sha256 of the text it gave, when it came from one. */
export type SourceOnDisk = (src: SourceFile) => { file: string; sha256: string } | undefined;

/**
 * Shares `sources` with other threads, and turns each `text` of these objects into a getter that
 * reads it where it is shared, so this thread's strings can be collected too.
 */
export function shareSources(sources: readonly SourceFile[], onDisk: SourceOnDisk = () => undefined): SharedSources {
  // Asked before any getter replaces a text: the hash is of the text as the build first read it.
  const disk = sources.map((s) => onDisk(s));
  const lengths = sources.map((s, i) => (!disk[i] && shareable(s.text) ? Buffer.byteLength(s.text, "utf8") : -1));
  const buffer = new SharedArrayBuffer(lengths.reduce((a, n) => a + Math.max(n, 0), 0));
  const bytes = Buffer.from(buffer);
  let at = 0;
  const entries = sources.map((s, i): Entry => {
    const n = lengths[i]!;
    const entry = (place: Place): Entry => [s.kind, s.id, s.path, s.ext, s.space, place];
    const found = disk[i];
    if (found) {
      const file = { ...found, size: Buffer.byteLength(s.text, "utf8") };
      return readOnGet(s, file), entry(file);
    }
    if (n < 0) return entry(s.text);
    bytes.write(s.text, at, n, "utf8");
    at += n;
    decodeOnGet(s, bytes, at - n, at);
    return entry([at - n, at]);
  });
  return { buffer, entries };
}

/** The SourceFile array `shareSources` was given, rebuilt on another thread. */
export function receiveSources(shared: SharedSources): SourceFile[] {
  const bytes = Buffer.from(shared.buffer);
  return shared.entries.map(([kind, id, path, ext, space, place]) => {
    const src: SourceFile = { kind, id, path, text: "" };
    if (ext !== undefined) src.ext = ext;
    if (space !== undefined) src.space = space;
    if (typeof place === "string") src.text = place;
    else if (Array.isArray(place)) decodeOnGet(src, bytes, place[0], place[1]);
    else readOnGet(src, place);
    return src;
  });
}

function decodeOnGet(src: SourceFile, bytes: Buffer, start: number, end: number): void {
  textGetter(src, () => bytes.toString("utf8", start, end));
}

function readOnGet(src: SourceFile, file: OnDisk): void {
  textGetter(src, () => readChecked(src.path, file));
}

function textGetter(src: SourceFile, get: () => string): void {
  Object.defineProperty(src, "text", {
    get,
    // Whoever assigns a text gets a plain property again.
    set: (text: string) => Object.defineProperty(src, "text", { value: text, writable: true, enumerable: true, configurable: true }),
    enumerable: true,
    configurable: true,
  });
}

/**
 * One buffer per thread that every file is read into: a buffer allocated per read is memory outside
 * the heap that stays with the process until a collection.
 */
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * The text of `file` if it still holds `size` bytes with `sha256`. Anything else (edited, replaced,
 * deleted, unreadable since the build read it) fails the build: its output would not match what
 * was checked.
 */
function readChecked(path: string, place: OnDisk): string {
  // One byte more than expected, so a file that grew is seen to.
  if (scratch.length < place.size + 1) scratch = Buffer.allocUnsafe(place.size + 1);
  let n = -1;
  let fd: number | undefined;
  try {
    // Without blocking: a FIFO put in the file's place fails the check instead of waiting for a writer.
    fd = openSync(place.file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    n = 0;
    // Asked for one byte more than expected, a regular file returns fewer only at its end: reaching
    // `size` is the end, with no second read to see it.
    let got: number;
    do {
      got = readSync(fd, scratch, n, place.size + 1 - n, null);
      n += got;
    } while (got > 0 && n < place.size);
  } catch {
    n = -1;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const bytes = scratch.subarray(0, Math.max(n, 0));
  if (n === place.size && sha256Hex(bytes) === place.sha256) return decodeSource(bytes);
  const reason = "it changed while the build was reading it, so nothing was written; build again";
  throw new OutputError(`${path}: ${reason}`, path, "RYE8002", undefined, reason);
}

/** True when `text` comes back from UTF-8 unchanged (no lone surrogates). */
function shareable(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
