// `rye test` without --out or --bundle: the project's sources compiled in memory, each module
// evaluated from a fresh private folder (0700, files created exclusively) that only this process
// writes, removed by dispose().
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "../compile/build.js";
import type { SourceFile } from "../model/source.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { runtimeFiles } from "../output/runtime-files.js";
import { privateModuleFolder } from "../output/private-module-folder.js";
import { VERSION } from "../version.js";
import { emptyBroken, type Targets } from "./targets.js";

/** Compiles the project's own items and loads every module the build emitted. */
export async function loadInMemory(sources: readonly SourceFile[], hookConfig: { path: string; text: string } | null): Promise<{ targets: Targets; diagnostics: Diagnostic[] }> {
  const result = build(sources, VERSION, { hookConfig });
  const dir = privateModuleFolder("rye-test-");
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  const targets: Targets = { directive: new Map(), knowledge: new Map(), tool: new Map(), broken: emptyBroken(), absent: new Set(), dispose };
  try {
    for (const [rel, body] of [...result.files, ...runtimeFiles()]) {
      if (!rel.endsWith(".js")) continue;
      mkdirSync(dirname(join(dir, rel)), { recursive: true, mode: 0o700 });
      writeFileSync(join(dir, rel), body, { flag: "wx", mode: 0o600 });
    }
    for (const src of sources) {
      if ((src.space ?? "project") !== "project") continue;
      const rel = `${src.kind === "directive" ? "directives" : src.kind === "tool" ? "tools" : "knowledge"}/${src.id}.js`;
      if (!result.files.has(rel)) {
        targets.broken.get(src.kind)!.add(src.id);
        if (!result.diagnostics.some((d) => d.severity === "error" && d.loc?.source === src.path)) (targets.moduleless ??= new Set()).add(`${src.kind}:${src.id}`);
        continue;
      }
      const mod = (await import(pathToFileURL(join(dir, rel)).href)) as Record<string, unknown>;
      (targets[src.kind] as Map<string, unknown>).set(src.id, mod);
    }
  } catch (e) {
    dispose();
    throw e;
  }
  return { targets, diagnostics: result.diagnostics };
}
