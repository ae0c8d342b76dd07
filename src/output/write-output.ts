// out/ is replaced as a whole or not at all. It is a symlink to one of two generation directories
// (`.<out>.generations/a` and `/b`, next to it); a build brings the *other* generation up to date
// and then renames a new symlink over out/, which is atomic. A build that fails or is killed at
// any point leaves out/ pointing at the previous, complete generation, and the lock keeps two
// builds from writing one generation at once.
//
// The other generation is the output of the build before last, and state.json records which files
// differ between the two, so a build that changes one directive writes that directive's files
// (and the few files every build touches) rather than the whole tree. A build that changes
// nothing writes nothing, not even a swap.
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { NOT_BUILD_OUTPUT } from "./check-output.js";
import { describe } from "../project/read-project.js";
import { acquireLock, type LockOptions } from "./lock.js";

export interface WriteResult {
  /** Files whose content differs from the previous out/ (new or changed). */
  written: number;
  /** Files of the previous out/ that the build no longer produces. */
  removed: number;
}

const GENERATIONS = ["a", "b"] as const;
type Generation = (typeof GENERATIONS)[number];

interface State {
  /** The generation out/ points at. */
  live: Generation;
  /** Paths where the other generation differs from the live one; null when unknown (a write was interrupted). */
  otherDiffers: string[] | null;
}

/**
 * What `rye build` calls: writes out/ only when the build reported no error (a failed build leaves
 * the previous out/ as it was), and turns a failure to write into a diagnostic (RYE8005).
 */
export function commitOutput(outDir: string, files: ReadonlyMap<string, string>, diagnostics: Diagnostic[]): WriteResult {
  if (diagnostics.some((x) => x.severity === "error")) return { written: 0, removed: 0 };
  try {
    return writeOutput(outDir, files);
  } catch (e) {
    diagnostics.push(outputFailure(outDir, e));
    return { written: 0, removed: 0 };
  }
}

/** RYE8005 for a failure to write out/ (a lock held too long, out/ a file, a full disk). */
export function outputFailure(outDir: string, e: unknown): Diagnostic {
  return d.cannotWriteOutput(outDir, e instanceof Error && !("code" in e) ? e.message : describe(e));
}

/** Where the generations, their state and the build lock of `outDir` live. */
export function generationsDir(outDir: string): string {
  return join(dirname(outDir), `.${basename(outDir)}.generations`);
}

/**
 * Makes `outDir` hold exactly `files` (plus the files of NOT_BUILD_OUTPUT it already holds),
 * atomically, under the project's build lock.
 */
export function writeOutput(outDir: string, files: ReadonlyMap<string, string>, options: { lock?: LockOptions } = {}): WriteResult {
  for (const rel of files.keys()) assertInside(rel);
  const tx = OutputTransaction.begin(outDir, options);
  try {
    for (const [rel, text] of files) {
      if (readOrNull(tx.livePath(rel)) === text) tx.keep(rel);
      else tx.write(rel, text);
    }
    for (const rel of tx.liveFiles()) if (!files.has(rel)) tx.remove(rel);
    return tx.commit();
  } finally {
    tx.abort();
  }
}

/**
 * One build's changes to out/, streamed file by file into the generation out/ does not point at,
 * and made visible all at once by `commit`. Files that did not change are hard-linked from the live
 * generation (so both share one inode, and a cache's size/mtime records stay true across swaps);
 * a changed file is always a new inode (temporary file + rename), so the live generation is never
 * touched. Nothing is written at all until the first change, and a build without changes commits
 * to nothing. The project's build lock is held from `begin` to `commit`/`abort`.
 */
export class OutputTransaction {
  private readonly written: string[] = [];
  private readonly removed: string[] = [];
  /** Unchanged files the target may lack: linked in at commit, only if something changed. */
  private readonly toLink: string[] = [];
  private readonly seen = new Set<string>();
  private readonly dirs = new Set<string>();
  private stateDirty = false;
  private done = false;

  private constructor(
    readonly outDir: string,
    private readonly gens: string,
    private readonly live: Generation | null,
    private readonly target: Generation,
    /** Paths where the target generation may differ from the live one; null: any path may. */
    private readonly known: ReadonlySet<string> | null,
    private readonly release: () => void,
  ) {}

  static begin(outDir: string, options: { lock?: LockOptions } = {}): OutputTransaction {
    const gens = generationsDir(outDir);
    mkdirSync(gens, { recursive: true });
    // Tools that list the project (git, editors) should not see generations as sources.
    if (!existsSync(join(gens, ".gitignore"))) writeFileSync(join(gens, ".gitignore"), "*\n");
    const release = acquireLock(join(gens, "lock"), options.lock);
    try {
      restoreInterruptedMigration(outDir, gens);
      const live = liveGeneration(outDir, gens);
      const target: Generation = live === "a" ? "b" : "a";
      const state = readState(gens);
      const known = live !== null && state?.live === live && state.otherDiffers !== null ? new Set(state.otherDiffers) : null;
      return new OutputTransaction(outDir, gens, live, target, known, release);
    } catch (e) {
      release();
      throw e;
    }
  }

  get targetDir(): string {
    return join(this.gens, this.target);
  }

  /** Where out/ holds `rel` now. */
  livePath(rel: string): string {
    return join(this.outDir, rel);
  }

  /** Where `rel` will be once committed (stat it for records: kept files share the live inode). */
  targetPath(rel: string): string {
    return join(this.targetDir, rel);
  }

  /** Generated files out/ holds now. */
  liveFiles(): string[] {
    return listFiles(this.outDir).filter((rel) => !NOT_BUILD_OUTPUT.has(rel));
  }

  get changes(): number {
    return this.written.length + this.removed.length;
  }

  /** `rel` is produced with the content out/ already holds. */
  keep(rel: string): void {
    this.seen.add(rel);
    if (this.known === null || this.known.has(rel)) this.toLink.push(rel);
  }

  /** `rel` is produced with new content. */
  write(rel: string, text: string): void {
    assertInside(rel);
    this.seen.add(rel);
    this.markDirty();
    const path = this.targetPath(rel);
    const dir = dirname(path);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
    this.written.push(rel);
  }

  /** out/ holds `rel` but this build no longer produces it. */
  remove(rel: string): void {
    this.removed.push(rel);
  }

  /** Swaps out/ to the target generation when anything changed; otherwise touches nothing. */
  commit(): WriteResult {
    if (this.done) throw new Error("output transaction already finished");
    const result = { written: this.written.length, removed: this.removed.length };
    if (this.changes === 0) {
      this.finish();
      return result;
    }
    this.markDirty();
    const targetDir = this.targetDir;
    for (const rel of this.toLink) linkOrCopy(this.livePath(rel), join(targetDir, rel));
    // Files the target holds from an older build and this build does not produce.
    const stale = this.known === null ? listFiles(targetDir) : [...this.known, ...this.removed];
    for (const rel of stale) if (!this.seen.has(rel) && !NOT_BUILD_OUTPUT.has(rel)) rmSync(join(targetDir, rel), { force: true });
    carryOver(this.outDir, targetDir);
    if (swap(this.outDir, this.gens, this.target)) {
      if (this.live === null) {
        // The first generation: fill the other one now with bare links (a fresh directory needs no
        // checks), so the first small change after it does not link the whole tree.
        mirror(targetDir, join(this.gens, this.target === "a" ? "b" : "a"), this.seen);
        writeState(this.gens, { live: this.target, otherDiffers: [] });
      } else {
        writeState(this.gens, { live: this.target, otherDiffers: [...this.written, ...this.removed].sort() });
      }
    } else {
      // No symlinks here: copy the changes over, file by file.
      for (const rel of this.written) writeIfDifferent(this.livePath(rel), readFileSync(join(targetDir, rel), "utf8"));
      for (const rel of this.removed) rmSync(this.livePath(rel), { force: true });
    }
    this.finish();
    return result;
  }

  /** Leaves out/ as it was (a no-op after `commit`); records what the target may now hold. */
  abort(): void {
    if (this.done) return;
    if (this.stateDirty && this.live !== null && this.known !== null) {
      writeState(this.gens, { live: this.live, otherDiffers: [...new Set([...this.known, ...this.written])].sort() });
    }
    this.finish();
  }

  private markDirty(): void {
    if (this.stateDirty) return;
    // Until commit, the target's content is unknown to a build that finds it after a kill.
    writeState(this.gens, { live: this.live ?? this.target, otherDiffers: null });
    this.stateDirty = true;
  }

  private finish(): void {
    this.done = true;
    this.release();
  }
}

/** Makes `to` a tree of hard links to the files `rels` of `from` (a copy where links fail). */
function mirror(from: string, to: string, rels: Iterable<string>): void {
  rmSync(to, { recursive: true, force: true });
  const dirs = new Set<string>();
  for (const rel of rels) {
    const path = join(to, rel);
    const dir = dirname(path);
    if (!dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      dirs.add(dir);
    }
    try {
      linkSync(join(from, rel), path);
    } catch {
      writeFileSync(path, readFileSync(join(from, rel)));
    }
  }
}

/** A hard link to an unchanged file (same inode, nothing copied); a copy where links are not possible. */
function linkOrCopy(from: string, to: string): void {
  const a = statSync(from, { throwIfNoEntry: false });
  const b = statSync(to, { throwIfNoEntry: false });
  if (a && b && a.ino === b.ino && a.dev === b.dev) return;
  mkdirSync(dirname(to), { recursive: true });
  const tmp = `${to}.${process.pid}.link`;
  rmSync(tmp, { force: true });
  try {
    linkSync(from, tmp);
  } catch {
    writeFileSync(tmp, readFileSync(from));
  }
  renameSync(tmp, to);
}

/** Output paths come from item ids: refuse anything that could land outside out/. */
function assertInside(rel: string): void {
  const parts = rel.split("/");
  if (isAbsolute(rel) || rel.includes("\\") || rel.includes("\0") || parts.some((p) => p === "" || p === "." || p === "..")) {
    throw new Error(`refusing to write output path '${rel}': it is not a plain relative path inside the output directory`);
  }
}

/** Which generation out/ points at: null when out/ is missing or a plain directory (written by an older rye). */
function liveGeneration(outDir: string, gens: string): Generation | null {
  let st;
  try {
    st = lstatSync(outDir);
  } catch {
    return null;
  }
  if (st.isSymbolicLink()) {
    const target = resolve(dirname(outDir), readlinkSync(outDir));
    const g = GENERATIONS.find((x) => target === join(gens, x));
    if (g) return g;
    throw new Error(`${outDir} is a symlink to ${target}, not to an output generation; remove it and build again`);
  }
  if (st.isDirectory()) {
    if (!looksLikeOutput(outDir)) throw new Error(`${outDir} holds files rye build did not write; choose another --out or empty it`);
    return null;
  }
  throw new Error(`${outDir} exists and is not a directory; remove it and build again`);
}

/** A plain directory we may take over: empty, or written by rye build (its index.js says so) and holding no `.ai/`. */
function looksLikeOutput(dir: string): boolean {
  const entries = readdirSync(dir);
  if (entries.length === 0) return true;
  if (entries.includes(".ai")) return false;
  return (readOrNull(join(dir, "index.js")) ?? "").slice(0, 1024).includes("@generated by rye build");
}




/** Files that other commands add to out/ (out/bundle.mjs) survive builds. */
function carryOver(outDir: string, targetDir: string): void {
  for (const rel of NOT_BUILD_OUTPUT) {
    const text = readOrNull(join(outDir, rel));
    if (text === null) rmSync(join(targetDir, rel), { force: true });
    else writeIfDifferent(join(targetDir, rel), text);
  }
}

/** Points out/ at `target` with one rename; false when this file system has no symlinks. */
function swap(outDir: string, gens: string, target: Generation): boolean {
  const link = join(gens, `out-link.${process.pid}`);
  rmSync(link, { force: true });
  try {
    symlinkSync(relative(dirname(outDir), join(gens, target)), link, "dir");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EPERM") return false;
    throw e;
  }
  let st;
  try {
    st = lstatSync(outDir);
  } catch {
    st = null;
  }
  if (st?.isDirectory()) {
    // A plain out/ from an older rye: move it aside for the one unavoidable non-atomic step.
    // Should this be interrupted, the next build puts it back first (restoreInterruptedMigration).
    renameSync(outDir, join(gens, "migrating"));
    renameSync(link, outDir);
    rmSync(join(gens, "migrating"), { recursive: true, force: true });
  } else renameSync(link, outDir);
  return true;
}

function restoreInterruptedMigration(outDir: string, gens: string): void {
  const aside = join(gens, "migrating");
  if (!existsSync(aside)) return;
  let present = true;
  try {
    lstatSync(outDir);
  } catch {
    present = false;
  }
  if (present) rmSync(aside, { recursive: true, force: true });
  else renameSync(aside, outDir);
}


function readState(gens: string): State | null {
  try {
    const s = JSON.parse(readFileSync(join(gens, "state.json"), "utf8")) as State;
    return GENERATIONS.includes(s.live) && (s.otherDiffers === null || Array.isArray(s.otherDiffers)) ? s : null;
  } catch {
    return null;
  }
}

function writeState(gens: string, state: State): void {
  const tmp = join(gens, `state.json.${process.pid}`);
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, join(gens, "state.json"));
}

function writeIfDifferent(path: string, text: string): void {
  if (readOrNull(path) === text) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** Every file under `dir`, as `/`-separated relative paths (following out/ itself when it is a symlink). */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) out.push(relative(dir, full).split(sep).join("/"));
    }
  };
  walk(dir);
  return out;
}
