// The journal that makes a plain out/ change all at once. A build stages every new or changed file
// in out/.rye/staging/, then writes out/.rye/journal.json (one rename: the commit point) listing
// the files to move into place and the files to delete, then does both. A build killed before the
// commit point leaves out/ untouched (the next build discards the staging area); one killed after
// it leaves a journal that the next build replays before anything else, and that `rye verify`
// reports (pendingJournal), so a half-applied out/ is never taken for a complete one.
// The journal names files to move and delete, and out/ is in the checkout: it is replayed only when
// it carries this user's seal for this very output folder (bookkeeping-seal.ts). Any other journal
// is discarded with the staging area, never replayed; and even a sealed one moves or deletes nothing
// through a link (a folder of out/ replaced by a symlink since the journal was written).
import { lstatSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { WORK_DIR, isInside } from "./output-record.js";
import type { OutputFs } from "./output-fs.js";
import type { Bookkeeping } from "../cache/bookkeeping-seal.js";
import { processBookkeeping } from "../cache/bookkeeping-secret.js";
import { plainFolders, readRegular } from "./no-follow.js";

export interface Journal {
  /** Paths staged in out/.rye/staging/ that replace (or add) the files at the same paths in out/. */
  write: string[];
  /** Paths in out/ to delete. */
  remove: string[];
  /**
   * Folders of staged files that out/ did not hold at the commit: each is moved whole (one rename
   * instead of one per file). Every file staged under one is also listed in `write`, so a replay
   * that finds the folder in out/ already, or not moved yet but its place taken, moves file by file.
   */
  folders?: string[];
}

export const workDir = (outDir: string) => join(outDir, WORK_DIR);
export const stagingDir = (outDir: string) => join(outDir, WORK_DIR, "staging");
const journalPath = (outDir: string) => join(outDir, WORK_DIR, "journal.json");
/** Where the journal is written before the rename that commits it. */
export const journalTemp = (outDir: string) => `${journalPath(outDir)}.tmp`;

/**
 * A committed but not fully applied build of `outDir`, or null. While one is pending, out/ may hold
 * a mix of two builds: verifiers must refuse it, and the next `rye build` completes it first.
 */
export function pendingJournal(outDir: string): { journal: string; write: number; remove: number } | null {
  const path = journalPath(outDir);
  if (!lstatSync(path, { throwIfNoEntry: false })) return null;
  // Counted without the seal: any journal, ours or planted, means out/ is not one complete build.
  const text = readRegular(path);
  const j = text === null ? null : parseJournal(text.replace(/^rye-mac:[^\n]*\n/, ""));
  return { journal: path, write: j?.write.length ?? -1, remove: j?.remove.length ?? -1 };
}

/** Makes the staged build the output: the commit point. The journal is sealed for `outDir`. */
export function writeJournal(outDir: string, journal: Journal, fs: OutputFs, book: Bookkeeping = processBookkeeping()): void {
  fs.writeFile(journalTemp(outDir), book.seal("journal", outDir, JSON.stringify(journal)));
  fs.rename(journalTemp(outDir), journalPath(outDir));
}

/** Moves the staged files into place and deletes the removed ones; safe to run again after any interruption. */
export function applyJournal(outDir: string, journal: Journal, fs: OutputFs): void {
  const staging = stagingDir(outDir);
  // Folders of out/ found plain; a path under anything else (a link planted since) is left alone.
  const plain = new Set<string>();
  const safe = (rel: string) => isInside(rel) && plainFolders(outDir, rel, plain);
  const moved = moveFolders(outDir, (journal.folders ?? []).filter(safe), fs);
  for (const rel of journal.write) {
    if (!safe(rel) || insideAny(rel, moved)) continue;
    const from = join(staging, rel);
    // Already moved by an interrupted run of this journal.
    if (!lstatSync(from, { throwIfNoEntry: false })) continue;
    const to = join(outDir, rel);
    if (!statSync(dirname(to), { throwIfNoEntry: false })) fs.mkdir(dirname(to));
    fs.rename(from, to);
  }
  const emptied = new Set<string>();
  for (const rel of journal.remove) {
    if (!safe(rel)) continue;
    const path = join(outDir, rel);
    if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) continue;
    fs.unlink(path);
    emptied.add(dirname(path));
  }
  pruneEmpty(outDir, emptied, fs);
  fs.unlink(journalPath(outDir));
  fs.rmTree(staging);
}

/** Moves each staged folder whose place in out/ is free; returns the ones it moved. */
function moveFolders(outDir: string, folders: readonly string[], fs: OutputFs): Set<string> {
  const moved = new Set<string>();
  for (const rel of folders) {
    if (!isInside(rel)) continue;
    const from = join(stagingDir(outDir), rel);
    const to = join(outDir, rel);
    if (!lstatSync(from, { throwIfNoEntry: false })?.isDirectory() || lstatSync(to, { throwIfNoEntry: false })) continue;
    if (!statSync(dirname(to), { throwIfNoEntry: false })) fs.mkdir(dirname(to));
    fs.rename(from, to);
    moved.add(rel);
  }
  return moved;
}

/** True when the output path `rel` lies in one of `folders` (output-relative folder paths). */
export function insideAny(rel: string, folders: ReadonlySet<string>): boolean {
  if (folders.size === 0) return false;
  for (let i = rel.indexOf("/"); i > 0; i = rel.indexOf("/", i + 1)) if (folders.has(rel.slice(0, i))) return true;
  return false;
}

/**
 * Run under the lock before a build reads out/: replays a committed journal, or discards what a
 * build killed before its commit point staged. Returns what it did.
 */
export function recoverOutput(outDir: string, fs: OutputFs, book: Bookkeeping = processBookkeeping()): "clean" | "completed" | "discarded" {
  const path = journalPath(outDir);
  if (lstatSync(path, { throwIfNoEntry: false })) {
    const text = book.open("journal", outDir, readRegular(path));
    const journal = text === null ? null : parseJournal(text);
    if (journal) {
      applyJournal(outDir, journal, fs);
      return "completed";
    }
    // Not a journal this user's builds wrote for this folder: never replayed. What it would have
    // moved or deleted is left as it is, and the build's claim of out/ judges what is there.
    fs.rmTree(path);
  }
  const temp = lstatSync(journalTemp(outDir), { throwIfNoEntry: false });
  if (temp) fs.rmTree(journalTemp(outDir));
  if (!lstatSync(stagingDir(outDir), { throwIfNoEntry: false })) return temp ? "discarded" : "clean";
  fs.rmTree(stagingDir(outDir));
  return "discarded";
}

/** Removes folders left empty by deletions, deepest first, never out/ itself. */
function pruneEmpty(outDir: string, dirs: Set<string>, fs: OutputFs): void {
  const sorted = [...dirs].sort((a, b) => b.length - a.length);
  const tried = new Set<string>();
  for (let dir of sorted) {
    while (dir !== outDir && dir.startsWith(outDir) && !tried.has(dir)) {
      tried.add(dir);
      try {
        fs.rmdir(dir);
      } catch {
        break; // not empty (or already gone): its parents are not empty either
      }
      dir = dirname(dir);
    }
  }
}

function parseJournal(text: string): Journal | null {
  try {
    const j = JSON.parse(text) as Journal;
    const paths = (a: unknown) => Array.isArray(a) && a.every((p) => typeof p === "string");
    return j && paths(j.write) && paths(j.remove) && (j.folders === undefined || paths(j.folders)) ? j : null;
  } catch {
    return null;
  }
}
