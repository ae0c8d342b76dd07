// What `rye init` tells a project about loading its output. The output folder is always ES modules
// and carries its own package.json {"type": "module"}, so one output serves both kinds of package:
// an ESM package imports it, a CommonJS one (npm init's default) requires it, which Node loads as
// an ES module from 20.19 on. Nothing in the user's package.json has to change.
import { readRegularText } from "../project/read-regular.js";
import { join } from "node:path";

/** The oldest Node whose require() loads an ES module without a flag. */
export const REQUIRE_ESM_SINCE = [20, 19] as const;

function readJson(path: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readRegularText(path, { kind: "config", link: { links: "follow" } }));
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** True when `version` ("20.18.1") is at least `REQUIRE_ESM_SINCE`. */
export function canRequireEsm(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > REQUIRE_ESM_SINCE[0] || (major === REQUIRE_ESM_SINCE[0] && minor >= REQUIRE_ESM_SINCE[1]);
}

/**
 * The lines `rye init` prints on how the project's code loads the output: an import for a package of
 * `"type": "module"`, a require for a CommonJS one; nothing when `root` has no package.json.
 * @example moduleNote("/app", "20.19.0") // ["CommonJS package: …", …]
 */
export function moduleNote(root: string, nodeVersion: string): string[] {
  const pkg = readJson(join(root, "package.json"));
  if (pkg === null) return [];
  const configured = readJson(join(root, "rye.config.json"))?.out;
  const index = `./${typeof configured === "string" ? configured.replace(/^\.\/|\/$/g, "") : "out"}/index.js`;
  if (pkg.type === "module") return [`Load the output with: import { directives } from "${index}";`];
  const lines = [
    `CommonJS package (package.json has no "type": "module"): nothing to change. The output folder is ES modules with its own package.json {"type": "module"}; load it with`,
    `  const { directives } = require("${index}");     // JavaScript`,
    `  import rye = require("${index}");               // TypeScript (tsc --init defaults), or import from a .mts file`,
  ];
  if (!canRequireEsm(nodeVersion)) lines.push(`This Node (${nodeVersion}) cannot require() an ES module: use Node 20.19 or later, or import it from a .mjs file.`);
  return lines;
}
