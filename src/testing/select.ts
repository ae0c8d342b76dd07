// Which test files and cases a run takes: ids or globs over item ids, and a case-name pattern (-t).
import { compileLinear, UnsafeRegex } from "../runtime/context/linear-regex.js";
import type { Pattern, TestCase, TestFile } from "./test-file.js";

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

/**
 * A `-t` pattern as the linear-time matcher runs it, with RegExp's answer (flag `u`), or why it is
 * refused. Case names are written by the checkout, so a backtracking engine would let a name and a
 * pattern such as `(a+)+$` stop the run; the matcher `matches:` uses takes time linear in the name.
 */
export function caseNamePattern(source: string): Pattern | { problem: string } {
  try {
    return { source, test: compileLinear(source).test };
  } catch (e) {
    const why = e instanceof UnsafeRegex ? e.message : String(e);
    return { problem: `-t '${source}' cannot be matched: ${why} (rye test matches case names in time linear in the name: no backreferences or lookaround)` };
  }
}

/** The cases of `file` that a `-t` pattern takes (all without one). */
export function casesSelected(file: TestFile, pattern: Pattern | null): TestCase[] {
  return pattern ? file.cases.filter((c) => pattern.test(c.name)) : file.cases;
}
