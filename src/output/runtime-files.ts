import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The compiled runtime that generated modules import, copied into `out/runtime/` so the output
 * runs without this package installed. Found beside the running CLI in dist/, or in dist/ when
 * the CLI runs from its TypeScript sources (tests). Read once per process: the build copies it and
 * the compiler's identity (src/sign/compiler-identity.ts) hashes it, and the files are the
 * compiler's own, as loaded at start. Callers copy from the map and never change it.
 */
export function runtimeFiles(): ReadonlyMap<string, string> {
  return (ofThisProcess ??= readRuntimeFiles());
}

let ofThisProcess: Map<string, string> | undefined;

function readRuntimeFiles(): Map<string, string> {
  const candidates = [new URL("../runtime/", import.meta.url), new URL("../../dist/runtime/", import.meta.url)];
  const dir = candidates.map((u) => fileURLToPath(u)).find((p) => existsSync(`${p}directive.js`));
  if (!dir) throw new Error("compiled runtime not found: run `npm run build` first");
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }).sort((a, b) => join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)))) {
    if (!entry.isFile() || !(entry.name.endsWith(".js") || entry.name.endsWith(".d.ts"))) continue;
    const full = join(entry.parentPath, entry.name);
    files.set(`runtime/${full.slice(dir.length).split("\\").join("/")}`, readFileSync(full, "utf8"));
  }
  return files;
}
