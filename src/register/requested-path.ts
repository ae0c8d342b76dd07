/**
 * The file a request names as written, before a resolver follows symbolic links: resolvers hand
 * the loader and the bundlers the link's target, so this is where the path a module was asked for
 * under (inside an output folder, say) is still known. It mirrors how resolvers try a request: as
 * written, with an extension, as a folder's index, and a bare one in each node_modules above.
 * A package's `exports` map is not followed: where it routes a request is the package's own choice.
 */
import { existsSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const EXTENSIONS = ["", ".js", ".mjs", ".cjs", ".json", ".node", ".ts", ".mts", ".cts", ".jsx", ".tsx"];

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function firstFile(base: string): string | null {
  for (const ext of EXTENSIONS) if (isFile(base + ext)) return base + ext;
  for (const ext of EXTENSIONS.slice(1)) if (isFile(join(base, `index${ext}`))) return join(base, `index${ext}`);
  return null;
}

/** node_modules folders a bare request is looked up in from `fromDir`, nearest first. */
function nodeModulesFrom(fromDir: string): string[] {
  const dirs: string[] = [];
  for (let d = fromDir; ; d = dirname(d)) {
    if (basename(d) !== "node_modules") dirs.push(join(d, "node_modules"));
    if (dirname(d) === d) return dirs;
  }
}

/**
 * The path `request` names from the folder `fromDir` (or in `searchDirs`, for a bare request), links
 * not followed; null when it names no file path (a builtin, a URL of another scheme, `#` imports, a
 * bare request found nowhere).
 */
export function requestedPath(request: string, fromDir: string, searchDirs?: readonly string[]): string | null {
  let clean = request.startsWith("\0") ? "" : request.split("?")[0]!;
  if (clean.startsWith("file:")) {
    try {
      clean = fileURLToPath(clean);
    } catch {
      return null;
    }
  }
  if (clean === "" || clean.startsWith("#") || isBuiltin(clean) || /^[a-z][a-z0-9+.-]*:/i.test(clean)) return null;
  if (isAbsolute(clean) || /^\.\.?(?:\/|$)/.test(clean)) {
    const base = resolve(fromDir, clean);
    return firstFile(base) ?? base;
  }
  for (const dir of searchDirs ?? nodeModulesFrom(fromDir)) {
    const found = firstFile(join(dir, clean));
    if (found !== null) return found;
    if (existsSync(join(dir, clean))) return join(dir, clean);
  }
  return null;
}
