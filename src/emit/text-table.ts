// The text of an emitted module, stored once. An item's raw text, content, body, prompt and
// metadata are mostly the same characters: the module holds the item's source text as one
// literal, and every longer piece of text is a constant derived from it when the module loads
// (a slice, or a few pieces joined), so a render concatenates the same pieces it did before.
import { lit } from "./escape.js";

/** Shorter texts are written in place: a slice would cost about as many bytes as it saves. */
const MIN_SHARED = 24;

export class TextTable {
  private readonly names = new Map<string, string>();
  private readonly decls: string[] = [];
  /** Name, start and end of every slice of the source, declared together ahead of the other constants. */
  private readonly cuts: [string, number, number][] = [];
  private sourceUsed = false;

  /**
   * `source` is the item's text: every piece found in it becomes a slice of it. `compact`: the
   * slices are cut by one runtime call (`slices`) instead of a declaration each; a TypeScript
   * source keeps one typed declaration each.
   */
  constructor(
    private readonly source: string,
    private readonly compact = false,
  ) {}

  /** A JS expression whose value is `s`: a literal for short text, else a shared module constant. */
  text(s: string): string {
    if (s.length < MIN_SHARED) return lit(s);
    const known = this.names.get(s);
    if (known) return known;
    const at = this.source.indexOf(s);
    if (at === -1) return this.declare(s, lit(s));
    this.sourceUsed = true;
    if (!this.compact) return this.declare(s, `${SOURCE}.slice(${at}, ${at + s.length})`);
    const name = this.name(s);
    this.cuts.push([name, at, at + s.length]);
    return name;
  }

  /** A JS expression whose value is `parts` joined: one module constant when the result is long, built from shared pieces. */
  join(parts: readonly string[]): string {
    const s = parts.join("");
    if (s.length < MIN_SHARED) return lit(s);
    const known = this.names.get(s);
    if (known) return known;
    const pieces = parts.filter((x) => x !== "").map((x) => this.text(x));
    return pieces.length === 1 ? pieces[0]! : this.declare(s, pieces.join(" + "));
  }

  /** The module-level declarations of every constant handed out, in dependency order. */
  declarations(): string {
    const source = this.sourceUsed ? `const ${SOURCE} = ${lit(this.source)};\n` : "";
    const cuts = this.cuts.length === 0 ? "" : `const [${this.cuts.map((c) => c[0]).join(", ")}] = slices(${SOURCE}, [${this.cuts.map((c) => `${c[1]},${c[2]}`).join(",")}]);\n`;
    return source + cuts + this.decls.join("");
  }

  /** True when `declarations()` calls the runtime's `slices`, which the module must then import. */
  usesSlices(): boolean {
    return this.cuts.length > 0;
  }

  private name(s: string): string {
    const name = `T${this.names.size}`;
    this.names.set(s, name);
    return name;
  }

  private declare(s: string, code: string): string {
    const name = this.name(s);
    this.decls.push(`const ${name} = ${code};\n`);
    return name;
  }
}

/** The item's source text in an emitted module. */
const SOURCE = "TEXT";
