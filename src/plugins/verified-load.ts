/**
 * The one check every bundler plugin runs in its load hook: a module id that names a code file is
 * read once and handed to the OutputGuard; the verified text is what the bundler then transforms
 * and bundles. Ids that are not plain files (virtual `\0…` modules, other ids) are left to the
 * bundler. A failing file throws an IntegrityError naming its item, which fails the build.
 */
import { readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { OutputGuard } from "../verify/output-guard.js";

const CODE = /\.(?:[cm]?js|[cm]?ts|json)$/;

/** The file an id names: its path without a `?query`, or null for an id that is no file of ours to read. */
export function codeFileOf(id: string): string | null {
  const path = id.split("?")[0]!;
  if (id.startsWith("\0") || !isAbsolute(path) || !CODE.test(path)) return null;
  return path;
}

/**
 * The verified text of the file `id` names when it is build output; null when it is not (or is no
 * readable file), so the bundler reads it as usual. Throws IntegrityError when output fails the check.
 */
export function verifiedLoad(guard: OutputGuard, id: string): string | null {
  const path = codeFileOf(id);
  if (path === null) return null;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return null;
  }
  return guard.check(path, bytes) === undefined ? null : bytes.toString("utf8");
}
