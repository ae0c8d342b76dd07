import { mkdtempSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type BuildOptions, type BuildResult, type SourceFile } from "../../src/index.js";
import { runtimeFiles } from "../../src/output/runtime-files.js";

/** Compiles sources into a fresh temp directory (with the runtime) and returns it with the result. */
export function compileToDir(sources: readonly SourceFile[], options: BuildOptions = {}): { dir: string; result: BuildResult } {
  const result = build(sources, "test", options);
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

/** Every directive and knowledge item of the repository's example project `.ai/`. */
export function exampleSources(): SourceFile[] {
  const ai = fileURLToPath(new URL("../../.ai/", import.meta.url));
  const out: SourceFile[] = [];
  for (const [kind, dir] of [["directive", "directives"], ["knowledge", "knowledge"]] as const) {
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
    for (const f of walk(join(ai, dir)).filter((f) => f.endsWith(".md"))) {
      out.push({ kind, id: relative(join(ai, dir), f).replace(/\.md$/, ""), path: relative(join(ai, ".."), f), text: readFileSync(f, "utf8") });
    }
  }
  return out;
}
