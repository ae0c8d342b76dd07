// Splits a POSIX-family shell script into words and operators, with rye's placeholders as opaque
// atoms, recording each placeholder's quoting. `$(…)` and backquotes are read recursively with the
// same grammar (the caller classifies each nested list). Constructs whose reading differs between
// shells or that this reader does not follow (arithmetic, `${…}` with operators, `$'…'`, here-
// documents, `case`) either refuse the placeholders inside them or stop the whole script (Poison).
// A `[` right after a parameter expansion (zsh's `$a[i]`, `$#a[i]`, `$+a[i]`) and bash's `$[…]` are
// arithmetic in some shell of the family, so every placeholder inside is refused; after an unbraced
// `$a:` (zsh modifiers) the rest of the word is refused; a `(` glued to a word or a redirection
// (function definition, array, glob qualifier, extglob, `<(…)`, `=(…)`) and `${ …; }` / `${|…}`
// command substitutions stop the script. What the reader does not positively know is not data.

/** How sure rye is about a placeholder: any value, inert values only, or refused. */
export type Role = "full" | "inert" | "refuse";
export type Quote = "none" | "dq" | "sq" | "comment";

/** One placeholder occurrence as the reader found it. */
export interface Rec {
  index: number;
  quote: Quote;
  role?: Role;
  reason?: string;
  /** The placeholder starts its word, so a value's leading `-` could make an option. */
  atWordStart: boolean;
  /** A value starting with `-` is refused here. */
  noDash?: boolean;
  /** A redirection's file name: a value there must name a file (redirect-target.ts). */
  target?: boolean;
  /** Refused because the script runs program text the build did not see (unseen-programs.ts). */
  unseen?: boolean;
  /** Refused because the command holding it writes into a file (a value never reaches a file). */
  file?: boolean;
  /** Some command substitution holding it follows other text of its word (its output cannot start that word). */
  afterText?: boolean;
  /** Some command substitution holding it stands outside double quotes: the shell splits its output into words. */
  split?: boolean;
  /** A value starting with `-` is harmless here (echo reads only -n, -e and -E, none of them code or a file). */
  dashData?: boolean;
  /** Not a placeholder: an expansion of a variable that carries a caller's value (carried-values.ts). */
  use?: { name: string; text: string };
  depth: number;
}

export interface WordTok {
  kind: "word";
  start: number;
  /** The index after the word's last character. */
  end: number;
  /** The word without its quotes when it is all literal text; null when it holds an expansion. */
  text: string | null;
  /** The unquoted literal text the word begins with (for `NAME=` and reserved words). */
  prefix: string;
  quoted: boolean;
  /** The word holds a parameter expansion or command substitution (placeholders aside). */
  expands: boolean;
  depth: number;
  recs: Rec[];
}
export type Token = WordTok | { kind: "op"; op: string; start: number };

/** The script cannot be read with confidence: every placeholder of it is refused. */
export class Poison extends Error {}

const OPERATORS = ["<<<", "<<-", "&>>", ";;&", "&&", "||", ";;", ";&", "|&", "<<", ">>", "<>", "<&", ">&", ">|", "&>", ";", "&", "|", "(", ")", "<", ">"];
const META = /[ \t\n;&|()<>]/;
const RESERVED = new Set(["if", "then", "elif", "else", "fi", "while", "until", "do", "done", "!", "{", "}", "for", "in"]);
// A variable named anywhere in raw text: `$v`, `${v…`, `${#v}`, `${!v}`, zsh's `$~v`, `${(e)v}`.
export const MENTION = /\$\{?(?:\([^)]*\))?[#!~=^+]*([A-Za-z_][A-Za-z0-9_]*|\d|[@*])/g;
const UNQUOTED = "outside double quotes, where the shell splits it into words and expands them as file patterns";
const FORM = "in an expansion form other than \"$name\" or \"${name}\" (operators, lengths, flags and zsh's $~, $=, $^ transform or re-read the value)";

/**
 * How deep a script's brackets may nest (upstream ryeos caps its AST depth at 128). The reader
 * recurses into `$(…)`; past this depth it would exhaust the stack, so it refuses the script first.
 */
export const MAX_SCRIPT_NESTING = 128;

export class ShellLexer {
  i = 0;
  readonly recs: Rec[] = [];
  private depth = 0;
  private end: number;
  /** Nothing of the current word so far but empty quotes: a value here starts the word. */
  private empty = false;
  /**
   * An unquoted `{` came earlier in the current word. Brace expansion (`{,}{x}`, `{a,}{x}`) can drop
   * every character before the value, so only text free of it holds a value off the word's start.
   */
  private brace = false;
  /** Why every further placeholder of the current word is refused (a zsh modifier read before it). */
  private taint: string | null = null;
  private readonly at = new Map<number, { index: number; end: number }>();
  /** How many `$…` and backquote expansions have been read so far. */
  private expansions = 0;

  constructor(
    private readonly src: string,
    placeholders: readonly { start: number; end: number }[],
    private readonly classify: (tokens: Token[]) => void,
    /** Whether a variable (`1`, `@`, `line`) carries a caller's value: its expansions are recorded as uses. */
    private readonly carried: (name: string) => boolean = () => false,
  ) {
    placeholders.forEach((p, index) => this.at.set(p.start, { index, end: p.end }));
    this.end = src.length;
    if (this.nesting() > MAX_SCRIPT_NESTING) throw new Poison(`brackets nested deeper than ${MAX_SCRIPT_NESTING} levels`);
  }

  /**
   * The deepest nesting of `(`, `{` and `[` over the raw text, quotes included, placeholders skipped:
   * one linear pass that bounds every recursion of the reader (it counts more than the shell does,
   * never less).
   */
  private nesting(): number {
    let depth = 0;
    let max = 0;
    for (let j = 0; j < this.end; j++) {
      const p = this.at.get(j);
      if (p) j = p.end - 1;
      else if ("({[".includes(this.src[j]!)) max = Math.max(max, ++depth);
      else if (")}]".includes(this.src[j]!)) depth = Math.max(0, depth - 1);
    }
    return max;
  }

  /** Tokens up to the end, an unmatched `)` (`paren`), or the closing backquote (`backtick`). */
  list(mode: "top" | "paren" | "backtick"): Token[] {
    const tokens: Token[] = [];
    let parens = 0;
    while (this.i < this.end) {
      const c = this.src[this.i]!;
      if (c === " " || c === "\t") this.i++;
      else if (c === "\\" && this.src[this.i + 1] === "\n") this.i += 2;
      else if (c === "#" && !this.at.has(this.i)) this.comment();
      else if (c === "(" && this.src[this.i + 1] === "(" && commandStart(tokens)) tokens.push(this.arithCommand());
      else if (c === "\n") tokens.push({ kind: "op", op: "\n", start: this.i++ });
      else if (META.test(c) && !this.at.has(this.i)) {
        const op = OPERATORS.find((o) => this.src.startsWith(o, this.i))!;
        if (op === "<<" || op === "<<-") throw new Poison("a here-document");
        if (op === ";;" || op === ";&" || op === ";;&") throw new Poison("a case statement");
        if (op === "(" && this.i > 0 && !/[ \t\n;&|()`]/.test(this.src[this.i - 1]!)) {
          throw new Poison("a ( right after a word or redirection (a function definition, array, glob qualifier, extglob or process substitution)");
        }
        if (op === "(") parens++;
        if (op === ")" && parens-- === 0) {
          if (mode !== "paren") throw new Poison("an unbalanced )");
          this.i++;
          return tokens;
        }
        tokens.push({ kind: "op", op, start: this.i });
        this.i += op.length;
      } else tokens.push(this.word());
    }
    if (mode === "paren") throw new Poison("an unclosed $(");
    return tokens;
  }

  private rec(index: number, quote: Quote, atWordStart: boolean, refuse?: string): Rec {
    const r: Rec = { index, quote, atWordStart, depth: this.depth };
    if (refuse) Object.assign(r, { role: "refuse", reason: refuse });
    this.recs.push(r);
    return r;
  }

  /** An expansion of a carrying variable over `[start, end)`, refused with `refuse` when given. */
  private use(name: string, start: number, end: number, inDouble: boolean, refuse?: string): Rec {
    const r = this.rec(-1, inDouble ? "dq" : "none", this.empty || this.brace, refuse ?? this.taint ?? (inDouble ? undefined : UNQUOTED));
    r.use = { name, text: this.src.slice(start, end) };
    return r;
  }

  /** Records every carrying variable named in raw text the reader skips, refused for `why`. */
  private mentions(from: number, to: number, why: string): void {
    for (const m of this.src.slice(from, to).matchAll(MENTION)) {
      if (this.carried(m[1]!)) this.use(m[1]!, from + m.index, from + m.index + m[0].length, true, why);
    }
  }

  /** Skips a placeholder at `i` if one starts there, recording it; true when one did. */
  private placeholder(quote: Quote, inWord: boolean, refuse?: string): boolean {
    const p = this.at.get(this.i);
    if (!p) return false;
    // A value may be empty, so what follows it may still start the word: `empty` is kept.
    this.rec(p.index, quote, inWord && (this.empty || this.brace), refuse ?? this.taint ?? undefined);
    this.i = p.end;
    return true;
  }

  private comment(): void {
    while (this.i < this.end && this.src[this.i] !== "\n") if (!this.placeholder("comment", false)) this.i++;
  }

  /** Skips raw text to `stop` (exclusive), refusing every placeholder inside it. */
  private refuseSpan(stop: number, why: string): void {
    this.mentions(this.i, stop, why);
    while (this.i < stop) if (!this.placeholder("none", false, why)) this.i++;
  }

  private arithCommand(): Token {
    const start = this.i;
    this.refuseSpan(this.matchParens(this.i + 2), "inside (( )) arithmetic");
    return { kind: "op", op: "((", start };
  }

  /** The index after the `))` closing an arithmetic expression whose text starts at `from`. */
  private matchParens(from: number): number {
    let depth = 0;
    for (let j = from; j < this.end; j++) {
      const c = this.src[j];
      if (c === "(") depth++;
      else if (c === ")" && depth > 0) depth--;
      else if (c === ")" && this.src[j + 1] === ")") return j + 2;
      else if (c === ")") throw new Poison("an unbalanced arithmetic expression");
    }
    throw new Poison("an unclosed arithmetic expression");
  }

  private word(): WordTok {
    const w: WordTok = { kind: "word", start: this.i, end: this.i, text: "", prefix: "", quoted: false, expands: false, depth: this.depth, recs: [] };
    const expansions = this.expansions;
    const first = this.recs.length;
    // A word inside a command substitution inherits the refusal of the word holding it.
    const outerTaint = this.taint;
    const outerBrace = this.brace;
    this.empty = true;
    let literal = "";
    let unquoted = true;
    const lose = () => {
      w.text = null;
      unquoted = false;
    };
    while (this.i < this.end) {
      const c = this.src[this.i]!;
      if (this.placeholder("none", true)) lose();
      else if (META.test(c)) break;
      else if (c === "\\") {
        this.i++;
        if (this.placeholder("none", false, "right after a backslash")) lose();
        else if (this.src[this.i] === "\n") this.i++;
        else {
          literal += this.src[this.i++] ?? "";
          w.quoted = true;
          unquoted = false;
          this.empty = false;
        }
      } else if (c === "'") {
        w.quoted = true;
        unquoted = false;
        literal += this.single();
      } else if (c === '"') {
        w.quoted = true;
        unquoted = false;
        const text = this.double();
        if (text === null) w.text = null;
        else literal += text;
      } else if (c === "$" || c === "`") {
        // An expansion may be empty: what follows it may still start the word.
        this.expansion(false);
        lose();
      } else {
        literal += c;
        this.i++;
        this.empty = false;
        if (c === "{") this.brace = true;
        if (unquoted) w.prefix += c;
      }
    }
    if (w.text !== null) w.text = literal;
    w.end = this.i;
    w.expands = this.expansions > expansions;
    this.taint = outerTaint;
    this.brace = outerBrace;
    w.recs = this.recs.slice(first);
    // `2>file`: a word of digits right before a redirection is the file descriptor, not a word.
    if (w.text !== null && !w.quoted && /^\d+$/.test(w.text) && /[<>]/.test(this.src[this.i] ?? "")) w.text = "";
    return w;
  }

  /** `'…'`; returns its text. */
  private single(): string {
    const close = this.src.indexOf("'", this.i + 1);
    if (close < 0 || close >= this.end) throw new Poison("an unterminated single quote");
    let text = "";
    this.i++;
    while (this.i < close) {
      const before = this.i;
      if (this.placeholder("sq", true)) text += this.src.slice(before, this.i);
      else {
        text += this.src[this.i++];
        this.empty = false;
      }
    }
    this.i = close + 1;
    return text;
  }

  /** `"…"`; returns its literal text, or null when it holds an expansion or placeholder. */
  private double(): string | null {
    let text: string | null = "";
    this.i++;
    while (this.i < this.end && this.src[this.i] !== '"') {
      const c = this.src[this.i]!;
      if (this.placeholder("dq", true)) text = null;
      else if (c === "\\") {
        this.i++;
        if (this.placeholder("dq", false, "right after a backslash")) text = null;
        else {
          const n = this.src[this.i++] ?? "";
          if (text !== null) text += '$`"\\\n'.includes(n) ? (n === "\n" ? "" : n) : `\\${n}`;
          if (n !== "\n") this.empty = false;
        }
      } else if (c === "$" || c === "`") {
        this.expansion(true);
        text = null;
      } else {
        if (text !== null) text += c;
        this.i++;
        this.empty = false;
      }
    }
    if (this.i >= this.end) throw new Poison("an unterminated double quote");
    this.i++;
    return text;
  }

  /** `$…` or a backquote at `i`; nested command lists are classified by the caller's callback. */
  private expansion(inDouble: boolean): void {
    this.expansions++;
    const s = this.src;
    if (s[this.i] === "`") return this.backquote(inDouble);
    const start = this.i;
    this.i++;
    if (this.placeholder(inDouble ? "dq" : "none", false, "right after '$'")) return;
    if (s.startsWith("((", this.i)) return this.refuseSpan(this.matchParens(this.i + 2), "inside $(( )) arithmetic");
    if (s[this.i] === "[") return this.refuseSpan(this.matchBracket(this.i), "inside bash's $[ ] arithmetic");
    if (s[this.i] === "(") {
      this.i++;
      return this.nested("paren", inDouble);
    }
    if (s[this.i] === "{") return this.braced(start, inDouble);
    if (s[this.i] === "'" && !inDouble) return this.refuseSpan(this.ansiEnd(), "inside a $'…' string");
    if (s[this.i] === '"' && !inDouble) {
      const first = this.recs.length;
      this.double();
      for (const r of this.recs.slice(first)) Object.assign(r, { role: "refuse", reason: 'inside a $"…" string' });
      return;
    }
    // zsh reads `$#a`, `$+a`, `$^a`, `$=a` and `$~a` as one expansion (bash as `$#` or `$` and text).
    const name = /^([#+^=~]*)([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(s.slice(this.i, this.i + 256));
    if (!name) return;
    this.i += name[0].length;
    const use = this.carried(name[2]!) ? this.use(name[2]!, start, this.i, inDouble, name[1] ? FORM : undefined) : null;
    this.usedAs(use);
  }

  /** What follows an expansion: a subscript or zsh's `:` modifiers make a use of it refused. */
  private usedAs(use: Rec | null): void {
    const s = this.src;
    if (use !== null && (s[this.i] === "[" || s[this.i] === ":")) Object.assign(use, { role: "refuse", reason: FORM });
    this.subscripts();
    if (s[this.i] === ":") this.taint = "after an unbraced $name followed by ':', which zsh reads as modifiers";
  }

  /** `${…}`: a plain name is followed; operators refuse what is inside; command forms stop the script. */
  private braced(start: number, inDouble: boolean): void {
    const s = this.src;
    if (/^\{[\s|]/.test(s.slice(this.i, this.i + 2))) throw new Poison("a ${ …; } command substitution");
    const simple = /^\{(#?)([A-Za-z_][A-Za-z0-9_]*|\d+|[@*#?$!-])\}/.exec(s.slice(this.i, this.i + 260));
    if (simple) {
      this.i += simple[0].length;
      const use = this.carried(simple[2]!) ? this.use(simple[2]!, start, this.i, inDouble, simple[1] ? FORM : undefined) : null;
      return this.usedAs(use);
    }
    const end = this.matchBrace();
    this.mentions(start, end, FORM);
    // Quotes and nested commands inside `${…}` are read differently by each shell: not followed.
    if (/['"`\\]|\$\(/.test(s.slice(this.i, end))) throw new Poison("quotes or a command inside ${…}");
    this.refuseSpan(end, "inside a ${…} expansion with operators");
    this.subscripts();
  }

  /** `[…]` right after a parameter expansion: a subscript (arithmetic) in zsh; every placeholder is refused. */
  private subscripts(): void {
    while (this.src[this.i] === "[") this.refuseSpan(this.matchBracket(this.i), "inside a [ ] subscript after a parameter, which zsh evaluates as arithmetic");
  }

  /** The index after the `]` matching the `[` at `from`. */
  private matchBracket(from: number): number {
    let depth = 0;
    for (let j = from; j < this.end; j++) {
      const c = this.src[j]!;
      if (c === "[") depth++;
      else if (c === "]" && --depth === 0) return j + 1;
      else if ("'\"`\\\n".includes(c)) throw new Poison("quotes inside a [ ] subscript or $[ ] arithmetic");
    }
    throw new Poison("an unclosed [ ] subscript or $[ ] arithmetic");
  }

  private matchBrace(): number {
    let depth = 0;
    for (let j = this.i; j < this.end; j++) {
      if (this.src[j] === "\\") j++;
      else if (this.src[j] === "{") depth++;
      else if (this.src[j] === "}" && --depth === 0) return j + 1;
    }
    throw new Poison("an unclosed ${");
  }

  private ansiEnd(): number {
    for (let j = this.i + 1; j < this.end; j++) {
      if (this.src[j] === "\\") j++;
      else if (this.src[j] === "'") return j + 1;
    }
    throw new Poison("an unterminated $'");
  }

  private backquote(inDouble: boolean): void {
    let close = -1;
    for (let j = this.i + 1; j < this.end; j++) {
      if (this.src[j] === "\\") j++;
      else if (this.src[j] === "`") {
        close = j;
        break;
      }
    }
    if (close < 0) throw new Poison("an unclosed backquote");
    // Inside backquotes a backslash is removed before the text is read again: not followed here.
    if (this.src.slice(this.i + 1, close).includes("\\")) {
      this.i++;
      this.refuseSpan(close, "inside a backquoted command that uses backslashes");
      this.i = close + 1;
      return;
    }
    const outer = this.end;
    this.end = close;
    this.i++;
    this.nested("backtick", inDouble);
    this.end = outer;
    this.i = close + 1;
  }

  private nested(mode: "paren" | "backtick", inDouble: boolean): void {
    const first = this.recs.length;
    const empty = this.empty;
    const brace = this.brace;
    this.depth++;
    const tokens = this.list(mode);
    this.classify(tokens);
    this.depth--;
    this.empty = empty;
    this.brace = brace;
    for (const r of this.recs.slice(first)) {
      if (!empty && !brace) r.afterText = true;
      if (!inDouble) r.split = true;
    }
  }
}

/** Whether the next token stands where a command starts. */
function commandStart(tokens: readonly Token[]): boolean {
  const last = tokens[tokens.length - 1];
  if (!last) return true;
  if (last.kind === "op") return !/[<>]/.test(last.op);
  return last.text !== null && !last.quoted && RESERVED.has(last.text);
}
