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
  private sourceUsed = false;

  /** `source` is the item's text: every piece found in it becomes a slice of it. */
  constructor(private readonly source: string) {}

  /** A JS expression whose value is `s`: a literal for short text, else a shared module constant. */
  text(s: string): string {
    if (s.length < MIN_SHARED) return lit(s);
    const known = this.names.get(s);
    if (known) return known;
    const at = this.source.indexOf(s);
    if (at === -1) return this.declare(s, lit(s));
    this.sourceUsed = true;
    return this.declare(s, `${SOURCE}.slice(${at}, ${at + s.length})`);
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
    return source + this.decls.join("");
  }

  private declare(s: string, code: string): string {
    const name = `T${this.names.size}`;
    this.names.set(s, name);
    this.decls.push(`const ${name} = ${code};\n`);
    return name;
  }
}

/** The item's source text in an emitted module. */
const SOURCE = "TEXT";
