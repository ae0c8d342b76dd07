// out/ is a plain folder, changed all at once or not at all. A build takes the lock in out/.rye/,
// first completes or discards whatever a killed build left there (journal.ts), and checks that out/
// holds only files an earlier build recorded as its own (claim-output.ts). New and changed files are
// streamed into out/.rye/staging/ as items compile; unchanged files are not touched at all. At the
// end a journal is written (the commit point) and applied: staged files are renamed into place and
// files no longer produced are deleted. A build that changes nothing writes nothing.
import { closeSync, constants, fstatSync, lstatSync, openSync, statSync, writevSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { acquireLock, LockTimeoutError, type LockOptions } from "./lock.js";
import { claimOutput, migrateGenerations, recognised, refuseOutDir, sealRecord } from "./claim-output.js";
import { applyJournal, journalTemp, recoverOutput, stagingDir, workDir, writeJournal, insideAny, type Journal } from "./journal.js";
import { OutputError, realFs, writeFailure, type OutputFs } from "./output-fs.js";
import { GITATTRIBUTES, RECORD, housekeepingFiles, isInside, isNotBuildOutput } from "./output-record.js";
import { plainFolders, readRegular } from "./no-follow.js";
import { scrubWorkDir } from "./work-dir.js";
import type { Bookkeeping } from "../cache/bookkeeping-seal.js";
import { processBookkeeping } from "../cache/bookkeeping-secret.js";

export { pendingJournal, recoverOutput } from "./journal.js";

const gitattributes = housekeepingFiles([]).get(GITATTRIBUTES)!;
/** out/.rye/.gitignore: the work folder ignores itself, and marks the folder as one rye has claimed. */
const WORK_IGNORE = "*\n";
export { OutputError } from "./output-fs.js";

export interface WriteResult {
  /** Files whose content differs from the previous out/ (new or changed). */
  written: number;
  /** Files of the previous out/ that the build no longer produces. */
  removed: number;
}

/** What the last commit of a long-lived process (--watch) left in out/: lets the next build skip re-reading it. */
export interface KnownOutput {
  outDir: string;
  owned: ReadonlySet<string>;
}

export interface TransactionOptions {
  lock?: LockOptions;
  /** File operations (tests inject failures). */
  fs?: OutputFs;
  /** The project: an output folder that holds it is refused. */
  project?: string;
  /** Set by --watch after its first build: out/ was claimed by this process and holds `owned`. */
  known?: KnownOutput;
  /**
   * What authenticates the journal, the lock and the output record's seal (bookkeepingFor: the
   * user space's secret). Default: a secret of this process only, so nothing another process left
   * in out/ is ever replayed.
   */
  bookkeeping?: Bookkeeping;
}

/** The diagnostic for a build that could not finish: RYE8005 (out/ refused), RYE8006 (writing failed) or RYE8002 (a source changed while read), located at the file or folder. */
export function outputFailure(outDir: string, e: unknown): Diagnostic {
  if (e instanceof OutputError) {
    const at = { offset: 0, line: 1, column: 1 };
    const loc = { source: e.path, start: at, end: at };
    if (e.code === "RYE8002") return d.unreadablePath(loc, e.reason);
    return e.code === "RYE8005" ? d.cannotWriteOutput(loc, e.reason) : d.outputWriteFailed(loc, e.reason);
  }
  if (e instanceof LockTimeoutError) return d.cannotWriteOutput({ source: outDir, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } }, e.message);
  return outputFailure(outDir, writeFailure(e, outDir, "writing"));
}

/** Makes `outDir` hold exactly `files` (plus bundle.mjs and the record), all at once, under the build lock. */
export function writeOutput(outDir: string, files: ReadonlyMap<string, string>, options: TransactionOptions = {}): WriteResult {
  for (const rel of files.keys()) assertInside(rel);
  const tx = OutputTransaction.begin(outDir, options);
  try {
    for (const [rel, text] of files) {
      if (tx.owned.has(rel) && readOrNull(tx.livePath(rel)) === text) tx.keep(rel);
      else tx.write(rel, text);
    }
    return tx.commit();
  } finally {
    tx.abort();
  }
}

/**
 * One build's changes to out/: `write` stages a file, `keep` marks one out/ already holds as
 * produced, `commit` makes the staged files the output (and deletes recorded files no longer
 * produced), `abort` discards them. The lock is held from `begin` to `commit`/`abort`.
 */
export class OutputTransaction implements OutputSink {
  private readonly staged = new Set<string>();
  private readonly seen = new Set<string>();
  private readonly stagingDirs = new Set<string>();
  /** Folders of out/ found to be plain folders (not links): see `mayWrite`. */
  private readonly plainDirs = new Set<string>();
  private committed = false;
  private done = false;
  /** Set by `carryKnown`: the files of the last commit this build no longer produces. */
  private dropped: Set<string> | null = null;
  /** Every file out/ holds as build output after `commit`. */
  produced: ReadonlySet<string> = new Set();

  private constructor(
    readonly outDir: string,
    private readonly fs: OutputFs,
    /** Files earlier builds recorded as their own: the only ones this build may replace or delete. */
    readonly owned: ReadonlySet<string>,
    /** The record as found (null: none), or "known" when `owned` comes from this process's last commit. */
    private readonly record: string | null | "known",
    private readonly release: () => void,
    /** The first folder `begin` created for out/ (out/ itself or a parent), removed again by `abort`. */
    private readonly created: string | undefined,
    private readonly book: Bookkeeping,
    /** The record found is sealed by this user for this folder (or `owned` is this process's own). */
    private readonly recordSealed: boolean,
  ) {}

  static begin(dir: string, options: TransactionOptions = {}): OutputTransaction {
    const fs = options.fs ?? realFs;
    const outDir = resolve(dir);
    const known = options.known?.outDir === outDir ? options.known : undefined;
    const book = options.bookkeeping ?? processBookkeeping();
    let created: string | undefined;
    if (!known) {
      refuseOutDir(outDir, options.project);
      migrateGenerations(outDir, fs);
    }
    // Before anything is written into out/.rye: it is a plain folder holding no planted link.
    scrubWorkDir(outDir, fs);
    if (!known) {
      // A folder rye has never written (no work folder of ours): look before creating anything in it.
      if (statSync(outDir, { throwIfNoEntry: false }) && readRegular(join(workDir(outDir), ".gitignore")) !== WORK_IGNORE) claimOutput(outDir);
      created = create(outDir, fs);
    }
    let release: () => void;
    try {
      // Without a secret no lock could be told from a planted one: locks are then plain, as before.
      const sealed = book.authenticates ? { seal: (h: string) => book.seal("lock", outDir, h), open: (t: string) => book.open("lock", outDir, t) } : {};
      release = acquireLock(join(workDir(outDir), "lock"), { ...options.lock, ...sealed });
    } catch (e) {
      removeCreated(outDir, created, fs);
      throw e instanceof LockTimeoutError ? e : writeFailure(e, join(workDir(outDir), "lock"), "creating");
    }
    try {
      recoverOutput(outDir, fs, book);
      const claim = known ? null : claimOutput(outDir, book);
      return new OutputTransaction(outDir, fs, claim ? claim.owned : known!.owned, claim ? claim.record : "known", release, created, book, claim ? claim.sealed : true);
    } catch (e) {
      release();
      removeCreated(outDir, created, fs);
      throw e instanceof OutputError ? e : writeFailure(e, outDir, "recovering");
    }
  }

  /** Where out/ holds `rel` now. */
  livePath(rel: string): string {
    return join(this.outDir, rel);
  }

  /** Where `rel` is now: staged when this build wrote it, else in out/ (stat it for records: a rename keeps size and mtime). */
  targetPath(rel: string): string {
    return this.staged.has(rel) ? join(stagingDir(this.outDir), rel) : this.livePath(rel);
  }

  /** What authenticates this build's bookkeeping (the journal's, and the build cache's: see build-cache.ts). */
  get bookkeeping(): Bookkeeping {
    return this.book;
  }

  /** What this process knows out/ holds once committed (for the next build of a long-lived process). */
  get known(): KnownOutput {
    return { outDir: this.outDir, owned: this.produced };
  }

  /** `rel` is produced with the content out/ already holds. */
  keep(rel: string): void {
    this.seen.add(rel);
  }

  /** `rel` is produced with new content: staged now, moved into out/ by `commit`. */
  write(rel: string, text: string): void {
    this.mayWrite(rel);
    this.seen.add(rel);
    stage(this.outDir, rel, text, this.fs, this.stagingDirs);
    this.staged.add(rel);
  }

  /**
   * `rel` was staged by a `StagingWriter` (a build worker) with new content: checked as `write`
   * checks it, then moved into out/ by `commit` like a file `write` staged.
   */
  adopt(rel: string): void {
    this.mayWrite(rel);
    this.seen.add(rel);
    this.staged.add(rel);
  }

  private mayWrite(rel: string): void {
    assertWritable(rel);
    // The commit moves the file to `rel` in out/: never through a folder a link has taken the place of.
    if (!plainFolders(this.outDir, rel, this.plainDirs)) {
      throw new OutputError(`${this.livePath(rel)} lies under a link in ${this.outDir}; rye build never writes through one`, this.livePath(rel), "RYE8005");
    }
    // A folder claimed by `begin` holds no file it does not own; one a long-lived process knows may have gained one since.
    if (this.record === "known" && !this.owned.has(rel) && statSync(this.livePath(rel), { throwIfNoEntry: false })) {
      throw new OutputError(`${this.livePath(rel)} exists and no build recorded it as its own; rye build never replaces it`, this.livePath(rel), "RYE8005");
    }
  }

  /** `owned` is what this process's last commit left (see `TransactionOptions.known`), so `carryKnown` may be used. */
  get knowsOutput(): boolean {
    return this.record === "known";
  }

  /**
   * A rebuild of a long-lived process that knows what changed: every file the last commit produced
   * stays produced without being named again, except the ones `drop` names.
   */
  carryKnown(): void {
    if (!this.knowsOutput) throw new Error("only a transaction over a known output carries it over");
    this.dropped = new Set();
  }

  /** After `carryKnown`: `rel` is no longer produced (deleted by `commit` unless written or kept again). */
  drop(rel: string): void {
    this.dropped!.add(rel);
  }

  /** Makes the staged files the output, and deletes recorded files this build did not produce. */
  commit(): WriteResult {
    if (this.done) throw new Error("output transaction already finished");
    let removed: string[];
    if (this.dropped) {
      removed = [...this.dropped].filter((rel) => this.owned.has(rel) && !this.seen.has(rel) && !isNotBuildOutput(rel) && statSync(this.livePath(rel), { throwIfNoEntry: false })?.isFile());
      this.produced = this.carriedHousekeeping(removed);
    } else {
      this.writeHousekeeping();
      removed = [...this.owned].filter((rel) => !this.seen.has(rel) && !isNotBuildOutput(rel) && lstatSync(this.livePath(rel), { throwIfNoEntry: false })?.isFile() && this.mayDelete(rel));
      this.produced = this.seen;
    }
    const result = { written: this.staged.size, removed: removed.length };
    if (result.written === 0 && result.removed === 0) {
      if (!this.recordSealed) sealRecord(this.outDir, this.book);
      this.finish();
      return result;
    }
    const journal = { write: [...this.staged], remove: removed, folders: this.newFolders() };
    this.prepareFolders(journal);
    try {
      writeJournal(this.outDir, journal, this.fs, this.book);
    } catch (e) {
      throw writeFailure(e, join(workDir(this.outDir), "journal.json"), "writing");
    }
    this.committed = true;
    try {
      applyJournal(this.outDir, journal, this.fs);
    } catch (e) {
      const failure = writeFailure(e, this.outDir, "updating");
      const partly = `; ${this.outDir} is partly updated and the next rye build completes it from ${join(workDir(this.outDir), "journal.json")}`;
      throw new OutputError(failure.message + partly, failure.path, "RYE8006", failure.errno, failure.reason + partly);
    }
    if (!this.recordSealed || journal.write.includes(RECORD)) sealRecord(this.outDir, this.book);
    this.finish();
    return result;
  }

  /**
   * A file the previous record lists and this build no longer produces: deleted when the record is
   * sealed (a build of this user wrote it), else only when it is recognisably build output (a
   * record a checkout carries could name a file of the user's).
   */
  private mayDelete(rel: string): boolean {
    return this.recordSealed || recognised(this.outDir, rel);
  }

  /**
   * Leaves out/ as it was (a no-op after `commit`): removes the staging area and any folder `begin`
   * created, releases the lock. Never throws: it runs while another failure is being reported.
   */
  abort(): void {
    if (this.done) return;
    if (!this.committed) {
      try {
        this.fs.rmTree(stagingDir(this.outDir));
        if (statSync(journalTemp(this.outDir), { throwIfNoEntry: false })) this.fs.unlink(journalTemp(this.outDir));
      } catch {
        // Discarded by the next build (recoverOutput) instead.
      }
    }
    this.finish();
    if (!this.committed) removeCreated(this.outDir, this.created, this.fs);
  }

  /** The record of what out/ holds and the .gitattributes, staged only when they change. */
  private writeHousekeeping(): void {
    this.seen.add(RECORD).add(GITATTRIBUTES);
    // Within one process the record is what the last commit wrote: the same set of files, the same text.
    const sameSet = this.record === "known" && this.seen.size === this.owned.size && [...this.seen].every((p) => this.owned.has(p));
    if (sameSet) {
      if (readOrNull(this.livePath(GITATTRIBUTES)) === gitattributes) return;
      this.write(GITATTRIBUTES, gitattributes);
      return;
    }
    for (const [rel, text] of housekeepingFiles(this.seen)) {
      const now = rel === RECORD && typeof this.record === "string" ? this.record : readOrNull(this.livePath(rel));
      if (!(this.owned.has(rel) && now === text)) this.write(rel, text);
    }
  }

  /**
   * The outermost folders of staged files that out/ does not hold: the commit moves each whole
   * (a first build: one rename per folder instead of one per file).
   */
  private newFolders(): string[] {
    const absent = new Map<string, boolean>();
    const folders = new Set<string>();
    for (const rel of this.staged) {
      for (let i = rel.indexOf("/"); i > 0; i = rel.indexOf("/", i + 1)) {
        const dir = rel.slice(0, i);
        let free = absent.get(dir);
        if (free === undefined) absent.set(dir, (free = !entryAt(this.livePath(dir))));
        if (free) {
          folders.add(dir);
          break;
        }
      }
    }
    return [...folders];
  }

  /** `writeHousekeeping` after `carryKnown`: the record is rewritten only when files came or went. Returns what out/ holds after the commit. */
  private carriedHousekeeping(removed: string[]): ReadonlySet<string> {
    const added = [...this.seen].filter((rel) => !this.owned.has(rel));
    if (added.length === 0 && removed.length === 0) {
      if (readOrNull(this.livePath(GITATTRIBUTES)) !== gitattributes) this.write(GITATTRIBUTES, gitattributes);
      return this.owned;
    }
    const produced = new Set(this.owned);
    for (const rel of removed) produced.delete(rel);
    for (const rel of added) produced.add(rel);
    produced.add(RECORD).add(GITATTRIBUTES);
    for (const [rel, text] of housekeepingFiles(produced)) {
      if (!(this.owned.has(rel) && readOrNull(this.livePath(rel)) === text)) this.write(rel, text);
    }
    return produced;
  }

  /** Creates the folders staged files go to and checks the ones files leave, before the commit point. */
  private prepareFolders(journal: Required<Journal>): void {
    const moved = new Set(journal.folders);
    const dirs = new Set<string>();
    // A folder moved whole needs its parent writable; the files in it need nothing more.
    for (const dir of moved) dirs.add(dirname(this.livePath(dir)));
    for (const rel of this.staged) if (!insideAny(rel, moved)) dirs.add(dirname(this.livePath(rel)));
    for (const rel of journal.remove) dirs.add(dirname(this.livePath(rel)));
    for (const dir of dirs) {
      try {
        if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) this.fs.checkWritable(dir);
        else this.fs.mkdir(dir);
      } catch (e) {
        throw writeFailure(e, dir, "writing into");
      }
    }
  }

  private finish(): void {
    this.done = true;
    try {
      this.release();
    } catch {
      // A lock that cannot be removed is stale once this process exits; the next build takes it over.
    }
  }
}

/** Where a build's output goes, file by file: an OutputTransaction, or a StagingWriter in a build worker. */
export interface OutputSink {
  readonly outDir: string;
  /** Files earlier builds recorded as their own. */
  readonly owned: ReadonlySet<string>;
  keep(rel: string): void;
  write(rel: string, text: string): void;
  /** Where `rel` is now (staged or in out/). */
  targetPath(rel: string): string;
}

/**
 * Stages files into the staging folder of a transaction another thread holds (a build worker):
 * the same path checks as `OutputTransaction.write`; the transaction then `adopt`s each staged file
 * (and checks it again), or discards the staging folder on abort.
 */
export class StagingWriter implements OutputSink {
  readonly staged = new Set<string>();
  private readonly dirs = new Set<string>();

  constructor(
    readonly outDir: string,
    readonly owned: ReadonlySet<string>,
  ) {}

  keep(): void {}

  write(rel: string, text: string): void {
    assertWritable(rel);
    stage(this.outDir, rel, text, realFs, this.dirs);
    this.staged.add(rel);
  }

  targetPath(rel: string): string {
    return join(this.staged.has(rel) ? stagingDir(this.outDir) : this.outDir, rel);
  }

  /**
   * `write` for bytes in pieces (a signature line, then the body), returning the new file's stat
   * from its open descriptor: no second lookup of the path, no string to encode.
   */
  writeBytes(rel: string, chunks: readonly Uint8Array[]): WrittenFile {
    assertWritable(rel);
    try {
      // Staging is this build's own fresh folder; O_NOFOLLOW all the same (never write through a link).
      const fd = openSync(stagedPath(this.outDir, rel, realFs, this.dirs), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o666);
      try {
        writevAll(fd, chunks);
        const st = fstatSync(fd);
        this.staged.add(rel);
        return { size: st.size, mtimeMs: st.mtimeMs };
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw writeFailure(e, join(this.outDir, rel), "writing");
    }
  }
}

/** Writes every byte of `chunks` at the descriptor's position (writev may write fewer than asked). */
function writevAll(fd: number, chunks: readonly Uint8Array[]): void {
  let rest = chunks.filter((c) => c.byteLength > 0);
  while (rest.length > 0) {
    let n = writevSync(fd, rest);
    while (rest.length > 0 && n >= rest[0]!.byteLength) n -= rest.shift()!.byteLength;
    if (n > 0) rest = [rest[0]!.subarray(n), ...rest.slice(1)];
  }
}

/** What stat says of a file just written: its size and mtime, for the build's records. */
export interface WrittenFile {
  size: number;
  mtimeMs: number;
}

function stage(outDir: string, rel: string, text: string, fs: OutputFs, dirs: Set<string>): void {
  try {
    fs.writeFile(stagedPath(outDir, rel, fs, dirs), text);
  } catch (e) {
    throw writeFailure(e, join(outDir, rel), "writing");
  }
}

/** Where `rel` is staged, its folder created unless `dirs` says it was already. */
function stagedPath(outDir: string, rel: string, fs: OutputFs, dirs: Set<string>): string {
  const path = join(stagingDir(outDir), rel);
  const dir = dirname(path);
  if (!dirs.has(dir)) {
    fs.mkdir(dir);
    dirs.add(dir);
  }
  return path;
}

function assertWritable(rel: string): void {
  assertInside(rel);
  if (isNotBuildOutput(rel)) throw new Error(`refusing to write output path '${rel}': it belongs to rye bundle`);
}

/** Creates out/ and its work folder (with a .gitignore, so a committed out/ never carries it); returns the first folder created. */
function create(outDir: string, fs: OutputFs): string | undefined {
  let created: string | undefined;
  try {
    created = fs.mkdir(outDir);
    fs.mkdir(workDir(outDir));
    const ignore = join(workDir(outDir), ".gitignore");
    if (readRegular(ignore) !== WORK_IGNORE) fs.writeFile(ignore, WORK_IGNORE);
    return created;
  } catch (e) {
    removeCreated(outDir, created, fs);
    throw writeFailure(e, outDir, "creating");
  }
}

/** Undoes `create` for a build that wrote nothing into a folder it created: out/ stays absent, as before. */
function removeCreated(outDir: string, created: string | undefined, fs: OutputFs): void {
  if (created === undefined) return;
  try {
    fs.unlink(join(workDir(outDir), ".gitignore"));
  } catch {
    // Absent already.
  }
  for (let dir = workDir(outDir); ; dir = dirname(dir)) {
    try {
      fs.rmdir(dir);
    } catch (e) {
      // Not empty: another build is using it. (Absent: creating it is what failed.)
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") return;
    }
    if (dir === created || dirname(dir) === dir) return;
  }
}

/** Output paths come from item ids: refuse anything that could land outside out/. */
function assertInside(rel: string): void {
  if (!isInside(rel)) throw new Error(`refusing to write output path '${rel}': it is not a plain relative path inside the output directory`);
}

/** Whether anything (a file, a folder, a link, even a broken one) is at `path`; an unreadable place counts as taken. */
function entryAt(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/** Only a regular file is read (a FIFO in out/ would block the build; a link would read another file). */
const readOrNull = readRegular;
