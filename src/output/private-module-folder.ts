// The private folder `rye preview` and `rye test` evaluate freshly compiled modules from. Node
// decides whether a `.js` file is an ES module by the nearest package.json at or above it; a folder
// from mkdtemp lies under the temporary folder (TMPDIR, /tmp), which other accounts can write, so a
// package.json planted there would choose the format of every module rye loads (a refusal to run at
// best). The folder therefore holds its own package.json, written first, and the lookup ends in it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What the folder's package.json says: the same module format as out/package.json. */
export const MODULE_SCOPE = `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`;

/** A new 0700 folder under the temporary folder whose modules no package.json outside it can reinterpret. */
export function privateModuleFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, "package.json"), MODULE_SCOPE, { flag: "wx", mode: 0o600 });
  return dir;
}
