// A declaration map for out/index.d.ts, so that an editor's "go to definition" on a directive id,
// an input or an output of the registry opens the `.md` that declares it. It is written into the
// declaration file itself (a base64 data URL, which TypeScript reads), so the manifest binds it with
// the file, and a build writes no file more for it.
//
// TypeScript maps a definition found at a position of the `.d.ts` through the first mapping at or
// after that position. Lines therefore end with a mapping to nothing: a definition on a line the map
// does not name stays in the `.d.ts` instead of landing on the next line's source. Lines known to
// declare nothing (doc comments, brackets) need none, which keeps the map small.

import { isAbsolute, relative, resolve, sep } from "node:path";

/** Where a declaration file's sources are. */
export interface DeclarationMapOptions {
  /** The project's root as seen from the output folder, `/`-separated and ending in `/` (`"../"` for `<project>/out`). */
  sourceRoot: string;
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
export function declarationMapFor(project: string, outDir: string): DeclarationMapOptions | undefined {
  const inside = relative(resolve(project), resolve(outDir));
  if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined;
  return { sourceRoot: "../".repeat(inside.split(sep).length) };
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** One signed number in the source map format's base64 VLQ. */
function vlq(n: number): string {
  if (n > -SMALL && n < SMALL) return (SMALL_VLQ[n + SMALL] ??= encode(n));
  return encode(n);
}
function encode(n: number): string {
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
/** Line lengths and position deltas are mostly small: their codes are made once. */
const SMALL = 1024;
const SMALL_VLQ: string[] = [];

/**
 * The `mappings` of a declaration file, written line by line. A line that names a declaration maps
 * its first column to the declaration's place and the rest of the line nowhere; a line that may hold
 * definitions the map does not name maps nowhere from its end back; a line that declares nothing
 * (a doc comment, a bracket) gets no mapping.
 */
export class LineMappings {
  private readonly lines: string[] = [];
  private source = 0;
  private line = 0;
  private column = 0;

  /** A line of `length` characters that maps nowhere. */
  nowhere(length: number): void {
    this.lines.push(length > 0 ? vlq(length) : "");
  }

  /** A line with no mapping: nothing on it is a definition. */
  nothing(): void {
    this.lines.push("");
  }

  /** Every line of `text` (split on "\n", the last one included even when empty), each mapping nowhere. */
  text(text: string): void {
    let at = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", at)) {
      this.nowhere(end - at);
      at = end + 1;
    }
    this.nowhere(text.length - at);
  }

  /** The lines `blockMappings` wrote of a block, its marks in `source`; false when it marks none (nothing was written). */
  block(block: string, source: number): boolean {
    const f = [0, 0, 0, 0, 0];
    let at = 0;
    for (let i = 0; i < 5; i++) {
      const colon = block.indexOf(":", at);
      if (colon === -1) return false;
      f[i] = Number(block.slice(at, colon));
      at = colon + 1;
    }
    for (let i = 0; i < f[0]!; i++) this.nothing();
    this.lines.push(this.first({ source, line: f[1]!, column: f[2]! }) + block.slice(at));
    this.line = f[3]!;
    this.column = f[4]!;
    return true;
  }

  toString(): string {
    return this.lines.join(";");
  }

  /** The mapping at the first column to `mark`, relative to the one before. */
  private first(mark: LineMark): string {
    const code = `A${vlq(mark.source - this.source)}${vlq(mark.line - this.line)}${vlq(mark.column - this.column)}`;
    this.source = mark.source;
    return code;
  }
}

/**
 * The mappings of a block of lines that will sit among others (a registry entry), its marks all in
 * one source, written ahead (on a build worker) so that placing it costs one mapping: only the
 * first depends on what comes before. `lead:line:column:lastLine:lastColumn:rest`, where `lead`
 * lines come before the first mark, `line:column` is the first mark, `rest` the mappings from that
 * line's end on (each later mark relative to the one before), and `lastLine:lastColumn` the last
 * mark. Unmarked lines get no mapping. "" when no line is marked.
 */
export function blockMappings(text: string, marks: readonly (readonly [line: number, column: number] | null)[]): string {
  let lead = 0;
  let first: readonly [number, number] | null = null;
  let last: readonly [number, number] = [0, 0];
  const rest: string[] = [];
  let at = 0;
  for (let i = 0; ; i++) {
    const end = text.indexOf("\n", at);
    const length = (end === -1 ? text.length : end) - at;
    const mark = marks[i] ?? null;
    const tail = length > 0 ? `,${vlq(length)}` : "";
    if (mark && first) rest.push(`AA${vlq(mark[0] - last[0])}${vlq(mark[1] - last[1])}${tail}`);
    else if (mark) rest.push(tail);
    else if (first) rest.push("");
    else lead++;
    if (mark) {
      first ??= mark;
      last = mark;
    }
    if (end === -1) break;
    at = end + 1;
  }
  return first ? `${lead}:${first[0]}:${first[1]}:${last[0]}:${last[1]}:${rest.join(";")}` : "";
}

/** The last line of a declaration file `file` whose `mappings` point into `sources` (paths relative to the project): `//# sourceMappingURL=data:…`. */
export function declarationMapComment(file: string, mappings: string, sources: readonly string[], options: DeclarationMapOptions): string {
  const map = { version: 3, file, sourceRoot: options.sourceRoot, sources, names: [], mappings };
  return `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(map), "utf8").toString("base64")}\n`;
}
