/**
 * Which way Node evaluates a file it loads through `require()`: as an ES module or as CommonJS,
 * decided the way Node's CommonJS loader decides it (the extension, then the nearest package.json
 * `type`, then, for a file no `type` covers, whether its text has module syntax).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export type ModuleFormat = "module" | "commonjs";

function readOrNull(read: (path: string) => string, path: string): string | null {
  try {
    return read(path);
  } catch {
    return null;
  }
}

function typeIn(packageJson: string): string | undefined {
  try {
    const type = (JSON.parse(packageJson) as { type?: unknown }).type;
    return type === "module" || type === "commonjs" ? type : undefined;
  } catch {
    return undefined;
  }
}

/** The `type` of the nearest package.json above `file` ("module", "commonjs" or undefined). */
export function packageTypeOf(file: string, read: (path: string) => string = (p) => String(readFileSync(p))): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const text = readOrNull(read, join(dir, "package.json"));
    if (text !== null) return typeIn(text);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The format of `file`: `.mjs` is a module and `.cjs` CommonJS whatever else says so; a `.js` file
 * follows its package's `type` (`type` is only asked for then); with none, or for any other
 * extension, `hasModuleSyntax` decides, as Node's syntax detection does.
 */
export function formatOf(file: string, type: () => string | undefined, hasModuleSyntax: () => boolean): ModuleFormat {
  if (file.endsWith(".mjs")) return "module";
  if (file.endsWith(".cjs")) return "commonjs";
  const declared = file.endsWith(".js") ? type() : undefined;
  if (declared === "module" || declared === "commonjs") return declared;
  return hasModuleSyntax() ? "module" : "commonjs";
}
