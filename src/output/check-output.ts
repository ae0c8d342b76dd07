import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** How `out/` differs from what a build would write. */
export interface OutputDrift {
  missing: string[];
  stale: string[];
  extra: string[];
}

/** Files `rye bundle` adds to out/: not build output, so never stale. */
export const NOT_BUILD_OUTPUT = new Set(["bundle.mjs", "bundle.mjs.sig"]);

/** Compares `files` with the contents of `outDir` (following out/ when it is a generation symlink) without touching anything; `view` picks what is compared. */
export function checkOutput(outDir: string, files: ReadonlyMap<string, string>, view: (rel: string, text: string) => string = (_, t) => t): OutputDrift {
  const drift: OutputDrift = { missing: [], stale: [], extra: [] };
  for (const [rel, text] of files) {
    const path = join(outDir, rel);
    if (!existsSync(path)) drift.missing.push(rel);
    else if (view(rel, readFileSync(path, "utf8")) !== view(rel, text)) drift.stale.push(rel);
  }
  for (const path of listFiles(outDir)) {
    const rel = relative(outDir, path).split(sep).join("/");
    if (!files.has(rel) && !NOT_BUILD_OUTPUT.has(rel)) drift.extra.push(rel);
  }
  for (const list of Object.values(drift)) list.sort();
  return drift;
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}
