// The sources of a parallel build, as every thread reads them. A text the build read from a file
// travels as the place its bytes are kept in shared memory (kept-bytes.ts), decoded where it is
// parsed; beyond their budget, it is read from that file again there, and checked against the
// sha256 of the bytes the build read first. Other texts (given by a caller, or not valid UTF-8
// round trips) travel UTF-8 encoded in one more SharedArrayBuffer, decoded when read. Either way no
// thread holds a copy of every text: the decoded string is short-lived garbage instead of a copy
// kept to the end (37 MB at 10k items, most of it never read by a given thread: a thread parses
// only its share and what that looks up).
// A thread that is about to compile a run of items read from their files reads them ahead, a few
// back to back (`readAhead`): a read between two compiles costs two to three times as much, its
// system call path no longer in the CPU's caches (docs/performance.md).
import type { ItemKind, SourceFile } from "../model/source.js";
import { readAgain, sourceWithText, textGetter, type SourceFacts } from "../project/source-facts.js";
import { decodeShared } from "../project/kept-bytes.js";

/** Where a source's text is: in the text itself, between two offsets of one of the buffers, or in a file with this sha256. */
type Place = string | [buffer: number, start: number, end: number] | OnDisk;

/** A file, and the size and sha256 of its bytes when the build read it; where those bytes are kept, if they are. */
type OnDisk = Pick<SourceFacts, "file" | "sha256" | "size" | "kept">;

/** One source in a SharedSources. */
type Entry = [kind: ItemKind, id: string, path: string, ext: string | undefined, space: string | undefined, place: Place];

/** What a build worker receives instead of the SourceFile array: cloned cheaply, the texts not at all. */
export interface SharedSources {
  /** The buffers the texts are in: the one `shareSources` filled, then the ones the read kept bytes in. */
  buffers: SharedArrayBuffer[];
  entries: Entry[];
}

/** The file a source was read from, with the size and sha256 of the bytes it gave, when it came from one. */
export type SourceOnDisk = (src: SourceFile) => OnDisk | undefined;

/**
 * Shares `sources` with other threads, and turns each `text` of these objects into a getter that
 * reads it where it is shared, so this thread's strings can be collected too.
 */
export function shareSources(sources: readonly SourceFile[], onDisk: SourceOnDisk = () => undefined): SharedSources {
  // Asked before any getter replaces a text: the hash is of the text as the build first read it.
  const disk = sources.map((s) => onDisk(s));
  const lengths = sources.map((s, i) => (!disk[i] && shareable(s.text) ? Buffer.byteLength(s.text, "utf8") : -1));
  const buffer = new SharedArrayBuffer(lengths.reduce((a, n) => a + Math.max(n, 0), 0));
  const buffers = [buffer];
  const kept = new Map<SharedArrayBuffer, number>();
  const bytes = Buffer.from(buffer);
  let at = 0;
  const entries = sources.map((s, i): Entry => {
    const n = lengths[i]!;
    const entry = (place: Place): Entry => [s.kind, s.id, s.path, s.ext, s.space, place];
    const found = disk[i];
    if (found?.kept) {
      // Its getter already decodes the kept bytes.
      const { buffer: b, start, end } = found.kept;
      let index = kept.get(b);
      if (index === undefined) kept.set(b, (index = buffers.push(b) - 1));
      return entry([index, start, end]);
    }
    if (found) {
      const file = { file: found.file, sha256: found.sha256, size: found.size };
      onDiskOf.set(s, file);
      return textGetter(s, reader(s.path, file)), entry(file);
    }
    if (n < 0) return entry(s.text);
    bytes.write(s.text, at, n, "utf8");
    at += n;
    textGetter(s, decoder(buffer, at - n, at));
    return entry([0, at - n, at]);
  });
  return { buffers, entries };
}

/** The SourceFile array `shareSources` was given, rebuilt on another thread. */
export function receiveSources(shared: SharedSources): SourceFile[] {
  return shared.entries.map(([kind, id, path, ext, space, place]) => {
    const fields: Omit<SourceFile, "text"> = { kind, id, path };
    if (ext !== undefined) fields.ext = ext;
    if (space !== undefined) fields.space = space;
    if (typeof place === "string") return Object.assign(fields, { text: place });
    if (Array.isArray(place)) return sourceWithText(fields, decoder(shared.buffers[place[0]]!, place[1], place[2]));
    const src = sourceWithText(fields, reader(path, place));
    onDiskOf.set(src, place);
    return src;
  });
}

const decoder = (buffer: SharedArrayBuffer, start: number, end: number) => () => decodeShared(buffer, start, end);

/** The file each source of this thread whose text is read again was read from. */
const onDiskOf = new WeakMap<SourceFile, OnDisk>();
/** Texts read ahead, each until its source's text is first asked for. */
const ahead = new Map<OnDisk, string>();

const reader = (path: string, file: OnDisk) => () => {
  const text = ahead.get(file);
  if (text === undefined) return readAgain(path, file);
  ahead.delete(file);
  return text;
};

/**
 * Reads the texts of `sources` that are read again from their files now, one after another, for
 * their first use. A file that fails the check is left for that use to report (RYE8002).
 */
export function readAhead(sources: Iterable<SourceFile>): void {
  for (const src of sources) {
    const file = onDiskOf.get(src);
    if (!file || ahead.has(file)) continue;
    try {
      ahead.set(file, readAgain(src.path, file));
    } catch {
      // Read again, and reported, where the text is used.
    }
  }
}

/** Forgets the texts read ahead and not used (a thread that stopped early). */
export function dropReadAhead(): void {
  ahead.clear();
}

/** True when `text` comes back from UTF-8 unchanged (no lone surrogates). */
function shareable(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
