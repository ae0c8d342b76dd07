import { existsSync, lstatSync, readdirSync } from "node:fs";
import { readRegular } from "./no-follow.js";
import { join, relative, sep } from "node:path";
import { WORK_DIR, housekeepingFiles, isNotBuildOutput } from "./output-record.js";

/** How `out/` differs from what a build would write. */
export interface OutputDrift {
  missing: string[];
  stale: string[];
  extra: string[];
}

/** Files `rye bundle` adds to out/: not build output, so never stale. */
export const NOT_BUILD_OUTPUT = new Set(["bundle.mjs", "bundle.mjs.sig"]);
export { isNotBuildOutput } from "./output-record.js";

/**
 * Compares `files` (plus the record and .gitattributes a build adds) with the contents of `outDir`
 * without touching anything; `view` picks what is compared.
 */
export function checkOutput(outDir: string, files: ReadonlyMap<string, string>, view: (rel: string, text: string) => string = (_, t) => t): OutputDrift {
  const drift: OutputDrift = { missing: [], stale: [], extra: [] };
  const expected = new Map([...files, ...housekeepingFiles(files.keys())]);
  for (const [rel, text] of expected) {
    const path = join(outDir, rel);
    // Never followed or opened as anything but a regular file: a link or a FIFO in out/ is stale.
    const found = lstatSync(path, { throwIfNoEntry: false }) ? readRegular(path) : undefined;
    if (found === undefined) drift.missing.push(rel);
    else if (found === null || view(rel, found) !== view(rel, text)) drift.stale.push(rel);
  }
  for (const path of listFiles(outDir, outDir)) {
    const rel = relative(outDir, path).split(sep).join("/");
    if (!expected.has(rel) && !isNotBuildOutput(rel)) drift.extra.push(rel);
  }
  for (const list of Object.values(drift)) list.sort();
  return drift;
}

/** Files (and anything that is not a folder) under `dir`, except the writer's own out/.rye/. */
function listFiles(dir: string, top: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (dir === top && e.name === WORK_DIR ? [] : listFiles(join(dir, e.name), top)) : [join(dir, e.name)],
  );
}
