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

const GENERATOR = "rye build";
const NOTE = "files this build wrote, by folder; a later build replaces or deletes only these";

/**
 * The record's text for a set of output paths (itself included): sorted, so it is byte-identical
 * for the same output. Each folder's file names are listed once on a line of their own under
 * `folders` ("" is out/ itself): a 10k build's record stays a fraction of the size of a list of
 * whole paths.
 */
export function formatRecord(paths: Iterable<string>): string {
  const files = [...new Set([...paths, RECORD, GITATTRIBUTES])].sort();
  const folders = new Map<string, string[]>();
  for (const f of files) {
    const cut = f.lastIndexOf("/");
    const folder = cut === -1 ? "" : f.slice(0, cut);
    let names = folders.get(folder);
    if (!names) folders.set(folder, (names = []));
    names.push(f.slice(cut + 1));
  }
  const lines = [...folders].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([folder, names]) => `${JSON.stringify(folder)}:${JSON.stringify(names)}`);
  return `{"generator":${JSON.stringify(GENERATOR)},"note":${JSON.stringify(NOTE)},"folders":{\n${lines.join(",\n")}\n}}\n`;
}

/**
 * The paths a record lists, or null when the text is not a record. Reads both forms: `folders`
 * (folder → names) and the whole paths of `files` that earlier versions wrote. Paths that could
 * leave out/ are dropped.
 */
export function parseRecord(text: string): Set<string> | null {
  try {
    const data = JSON.parse(text) as { generator?: unknown; files?: unknown; folders?: unknown };
    if (data.generator !== GENERATOR) return null;
    const paths: unknown[] = [];
    if (Array.isArray(data.files)) paths.push(...data.files);
    else if (data.folders && typeof data.folders === "object" && !Array.isArray(data.folders)) {
      for (const [folder, names] of Object.entries(data.folders)) {
        if (!Array.isArray(names)) return null;
        for (const name of names) if (typeof name === "string") paths.push(folder === "" ? name : `${folder}/${name}`);
      }
    } else return null;
    return new Set(paths.filter((f): f is string => typeof f === "string" && isInside(f)));
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
