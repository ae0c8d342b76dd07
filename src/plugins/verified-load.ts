/**
 * The one check every bundler plugin runs in its load hook: a module id that names a code file is
 * read once and handed to the OutputGuard; the verified text is what the bundler then transforms
 * and bundles. Ids that are not plain files (virtual `\0…` modules, other ids) are left to the
 * bundler. A failing file throws an IntegrityError naming its item, which fails the build.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { requestedPath } from "../register/requested-path.js";
import { IntegrityError } from "../verify/integrity-error.js";
import type { OutputGuard } from "../verify/output-guard.js";

/** Files a bundler may load as code, whose bytes could be a signed bundle outside any output folder. */
export const CODE = /\.(?:[cm]?js|[cm]?ts|json)$/;

/** The path with links resolved, or as given when it does not exist. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The file an id names: its path without a `?query`, or null for an id that is no file of ours to read. */
export function codeFileOf(id: string): string | null {
  const path = filePathOf(id);
  return path !== null && CODE.test(path) ? path : null;
}

/** The absolute file path an id names (without a `?query`), whatever its extension; null for virtual ids. */
export function filePathOf(id: string): string | null {
  const path = id.split("?")[0]!;
  return id.startsWith("\0") || !isAbsolute(path) ? null : path;
}

/**
 * The verified text of the file `id` names when it is build output; null when it is not (or is no
 * readable file), so the bundler reads it as usual. Throws IntegrityError when output fails the check.
 * A file inside an output folder is checked whatever its extension: a bundler compiles `.tsx`,
 * `.jsx`, `.css` and more, and resolves a folder to any of them (`out/x.js/index.tsx`), so an
 * extension list would leave a way around; outside, only code files can be a signed bundle.
 */
export function verifiedLoad(guard: OutputGuard, id: string): string | null {
  const path = filePathOf(id);
  if (path === null || (!CODE.test(path) && guard.outputFolderOf(realPath(path)) === null)) return null;
  // The folder is verified (its tree included) before the file is read; a file that cannot be read is the bundler's to report.
  guard.beforeRead(path);
  let bytes: Buffer;
  try {
    bytes = guard.read(path);
  } catch (e) {
    if (e instanceof IntegrityError) throw e;
    return null;
  }
  return guard.check(path, bytes) === undefined ? null : bytes.toString("utf8");
}

/**
 * The resolve-time half of the check. Bundlers, like Node, follow symbolic links before they load
 * a file, so `load` sees a link's target, perhaps outside every output folder and unmarked. Here
 * the import as written (`source` from the `importer`'s folder, or from `root` for the entry or a
 * root-relative URL) is still known: a link inside an output folder on that path is refused.
 * Returns true for an output module's runtime package, which the bundler must keep external (a bare
 * import resolved where the bundle runs): resolving it from the module's folder would consult out/.
 */
export function checkRequest(guard: OutputGuard, source: string, importer: string | undefined, root: string = process.cwd()): boolean {
  const parent = importer && isAbsolute(importer.split("?")[0]!) ? importer.split("?")[0]! : null;
  const from = parent !== null ? dirname(parent) : root;
  // The import rule of output modules (OutputGuard.checkImport): a runtime package is never looked up from out/.
  const rule = parent !== null && !source.startsWith("\0") ? guard.checkImport(source, parent) : null;
  if (rule === "rye") return true;
  const asked = requestedPath(source, from);
  if (rule === "self" && asked !== null) guard.checkImport(source, parent!, asked);
  if (asked !== null) guard.checkRequested(asked);
  // A root-relative URL (`/main.js` from index.html) names a file under the project root.
  if (source.startsWith("/") && !source.startsWith("//")) {
    const rooted = requestedPath(join(root, source), root);
    if (rooted !== null) guard.checkRequested(rooted);
  }
  return false;
}
