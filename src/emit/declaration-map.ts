// A declaration map for out/index.d.ts, so that an editor's "go to definition" on a directive id,
// an input or an output of the registry opens the `.md` that declares it. It is written into the
// declaration file itself (a base64 data URL, which TypeScript reads), so it is signed and bound by
// the manifest with the file, and a build writes no file more for it.
//
// TypeScript maps a definition found at a position of the `.d.ts` through the first mapping at or
// after that position. Lines therefore end with a mapping to nothing: a definition on a line the map
// does not name stays in the `.d.ts` instead of landing on the next line's source. Lines known to
// declare nothing (doc comments, brackets) need none, which keeps the map small.

import { isAbsolute, relative, resolve, sep } from "node:path";

/** Where a declaration file's sources are, and how it will be written. */
export interface DeclarationMapOptions {
  /** The project's root as seen from the output folder, `/`-separated and ending in `/` (`"../"` for `<project>/out`). */
  sourceRoot: string;
  /** The file will be signed: its signature line goes before the text, and the map counts it. */
  signed: boolean;
}

/** A line of the generated file that declares something written in a source: which source, and where (0-based). */
export interface LineMark {
  source: number;
  line: number;
  column: number;
}

/**
 * How `index.d.ts` of a build from `project` into `outDir` maps to the sources: the project's root
 * as seen from the output folder (`../` for `<project>/out`). None when the output folder is not
 * inside the project, where the path would name folders of this machine and two checkouts would
 * build different bytes.
 */
export function declarationMapFor(project: string, outDir: string, signed: boolean): DeclarationMapOptions | undefined {
  const inside = relative(resolve(project), resolve(outDir));
  if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined;
  return { sourceRoot: "../".repeat(inside.split(sep).length), signed };
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** One signed number in the source map format's base64 VLQ. */
function vlq(n: number): string {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = "";
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += BASE64[digit];
  } while (v > 0);
  return out;
}

/**
 * The `mappings` of a map for `text` (lines split on "\n"): each marked line maps its first column
 * to its mark, and every non-empty line ends with a mapping to no source, but those marked null
 * (lines that declare nothing). `linesBefore` lines, to be written before `text`, map nowhere.
 */
export function lineMappings(text: string, marks: ReadonlyMap<number, LineMark | null>, linesBefore = 0): string {
  let source = 0;
  let line = 0;
  let column = 0;
  const out: string[] = Array<string>(linesBefore).fill("");
  let at = 0;
  for (let i = 0; at <= text.length; i++) {
    const next = text.indexOf("\n", at);
    const length = (next === -1 ? text.length : next) - at;
    const mark = marks.get(i);
    const segments: string[] = [];
    if (mark) {
      segments.push(vlq(0) + vlq(mark.source - source) + vlq(mark.line - line) + vlq(mark.column - column));
      ({ source, line, column } = mark);
    }
    if (length > 0 && mark !== null) segments.push(vlq(length));
    out.push(segments.join(","));
    if (next === -1) break;
    at = next + 1;
  }
  return out.join(";");
}

/**
 * The last line of a declaration file `file` whose lines `marks` map into `sources` (paths relative
 * to the project): `//# sourceMappingURL=data:…`.
 */
export function declarationMapComment(file: string, text: string, sources: readonly string[], options: DeclarationMapOptions, marks: ReadonlyMap<number, LineMark | null>): string {
  const map = { version: 3, file, sourceRoot: options.sourceRoot, sources, names: [], mappings: lineMappings(text, marks, options.signed ? 1 : 0) };
  return `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(map), "utf8").toString("base64")}\n`;
}
