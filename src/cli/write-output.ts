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
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { NOT_BUILD_OUTPUT } from "./check-output.js";
import { describe } from "./read-project.js";
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
    const reason = e instanceof Error && !("code" in e) ? e.message : describe(e);
    diagnostics.push(d.cannotWriteOutput(outDir, reason));
    return { written: 0, removed: 0 };
  }
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
  const gens = generationsDir(outDir);
  mkdirSync(gens, { recursive: true });
  // Tools that list the project (git, editors) should not see generations as sources.
  if (!existsSync(join(gens, ".gitignore"))) writeFileSync(join(gens, ".gitignore"), "*\n");
  const release = acquireLock(join(gens, "lock"), options.lock);
  try {
    restoreInterruptedMigration(outDir, gens);
    const live = liveGeneration(outDir, gens);
    const { changed, removed } = diff(outDir, files);
    if (changed.length === 0 && removed.length === 0) return { written: 0, removed: 0 };
    const target: Generation = live === "a" ? "b" : "a";
    const state = readState(gens);
    const known = live !== null && state?.live === live && state.otherDiffers !== null ? state.otherDiffers : null;
    writeState(gens, { live: live ?? target, otherDiffers: null });
    const targetDir = join(gens, target);
    if (known === null) syncAll(targetDir, files);
    else syncPaths(targetDir, files, new Set([...changed, ...removed, ...known]));
    carryOver(outDir, targetDir);
    if (!swap(outDir, gens, target)) return writeInPlace(outDir, files, changed, removed);
    writeState(gens, { live: target, otherDiffers: [...changed, ...removed].sort() });
    return { written: changed.length, removed: removed.length };
  } finally {
    release();
  }
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

/** Paths whose content differs from out/ (new or changed) and generated files out/ holds but the build no longer writes. */
function diff(outDir: string, files: ReadonlyMap<string, string>): { changed: string[]; removed: string[] } {
  const changed: string[] = [];
  for (const [rel, text] of files) if (readOrNull(join(outDir, rel)) !== text) changed.push(rel);
  const removed = listFiles(outDir).filter((rel) => !files.has(rel) && !NOT_BUILD_OUTPUT.has(rel));
  return { changed, removed };
}

/** Brings `dir` to exactly `files` by comparing everything (first build, or after an interrupted one). */
function syncAll(dir: string, files: ReadonlyMap<string, string>): void {
  for (const [rel, text] of files) writeIfDifferent(join(dir, rel), text);
  for (const rel of listFiles(dir)) if (!files.has(rel) && !NOT_BUILD_OUTPUT.has(rel)) rmSync(join(dir, rel), { force: true });
}

/** Brings `dir` to `files` where only `paths` can differ. */
function syncPaths(dir: string, files: ReadonlyMap<string, string>, paths: ReadonlySet<string>): void {
  for (const rel of paths) {
    const text = files.get(rel);
    if (text === undefined) rmSync(join(dir, rel), { force: true });
    else writeIfDifferent(join(dir, rel), text);
  }
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

/** Without symlinks (some Windows setups): the previous behaviour, file by file in place. */
function writeInPlace(outDir: string, files: ReadonlyMap<string, string>, changed: readonly string[], removed: readonly string[]): WriteResult {
  for (const rel of changed) writeIfDifferent(join(outDir, rel), files.get(rel)!);
  for (const rel of removed) rmSync(join(outDir, rel), { force: true });
  return { written: changed.length, removed: removed.length };
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
