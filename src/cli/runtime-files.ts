import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The compiled runtime that generated modules import, copied into `out/runtime/` so the output
 * runs without this package installed. Found beside the running CLI in dist/, or in dist/ when
 * the CLI runs from its TypeScript sources (tests).
 */
export function runtimeFiles(): Map<string, string> {
  const candidates = [new URL("../runtime/", import.meta.url), new URL("../../dist/runtime/", import.meta.url)];
  const dir = candidates.map((u) => fileURLToPath(u)).find((p) => existsSync(`${p}directive.js`));
  if (!dir) throw new Error("compiled runtime not found: run `npm run build` first");
  const files = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith(".js") || name.endsWith(".d.ts")) files.set(`runtime/${name}`, readFileSync(dir + name, "utf8"));
  }
  return files;
}
