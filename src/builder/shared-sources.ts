// The sources of a parallel build, held once for every thread: their texts, UTF-8 encoded, in one
// SharedArrayBuffer. Posting the strings instead gave each build worker its own copy (56 MB at 10k
// items, most of it never read there: a worker parses only its share and what that looks up).
// Each thread's `text` is a getter that decodes its slice when read; the compiler reads a text when
// it parses the item, so the decoded string is short-lived garbage instead of a copy kept to the end.
import type { ItemKind, SourceFile } from "../compile/source.js";

/** One source in a SharedSources: where its text is in the buffer, or the text itself (see `shareable`). */
type Entry = [kind: ItemKind, id: string, path: string, ext: string | undefined, space: string | undefined, text: number | string, end: number];

/** What a build worker receives instead of the SourceFile array: cloned cheaply, the texts not at all. */
export interface SharedSources {
  buffer: SharedArrayBuffer;
  entries: Entry[];
}

/**
 * Puts the texts of `sources` into one shared buffer, and turns each `text` of these objects into a
 * getter over it, so this thread's strings can be collected too. A text that would not survive the
 * UTF-8 round trip (a lone surrogate, never read from a file) stays a string.
 */
export function shareSources(sources: readonly SourceFile[]): SharedSources {
  const lengths = sources.map((s) => (shareable(s.text) ? Buffer.byteLength(s.text, "utf8") : -1));
  const buffer = new SharedArrayBuffer(lengths.reduce((a, n) => a + Math.max(n, 0), 0));
  const bytes = Buffer.from(buffer);
  let at = 0;
  const entries = sources.map((s, i): Entry => {
    const n = lengths[i]!;
    if (n < 0) return [s.kind, s.id, s.path, s.ext, s.space, s.text, -1];
    bytes.write(s.text, at, n, "utf8");
    at += n;
    decodeOnRead(s, bytes, at - n, at);
    return [s.kind, s.id, s.path, s.ext, s.space, at - n, at];
  });
  return { buffer, entries };
}

/** The SourceFile array `shareSources` was given, rebuilt on another thread over the same buffer. */
export function receiveSources(shared: SharedSources): SourceFile[] {
  const bytes = Buffer.from(shared.buffer);
  return shared.entries.map(([kind, id, path, ext, space, text, end]) => {
    const src: SourceFile = { kind, id, path, text: "" };
    if (ext !== undefined) src.ext = ext;
    if (space !== undefined) src.space = space;
    if (typeof text === "string") src.text = text;
    else decodeOnRead(src, bytes, text, end);
    return src;
  });
}

function decodeOnRead(src: SourceFile, bytes: Buffer, start: number, end: number): void {
  Object.defineProperty(src, "text", {
    get: () => bytes.toString("utf8", start, end),
    // Whoever assigns a text gets a plain property again.
    set: (text: string) => Object.defineProperty(src, "text", { value: text, writable: true, enumerable: true, configurable: true }),
    enumerable: true,
    configurable: true,
  });
}

/** True when `text` comes back from UTF-8 unchanged (no lone surrogates). */
function shareable(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
