// Writes of an incremental build: one file at a time as items are emitted (so a 10k-item build never
// holds all of its output in memory), skipping files out/ already holds byte for byte. Everything
// goes through an OutputTransaction, so out/ changes all at once when the build commits (which also
// deletes the files of removed items).
import { lstatSync } from "node:fs";
import { readRegular } from "../output/no-follow.js";
import { join } from "node:path";
import type { FileRecord } from "./build-cache.js";
import { sha256 } from "./build-cache.js";
import type { OutputSink } from "../output/write-output.js";

export class OutputUpdate {
  written = 0;
  readonly outDir: string;

  /** `trusted`: the records given to `put` and `intact` were made by this process (--watch), so no stat is needed. */
  constructor(
    private readonly tx: OutputSink,
    private readonly trusted = false,
  ) {
    this.outDir = tx.outDir;
  }

  /**
   * Writes `text` at `rel` unless out/ already holds exactly it; returns what is now on disk.
   * `prev`: what the last build recorded for `rel`, so an unchanged file is skipped without reading it;
   * `hash`: the text's sha256 when the caller knows it already.
   */
  put(rel: string, text: string, prev?: FileRecord, hash = sha256(text)): FileRecord {
    if (prev && prev[1] === hash) {
      const kept = this.intact(prev);
      if (kept) {
        this.tx.keep(rel);
        return kept;
      }
    } else if (!prev && this.tx.owned.has(rel)) {
      // Not in the cache (a first build over an existing out/, a fresh clone): compare the bytes before writing.
      const onDisk = this.read(rel);
      if (onDisk !== null && onDisk === text) {
        this.tx.keep(rel);
        return this.record(join(this.outDir, rel), rel, hash);
      }
    }
    this.tx.write(rel, text);
    this.written++;
    return this.record(this.tx.targetPath(rel), rel, hash);
  }

  /** A file out/ holds as this build would write it (a reused item's). */
  keep(rel: string): void {
    this.tx.keep(rel);
  }

  /**
   * The record of a file the last build wrote, if out/ still holds it: same size and mtime, or when
   * those moved (a copy, a checkout, another writer), the same sha256. Null when it changed or vanished.
   */
  intact(prev: FileRecord): FileRecord | null {
    if (this.trusted) return prev;
    const [rel, hash, size, mtimeMs] = prev;
    // lstat: a link in out/ is never taken for the file it names.
    const st = lstatSync(join(this.outDir, rel), { throwIfNoEntry: false });
    if (!st?.isFile()) return null;
    if (st.size === size && st.mtimeMs === mtimeMs) return prev;
    const text = this.read(rel);
    return text !== null && sha256(text) === hash ? [rel, hash, st.size, st.mtimeMs] : null;
  }

  private read(rel: string): string | null {
    const path = join(this.outDir, rel);
    // A stat that cannot throw first: most files of a first build do not exist, and exceptions are slow.
    if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) return null;
    return readRegular(path);
  }

  private record(path: string, rel: string, hash: string): FileRecord {
    const st = lstatSync(path);
    return [rel, hash, st.size, st.mtimeMs];
  }
}
