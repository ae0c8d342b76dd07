// Which test files and cases a run takes: ids or globs over item ids, and a case-name pattern (-t).
import type { TestCase, TestFile } from "./test-file.js";

/** `*` any run of characters but `/`, `**` any run at all, `?` one character; anything else literal. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*" && glob[i + 1] === "*") {
      re += ".*";
      i++;
    } else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else re += ch.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "u");
}

/**
 * True when the file's item is named by a filter: its id (or `kind:id`, kind being directive,
 * tool or knowledge), a glob over ids, or a folder prefix (`examples/` takes everything in it).
 */
export function fileSelected(file: TestFile, filters: readonly string[]): boolean {
  if (filters.length === 0) return true;
  return filters.some((f) => {
    const [kind, id] = /^(directive|tool|knowledge):/.test(f) ? [f.slice(0, f.indexOf(":")), f.slice(f.indexOf(":") + 1)] : [null, f];
    if (kind !== null && kind !== file.kind) return false;
    if (id === file.id || (id.endsWith("/") && file.id.startsWith(id))) return true;
    return /[*?]/.test(id) && globToRegExp(id).test(file.id);
  });
}

/** The cases of `file` that a `-t` pattern takes (all without one). */
export function casesSelected(file: TestFile, pattern: RegExp | null): TestCase[] {
  return pattern ? file.cases.filter((c) => pattern.test(c.name)) : file.cases;
}
