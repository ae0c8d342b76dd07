// What a build leaves in out/ besides the compiled files, so out/ can be committed and taken over
// safely: a record of every file the build wrote (the only files a later build may replace or
// delete), and a .gitattributes that keeps git from rewriting line endings of signed files.
import { isAbsolute } from "node:path";

/** The record of the files a build wrote, kept inside out/ so a committed out/ carries it to a fresh clone. */
export const RECORD = "rye-files.json";

/** Keeps git from converting line endings (signed files are hashed byte for byte). */
export const GITATTRIBUTES = ".gitattributes";
const GITATTRIBUTES_TEXT = "# Written by rye build: these files are signed byte for byte, never convert their line endings.\n* -text\n";

/** The writer's own folder inside out/: the build lock, the journal and the staging area. Never build output. */
export const WORK_DIR = ".rye";

/**
 * Files other commands add to out/ (`rye bundle`'s bundle.mjs, what travels with it, and the entry
 * it writes while bundling): never written, replaced or deleted by a build, never foreign.
 */
export function isNotBuildOutput(rel: string): boolean {
  return rel === "bundle.mjs" || rel === ".bundle-entry.mjs" || /^bundle\.mjs\.[A-Za-z0-9]+$/.test(rel);
}

/**
 * True when `rel` is a plain relative path inside out/ (no `.`, `..` or empty parts, no backslash,
 * NUL or absolute path) outside the writer's own folder: output paths come from item ids and the
 * record from a file anyone can edit, so neither may reach outside.
 */
export function isInside(rel: string): boolean {
  if (rel === "" || isAbsolute(rel) || rel.includes("\\") || rel.includes("\0")) return false;
  const parts = rel.split("/");
  return parts[0] !== WORK_DIR && parts.every((p) => p !== "" && p !== "." && p !== "..");
}

/** The record's text for a set of output paths (itself included): sorted, so it is byte-identical for the same output. */
export function formatRecord(paths: Iterable<string>): string {
  const files = [...new Set([...paths, RECORD, GITATTRIBUTES])].sort();
  return `${JSON.stringify({ generator: "rye build", note: "files this build wrote; a later build replaces or deletes only these", files }, null, 1)}\n`;
}

/** The paths a record lists, or null when the text is not a record. Paths that could leave out/ are dropped. */
export function parseRecord(text: string): Set<string> | null {
  try {
    const data = JSON.parse(text) as { generator?: unknown; files?: unknown };
    if (data.generator !== "rye build" || !Array.isArray(data.files)) return null;
    return new Set(data.files.filter((f): f is string => typeof f === "string" && isInside(f)));
  } catch {
    return null;
  }
}

/** The housekeeping files of an output holding `paths`: the record and .gitattributes. */
export function housekeepingFiles(paths: Iterable<string>): Map<string, string> {
  return new Map([
    [RECORD, formatRecord(paths)],
    [GITATTRIBUTES, GITATTRIBUTES_TEXT],
  ]);
}
