/**
 * The static imports of an ES module's text (`import … from "x"`, `import "x"`, `export … from
 * "x"`), in source order: the modules Node links, and evaluates first, before the module itself.
 * Dynamic `import()` is left out: it runs later, through the loader hooks, which verify it.
 */
import { initSync, parse } from "es-module-lexer";

export interface ModuleSyntax {
  /** Static specifiers in source order, each once. */
  imports: string[];
  /** Whether the text has import/export syntax at all (what decides a file no package `type` covers). */
  hasModuleSyntax: boolean;
}

/** Lexes `text` (the file `name`); throws an Error naming `name` for text that is not valid JavaScript. */
export function moduleSyntax(text: string, name: string): ModuleSyntax {
  // Compiles the lexer's WebAssembly once; later calls return at once.
  initSync();
  const [imports, , , hasModuleSyntax] = parse(text, name);
  const seen = new Set<string>();
  for (const i of imports) {
    // d === -1: a static import or re-export (whose specifier is always a string); -2 is import.meta, >= 0 a dynamic import().
    if (i.d === -1) seen.add(i.n!);
  }
  return { imports: [...seen], hasModuleSyntax };
}
