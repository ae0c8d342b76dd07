import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type BuildResult, type SourceFile } from "../../src/index.js";
import { runtimeFiles } from "../../src/cli/runtime-files.js";

/** Compiles sources into a fresh temp directory (with the runtime) and returns it with the result. */
export function compileToDir(sources: readonly SourceFile[]): { dir: string; result: BuildResult } {
  const result = build(sources, "test");
  const dir = mkdtempSync(join(tmpdir(), "rye-out-"));
  for (const [rel, text] of [...result.files, ...runtimeFiles()]) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return { dir, result };
}

/** Imports a compiled directive module from `dir`. */
export async function importDirective(dir: string, id: string): Promise<any> {
  return import(pathToFileURL(join(dir, "directives", `${id}.js`)).href);
}

/** A directive source from markdown text, as the CLI would read it. */
export function source(id: string, text: string): SourceFile {
  return { kind: "directive", id, path: `.ai/directives/${id}.md`, text };
}
