
// The `yaml` package is most of what reading a project's YAML costs: a real project's few dozen YAML
// tools and knowledge items take it ~100 ms, nearly all before V8 has optimised any of it. These files
// are written in a small block style, which this reader takes in one pass. Anything outside that style
// (anchors, aliases, tags, merge keys, multi-line flow collections, folded or multi-line scalars, tabs,
// several documents, any error) makes it give up, and the caller reads the text with the `yaml` package
// as before. On every text it accepts it gives exactly what that full reading gives, with the caller's
// scalar rules (PyYAML's for tools, the yaml package's YAML 1.1 schema for knowledge): differential
// tests over the corpus and over random edits hold it to that.

/** How the reading being matched resolves scalars and builds mappings. */
export interface YamlScalars {
  /** A plain scalar's value, or undefined to give up on the text. */
  plain(text: string): unknown;
  /** Adds a pair to a mapping; false gives up on the text (a duplicate key, say). */
  set(map: Record<string, unknown>, key: unknown, value: unknown): boolean;
  /** The value of the whole document. */
  document(value: unknown): unknown;
}

interface Line {
  indent: number;
  /** The line without its indentation. */
  text: string;
}

const GIVE_UP = Symbol("outside the block style");
const INDICATOR = new Set([..."-?:,[]{}#&*!|>'\"%@`"]);
const ESCAPES: Record<string, string> = { "\\": "\\", '"': '"', "/": "/", n: "\n", t: "\t", r: "\r", "0": "\0", " ": " " };
// Control characters, tabs, carriage returns, a byte-order mark and the line breaks YAML 1.1 adds.
// eslint-disable-next-line no-control-regex
const UNTAKEN = /[\x00-\x09\x0b-\x1f\x7f-\x9f\ufeff\u2028\u2029]|^(?:---|\.\.\.|%)/m;

/** Where a key of the document's top mapping is: its offset in the text and its length. */
export type KeyAt = (key: unknown, offset: number, length: number) => void;

/**
 * The document's value for a text in the block style, or `undefined` when the text is outside it.
 * `keyAt` hears of each key of a top-level block mapping, in order, as the pairs are added.
 */
export function readBlockYaml(source: string, scalars: YamlScalars, keyAt?: KeyAt): unknown {
  if (UNTAKEN.test(source)) return undefined;
  try {
    return new BlockReader(source, new Scalars(scalars), keyAt).document();
  } catch (e) {
    // Nesting deep enough to overflow the stack: the yaml package reports it as a located error.
    if (e === GIVE_UP || e instanceof RangeError) return undefined;
    throw e;
  }
}

function giveUp(): never {
  throw GIVE_UP;
}

/** The caller's rules, giving up where they decline. */
class Scalars {
  constructor(private readonly rules: YamlScalars) {}
  plain(text: string): unknown {
    const value = this.rules.plain(text);
    return value === undefined ? giveUp() : value;
  }
  set(map: Record<string, unknown>, key: unknown, value: unknown): void {
    if (!this.rules.set(map, key, value)) giveUp();
  }
  document(value: unknown): unknown {
    return this.rules.document(value);
  }
}

class BlockReader {
  private readonly raw: string[];
  private readonly lines: Line[];
  private at = 0;
  /** The indentation of the document's top collection: a mapping there reports its keys. */
  private rootIndent = -1;
  private starts: number[] | undefined;

  constructor(
    private readonly source: string,
    private readonly scalars: Scalars,
    private readonly keyAt?: KeyAt,
  ) {
    this.raw = source.split("\n");
    this.lines = this.raw.map((r) => {
      const text = r.trimStart();
      return { indent: r.length - text.length, text };
    });
  }

  document(): unknown {
    this.skip();
    if (this.at >= this.lines.length) giveUp();
    this.rootIndent = this.lines[this.at]!.indent;
    const root = this.node(-1);
    this.skip();
    if (this.at < this.lines.length) giveUp();
    return this.scalars.document(root);
  }

  /** The offset in the text where line `n` (0-based) starts. */
  private offsetOf(n: number): number {
    if (!this.starts) {
      this.starts = [0];
      for (const line of this.raw) this.starts.push(this.starts.at(-1)! + line.length + 1);
    }
    return this.starts[n]!;
  }

  /** Moves past blank and comment-only lines. */
  private skip(): void {
    const lines = this.lines;
    while (this.at < lines.length && (lines[this.at]!.text === "" || lines[this.at]!.text[0] === "#")) this.at++;
  }

  /** The collection that starts at the current line, indented deeper than `parent`. */
  private node(parent: number): unknown {
    const line = this.lines[this.at]!;
    if (line.indent <= parent) giveUp();
    if (isItem(line.text)) return this.sequence(line.indent);
    if (splitKey(line.text)) return this.mapping(line.indent);
    return giveUp();
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skip();
      const line = this.lines[this.at];
      if (!line || line.indent < indent) return out;
      const entry = line.indent === indent ? splitKey(line.text) : undefined;
      if (!entry) return giveUp();
      this.at++;
      const key = this.scalars.plain(entry.key);
      if (indent === this.rootIndent && this.keyAt) this.keyAt(key, this.offsetOf(this.at - 1) + indent, entry.key.length);
      this.scalars.set(out, key, this.value(entry.rest, indent, true));
    }
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skip();
      const line = this.lines[this.at];
      if (!line || line.indent < indent) return out;
      if (line.indent > indent) giveUp();
      // A mapping's value may be a sequence at the mapping's own indentation: its end is the mapping's next key.
      if (!isItem(line.text)) return out;
      const after = line.text.slice(1);
      const content = after.trimStart();
      if (content !== "" && content[0] !== "#" && (isItem(content) || splitKey(content))) {
        // `- key: value` and `- - item`: the rest of the line opens a collection at its own column.
        this.lines[this.at] = { indent: indent + 1 + after.length - content.length, text: content };
        out.push(this.node(indent));
      } else {
        this.at++;
        out.push(this.value(after, indent, false));
      }
    }
  }

  /** The value after `key:` or `-`: `rest` is the rest of that line, `owner` the indentation of the key or dash. */
  private value(rest: string, owner: number, inMapping: boolean): unknown {
    const v = rest.trimStart();
    if (v !== "" && v.length === rest.length) giveUp();
    if (v === "" || v[0] === "#") {
      this.skip();
      const next = this.lines[this.at];
      if (next && next.indent > owner) return this.node(owner);
      if (next && inMapping && next.indent === owner && isItem(next.text)) return this.sequence(owner);
      return null;
    }
    if (v[0] === "|") return this.literal(v, owner);
    let value: unknown;
    let after: string;
    if (v[0] === '"') [value, after] = doubleQuoted(v);
    else if (v[0] === "'") [value, after] = singleQuoted(v);
    else if (v[0] === "[" || v[0] === "{") [value, after] = flowCollection(v, this.scalars);
    else [value, after] = [this.scalars.plain(plain(v)), ""];
    if (!/^(?:[ ]+(?:#.*)?)?$/.test(after)) giveUp();
    // A deeper line after a one-line value is a multi-line scalar or an error: the full reader decides.
    this.skip();
    if ((this.lines[this.at]?.indent ?? -1) > owner) giveUp();
    return value;
  }

  /** A literal block scalar (`|` or `|-`) whose lines follow. */
  private literal(header: string, owner: number): string {
    const strip = /^\|-(?:[ ]+#.*)?[ ]*$/.test(header);
    if (!strip && !/^\|(?:[ ]+#.*)?[ ]*$/.test(header)) giveUp();
    const first = this.at;
    let end = first;
    while (end < this.lines.length && this.lines[end]!.text === "") end++;
    const blockIndent = this.lines[end]?.indent ?? 0;
    const kept: string[] = [];
    if (end < this.lines.length && blockIndent > owner) {
      for (end = first; end < this.lines.length; end++) {
        const line = this.lines[end]!;
        // Whitespace lines longer than the indentation are text in YAML; rare enough to leave to the full reader.
        if (line.text === "") {
          if (this.raw[end]!.length > blockIndent) giveUp();
          kept.push("");
        } else if (line.indent < blockIndent) break;
        else kept.push(this.raw[end]!.slice(blockIndent));
      }
    } else {
      for (const line of this.lines.slice(first, end)) if (line.indent > owner) giveUp();
    }
    if (end === this.lines.length && !this.source.endsWith("\n")) giveUp();
    this.at = end;
    while (kept.length > 0 && kept.at(-1) === "") kept.pop();
    if (kept.length === 0) return "";
    return kept.join("\n") + (strip ? "" : "\n");
  }
}

function isItem(text: string): boolean {
  return text === "-" || text.startsWith("- ");
}

/** `key: rest` with a plain key, or undefined. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  if (INDICATOR.has(text[0]!)) return undefined;
  let colon = text.indexOf(":");
  while (colon >= 0 && colon + 1 < text.length && text[colon + 1] !== " ") colon = text.indexOf(":", colon + 1);
  if (colon < 0) return undefined;
  const key = text.slice(0, colon).trimEnd();
  // Longer implicit keys are an error in YAML; `<<` is a merge key.
  if (key.length > 1000 || key.includes(" #") || key === "<<") return giveUp();
  return { key, rest: text.slice(colon + 1) };
}

/** A one-line plain scalar in block context, without its comment. */
function plain(v: string): string {
  if (INDICATOR.has(v[0]!) && !("-?:".includes(v[0]!) && v.length > 1 && v[1] !== " ")) giveUp();
  const comment = v.indexOf(" #");
  const text = (comment < 0 ? v : v.slice(0, comment)).trimEnd();
  if (text.includes(": ") || text.endsWith(":")) giveUp();
  return text;
}

function doubleQuoted(v: string, from = 0): [string, string, number] {
  let out = "";
  for (let j = from + 1; j < v.length; j++) {
    const c = v[j]!;
    if (c === '"') return [out, v.slice(j + 1), j + 1];
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = v[++j];
    const hex = e === "u" ? 4 : e === "x" ? 2 : 0;
    if (hex > 0) {
      const digits = v.slice(j + 1, j + 1 + hex);
      if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) giveUp();
      out += String.fromCodePoint(parseInt(digits, 16));
      j += hex;
    } else if (e !== undefined && e in ESCAPES) out += ESCAPES[e];
    else giveUp();
  }
  return giveUp();
}

function singleQuoted(v: string, from = 0): [string, string, number] {
  let out = "";
  for (let j = from + 1; j < v.length; j++) {
    if (v[j] !== "'") out += v[j];
    else if (v[j + 1] === "'") (out += "'"), j++;
    else return [out, v.slice(j + 1), j + 1];
  }
  return giveUp();
}

const FLOW_PLAIN = /^(?:[^\s?:,[\]{}#&*!|>'"%@`-]|[-?][^\s,[\]{}#:])[^,[\]{}#:]*/;

/** A one-line flow sequence or mapping, such as `["-c", x]` or `{type: string, enum: [a, b]}`. */
function flowCollection(v: string, scalars: Scalars): [unknown, string] {
  const [value, end] = new FlowReader(v, scalars).collection();
  return [value, v.slice(end)];
}

class FlowReader {
  private j = 0;
  constructor(
    private readonly v: string,
    private readonly scalars: Scalars,
  ) {}

  /** The collection opening at the current position; answers it and the position after it. */
  collection(): [unknown, number] {
    const v = this.v;
    const mapping = v[this.j] === "{";
    const close = mapping ? "}" : "]";
    const out: unknown = mapping ? {} : [];
    this.j++;
    this.spaces();
    if (v[this.j] === close) return [out, ++this.j];
    for (;;) {
      this.spaces();
      if (mapping) {
        // A plain `<<` is a merge key.
        if (/^<<[ ]*:/.test(v.slice(this.j))) giveUp();
        const key = this.scalar();
        if (v[this.j] !== ":" || v[this.j + 1] !== " ") giveUp();
        this.j += 2;
        this.spaces();
        this.scalars.set(out as Record<string, unknown>, key, this.node());
      } else (out as unknown[]).push(this.node());
      this.spaces();
      if (v[this.j] === close) return [out, ++this.j];
      if (v[this.j] !== ",") giveUp();
      this.j++;
      this.spaces();
      if (v[this.j] === close) giveUp();
    }
  }

  private node(): unknown {
    const c = this.v[this.j];
    if (c !== "[" && c !== "{") return this.scalar();
    const [value, end] = this.collection();
    this.j = end;
    return value;
  }

  private scalar(): unknown {
    const v = this.v;
    if (v[this.j] === '"' || v[this.j] === "'") {
      const [text, , next] = v[this.j] === '"' ? doubleQuoted(v, this.j) : singleQuoted(v, this.j);
      this.j = next;
      return text;
    }
    const match = FLOW_PLAIN.exec(v.slice(this.j));
    if (!match) giveUp();
    this.j += match[0].length;
    return this.scalars.plain(match[0].trimEnd());
  }

  private spaces(): void {
    while (this.v[this.j] === " ") this.j++;
  }
}
