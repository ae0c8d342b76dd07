import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { NOT_BUILD_OUTPUT } from "./check-output.js";

/** Writes `files` under `outDir`, touching only files whose content changed, and removes stale generated files. */
export function writeOutput(outDir: string, files: ReadonlyMap<string, string>): { written: number; removed: number } {
  let written = 0;
  let removed = 0;
  for (const [rel, text] of files) {
    const path = join(outDir, rel);
    if (existsSync(path) && readFileSync(path, "utf8") === text) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written++;
  }
  for (const path of listFiles(outDir)) {
    const rel = relative(outDir, path).split(sep).join("/");
    if (!files.has(rel) && !NOT_BUILD_OUTPUT.has(rel)) {
      rmSync(path);
      removed++;
    }
  }
  return { written, removed };
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}
