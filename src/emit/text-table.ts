// The text of an emitted module, stored once. An item's raw text, content, body, prompt and
// metadata are mostly the same characters: the module holds the item's source text as one
// literal, and every longer piece of text is a constant derived from it when the module loads
// (a slice, or a few pieces joined), so a render concatenates the same pieces it did before.
import { lit, template } from "./escape.js";

/**
 * Shorter texts are written in place: a slice costs its name where it is declared and where it is
 * used (`T12`, 3-4 bytes each) and its bounds (`1bt,6t,`, 6-8 bytes), about what a literal of this
 * length costs (a smaller threshold gained nothing on the generated 1k).
 */
const MIN_SHARED = 12;

export class TextTable {
  /**
   * Each piece's constant by the piece's length: most pieces are new string objects, which a Map
   * keyed by the string itself hashes in full on every lookup (a third of this class's time); two
   * pieces rarely have the same length, so comparing those few costs less.
   */
  private readonly names = new Map<number, [piece: string, name: string][]>();
  private named = 0;
  /** Strings the module computes itself (`PROMPT.open`), with their code: used as they are. */
  private readonly computed: [string, string][] = [];
  /** Each joined constant by its code. */
  private readonly joinNames = new Map<string, string>();
  private readonly decls: string[] = [];
  private readonly joins: string[] = [];
  /** Name, start and end of every slice of the source, declared together ahead of the other constants. */
  private readonly cuts: [string, number, number][] = [];
  private sourceUsed = false;
  /** Where the last piece was found: pieces are mostly asked for in the order of the text. */
  private hint = 0;

  /**
   * `source` is the item's text: every piece found in it becomes a slice of it. `compact`: the
   * slices are cut by one runtime call (`slices`) instead of a declaration each; a TypeScript
   * source keeps one typed declaration each.
   */
  constructor(
    private readonly source: string,
    private readonly compact = false,
  ) {}

  /** `code` evaluates to `s` once the module's computed constants exist: `join` uses it for `s`. */
  known(s: string | null | undefined, code: string): void {
    if (s) this.computed.push([s, code]);
  }

  /** The computed constant whose value is `s`, if any (compared by length first: most pieces are long and none of these). */
  private computedFor(s: string): string | undefined {
    for (const [value, code] of this.computed) if (value.length === s.length && value === s) return code;
    return undefined;
  }

  /** A JS expression whose value is `s`: a literal for short text, else a slice of the source (or, not found there, a literal). */
  text(s: string): string {
    if (s.length < MIN_SHARED) return lit(s);
    const same = this.names.get(s.length);
    if (same) for (const [piece, name] of same) if (piece === s) return name;
    // Raw text starts where the source does; other pieces mostly follow the last one found.
    let at = this.source.startsWith(s) ? 0 : this.source.indexOf(s, this.hint);
    if (at === -1) at = this.source.lastIndexOf(s, this.hint);
    if (at === -1) return lit(s);
    this.hint = at + s.length;
    this.sourceUsed = true;
    const name = `T${this.named++}`;
    if (same) same.push([s, name]);
    else this.names.set(s.length, [[s, name]]);
    if (this.compact) this.cuts.push([name, at, at + s.length]);
    else this.decls.push(`const ${name} = ${SOURCE}.slice(${at}, ${at + s.length});\n`);
    return name;
  }

  /** A JS expression whose value is `parts` joined: one module constant when the result is long, built from shared pieces. */
  join(parts: readonly string[]): string {
    if (parts.length === 1) return this.computedFor(parts[0]!) ?? (parts[0] === "" ? '""' : this.text(parts[0]!));
    let length = 0;
    for (const p of parts) length += p.length;
    if (length < MIN_SHARED) return lit(parts.join(""));
    if (this.computed.some(([value]) => value.length === length)) {
      const whole = this.computedFor(parts.join(""));
      if (whole) return whole;
    }
    const pieces: string[] = [];
    for (const p of parts) if (p !== "") pieces.push(this.computedFor(p) ?? this.text(p));
    if (pieces.length === 1) return pieces[0]!;
    // The same pieces joined again are the same constant.
    const code = pieces.join("+");
    let name = this.joinNames.get(code);
    if (!name) {
      name = `J${this.joins.length}`;
      this.joinNames.set(code, name);
      this.joins.push(`const ${name} = ${code};\n`);
    }
    return name;
  }

  /** The module's text and its slices: what metadata and the other constants are made of. */
  declarations(): string {
    const source = this.sourceUsed ? `const ${SOURCE} = ${template(this.source)};\n` : "";
    // The module's longest list of numbers, written short: in the order of the text, each start
    // counted from the end before it (mostly a value's width away) and each length, in base 36.
    const cuts = [...this.cuts].sort((a, b) => a[1] - b[1] || a[2] - b[2]);
    let end = 0;
    const bounds = cuts.map(([, start, stop]) => {
      const gap = (start - end).toString(36);
      end = stop;
      return `${gap},${(stop - start).toString(36)}`;
    });
    const names = cuts.length === 0 ? "" : `const [${cuts.map((c) => c[0]).join(",")}] = slices(${SOURCE}, "${bounds.join(",")}");\n`;
    return source + names + this.decls.join("");
  }

  /** The constants `join` made, which may use the computed ones: declared after those. */
  joined(): string {
    return this.joins.join("");
  }

  /** True when `declarations()` calls the runtime's `slices`, which the module must then import. */
  usesSlices(): boolean {
    return this.cuts.length > 0;
  }
}

/** The item's source text in an emitted module. */
const SOURCE = "TEXT";
