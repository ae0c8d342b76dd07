import { readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";

/**
 * Random edits of `text`: one to four insertions, deletions or replacements of the given pieces at
 * random places, for properties that must hold of near-valid input as well as valid input.
 */
export function editedText(text: string, pieces: readonly string[]): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.nat(), fc.constantFrom(...pieces), fc.constantFrom("insert", "delete", "replace"));
  return fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => {
    let out = text;
    for (const [at, piece, how] of edits) {
      const i = at % (out.length + 1);
      const rest = how === "insert" ? out.slice(i) : out.slice(i + piece.length);
      out = out.slice(0, i) + (how === "delete" ? "" : piece) + rest;
    }
    return out;
  });
}

/** Every file under `dir` whose name matches, or none when `dir` cannot be read. */
export function filesUnder(dir: string, name: RegExp): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name), name) : name.test(e.name) ? [join(dir, e.name)] : []));
  } catch {
    return [];
  }
}
