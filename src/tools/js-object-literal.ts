import { PyFloat } from "../runtime/pystr.js";

/** Why an object literal could not be read as data; `offset` points into the whole file. */
export class JsLiteralProblem extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };
const IDENT_RE = /[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*/uy;
const NUMBER_RE = /[-+]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*)?\.?[0-9][0-9_]*(?:[eE][-+]?[0-9_]+)?\.?|Infinity|NaN)/y;

/**
 * Reads a JavaScript object literal that holds only data (JSON5-like: unquoted or quoted keys, single or
 * double quotes, template strings without `${}`, comments, trailing commas, hex, `Infinity`/`NaN`).
 * Numbers written with a fraction or exponent become `PyFloat`, as Python's `json.loads` makes floats.
 * Returns the value and the offset just past the closing brace.
 */
export function parseJsObjectLiteral(src: string, start: number): { value: Record<string, unknown>; end: number } {
  const p = new JsLiteralParser(src, start);
  const value = p.value() as Record<string, unknown>;
  return { value, end: p.pos };
}

/** Deeper data is refused (tool metadata nests a handful of levels). */
const MAX_NESTING = 200;

class JsLiteralParser {
  private depth = 0;

  constructor(
    private readonly src: string,
    public pos: number,
  ) {}

  private fail(message: string): never {
    throw new JsLiteralProblem(message, this.pos);
  }

  private skip(): void {
    for (;;) {
      const rest = /\s*/y;
      rest.lastIndex = this.pos;
      rest.exec(this.src);
      this.pos = rest.lastIndex;
      if (this.src.startsWith("//", this.pos)) {
        const nl = this.src.indexOf("\n", this.pos);
        this.pos = nl < 0 ? this.src.length : nl;
      } else if (this.src.startsWith("/*", this.pos)) {
        const close = this.src.indexOf("*/", this.pos + 2);
        if (close < 0) this.fail("unterminated comment");
        this.pos = close + 2;
      } else return;
    }
  }

  private peek(): string {
    this.skip();
    return this.src[this.pos] ?? "";
  }

  value(): unknown {
    const ch = this.peek();
    if (ch === "{" || ch === "[") {
      // A hostile file nested thousands deep would overflow the stack: refused, located, well before.
      if (++this.depth > MAX_NESTING) this.fail(`nested more than ${MAX_NESTING} levels deep`);
      const value = ch === "{" ? this.object() : this.array();
      this.depth--;
      return value;
    }
    if (ch === '"' || ch === "'" || ch === "`") return this.string();
    const word = this.identifier();
    if (word !== undefined) {
      if (word === "true" || word === "false") return word === "true";
      if (word === "null") return null;
      if (word === "Infinity" || word === "NaN") return new PyFloat(word === "NaN" ? NaN : Infinity);
      this.pos -= word.length;
      this.fail(`\`${word}\` is code, not data`);
    }
    return this.number();
  }

  private identifier(): string | undefined {
    IDENT_RE.lastIndex = this.pos;
    const m = IDENT_RE.exec(this.src);
    if (m) this.pos += m[0].length;
    return m?.[0];
  }

  private object(): Record<string, unknown> {
    this.pos++;
    const out: Record<string, unknown> = {};
    while (this.peek() !== "}") {
      if (this.src.startsWith("...", this.pos)) this.fail("spread is code, not data");
      const ch = this.peek();
      const key = ch === '"' || ch === "'" ? this.string() : (this.identifier() ?? (/[0-9]/.test(ch) ? String(this.number()) : this.fail("expected a property name")));
      if (this.peek() !== ":") this.fail(`property \`${key}\` has no \`: value\``);
      this.pos++;
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      if (this.peek() !== ",") break;
      this.pos++;
    }
    if (this.peek() !== "}") this.fail("expected `,` or `}`");
    this.pos++;
    return out;
  }

  private array(): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    while (this.peek() !== "]") {
      if (this.peek() === ",") this.fail("array holes are not data");
      if (this.src.startsWith("...", this.pos)) this.fail("spread is code, not data");
      out.push(this.value());
      if (this.peek() !== ",") break;
      this.pos++;
    }
    if (this.peek() !== "]") this.fail("expected `,` or `]`");
    this.pos++;
    return out;
  }

  private string(): string {
    const quote = this.src[this.pos]!;
    let out = "";
    for (let i = this.pos + 1; i < this.src.length; i++) {
      const ch = this.src[i]!;
      if (ch === quote) {
        this.pos = i + 1;
        return out;
      }
      if (quote === "`" && ch === "$" && this.src[i + 1] === "{") {
        this.pos = i;
        this.fail("a template literal with `${}` is code, not data");
      }
      if (ch === "\n" && quote !== "`") break;
      if (ch !== "\\") {
        out += ch;
        continue;
      }
      const next = this.src[++i] ?? "";
      if (next === "\n") continue;
      if (next === "\r") {
        if (this.src[i + 1] === "\n") i++;
        continue;
      }
      if (next === "x" || next === "u") {
        const braced = next === "u" && this.src[i + 1] === "{";
        const hex = braced ? /^\{([0-9a-fA-F]+)\}/.exec(this.src.slice(i + 1)) : new RegExp(`^[0-9a-fA-F]{${next === "x" ? 2 : 4}}`).exec(this.src.slice(i + 1));
        if (!hex) this.fail(`invalid \\${next} escape`);
        out += String.fromCodePoint(parseInt(hex[1] ?? hex[0], 16));
        i += hex[0].length;
        continue;
      }
      out += ESCAPES[next] ?? next;
    }
    this.fail("unterminated string");
  }

  private number(): number | PyFloat {
    NUMBER_RE.lastIndex = this.pos;
    const m = NUMBER_RE.exec(this.src);
    if (!m || m[0] === "" || /^[-+]?$/.test(m[0])) this.fail("expected a value");
    this.pos += m[0].length;
    const text = m[0].replace(/_/g, "");
    const sign = text.startsWith("-") ? -1 : 1;
    const body = text.replace(/^[-+]/, "");
    const magnitude = Number(body);
    if (/^(?:Infinity|NaN)$/.test(body) || (!/^0[xob]/i.test(body) && /[.eE]/.test(body))) return new PyFloat(sign * magnitude);
    // `0 - n` rather than `-n`: an integer has no negative zero.
    return sign < 0 ? 0 - magnitude : magnitude;
  }
}
