/**
 * Which way Node evaluates a file it loads through `require()`: as an ES module or as CommonJS,
 * decided the way Node's CommonJS loader decides it (the extension, then the nearest package.json
 * `type`, then, for a file no `type` covers, whether its text has module syntax).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export type ModuleFormat = "module" | "commonjs";

/** The `type` of the nearest package.json above `file` ("module", "commonjs" or undefined). */
export function packageTypeOf(file: string, read: (path: string) => string = (p) => readFileSync(p, "utf8")): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    let text: string | undefined;
    try {
      text = read(join(dir, "package.json"));
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      try {
        const type = (JSON.parse(text) as { type?: unknown }).type;
        return type === "module" || type === "commonjs" ? type : undefined;
      } catch {
        return undefined;
      }
    }
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
