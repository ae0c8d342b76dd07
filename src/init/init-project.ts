// `rye init`: scaffold a project without ever overwriting anything that is already there.
import { existsSync, lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { readRegularText } from "../project/read-regular.js";
import { dirname, join } from "node:path";
import { GITIGNORE_LINES, TEMPLATE_FILES } from "./project-template.js";

/** What `initProject` did, as project-relative paths. */
export interface InitResult {
  created: string[];
  /** Files that already existed and were left as they were. */
  skipped: string[];
  /** Lines appended to .gitignore (empty when it already had them all). */
  ignored: string[];
}

/**
 * Writes the template project into `root`, file by file, skipping every file that exists.
 * @example const { created, skipped } = initProject(process.cwd());
 */
export function initProject(root: string): InitResult {
  const result: InitResult = { created: [], skipped: [], ignored: [] };
  for (const [path, text] of TEMPLATE_FILES) {
    const target = join(root, path);
    // A folder or file of a checkout may be a link out of it: init writes through none.
    if (linkOnTheWay(root, path)) {
      result.skipped.push(path);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    // "wx" fails on an existing file, so a file appearing between a check and the write is not clobbered either.
    try {
      writeFileSync(target, text, { flag: "wx" });
      result.created.push(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      result.skipped.push(path);
    }
  }
  result.ignored = linkOnTheWay(root, ".gitignore") ? [] : ensureIgnored(join(root, ".gitignore"));
  return result;
}

/** True when `rel` under `root`, or a folder on the way to it, is a symbolic link (or not what it should be). */
function linkOnTheWay(root: string, rel: string): boolean {
  let at = root;
  for (const part of rel.split("/")) {
    at = join(at, part);
    try {
      if (lstatSync(at).isSymbolicLink()) return true;
    } catch {
      return false; // nothing there yet: what follows is created by init itself
    }
  }
  return false;
}

/** Appends the missing build-output and cache lines to a .gitignore; returns those lines. */
function ensureIgnored(path: string): string[] {
  const text = existsSync(path) ? readRegularText(path, { kind: "config", link: { links: "refuse" } }) : "";
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = GITIGNORE_LINES.filter((l) => !present.has(l) && !present.has(l.replace(/^\//, "")));
  if (missing.length === 0) return [];
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  writeFileSync(path, `${text}${sep}${missing.join("\n")}\n`);
  return missing;
}
