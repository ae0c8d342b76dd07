// Plans the body of a compiled `render()`: everything that depends only on the source is decided
// here, so the common call is one concatenation per field. The original runs a second pass
// (`${inputs.x}`) over the whole interpolated text and builds the prompt by strip-and-join; both are
// kept, exactly, for the calls that could need them, decided by a cheap check of the inserted values.
import type { CompiledText } from "../analyze/analysis.js";
import type { TemplateNode } from "../parse/ast.js";
import { buildPrompt, type PromptParts } from "../runtime/directive.js";
import { isPyWhitespace } from "../runtime/pystr.js";
import { access, concat, lit } from "./escape.js";
import type { TextTable } from "./text-table.js";

const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A whole `${inputs.x}` in static text: the second pass can change it whatever the inputs. */
const DOLLAR_MATCH = /\$\{inputs\.[\p{L}\p{N}_]+\}/u;
/** Static text ending in a start of `${inputs.x}` that an inserted value could complete. */
const DOLLAR_PREFIX_AT_END = /\$(?:\{(?:i(?:n(?:p(?:u(?:t(?:s(?:\.[\p{L}\p{N}_]*)?)?)?)?)?)?)?)?$/u;

/**
 * A field split once at build time: static strings with value slots between them
 * (statics.length = slots.length + 1). `late[i]` marks a slot that stands for a static
 * `${inputs.x}`, filled by the second pass, after which nothing is rescanned.
 */
interface Split {
  statics: string[];
  slots: number[];
  late: boolean[];
}

const DOLLAR_ALL = new RegExp(DOLLAR_MATCH.source, "gu");
/** What every `${inputs.x}` starts with. */
const DOLLAR_OPENING = "${inputs.";

/**
 * Shared by all fields of one render: each distinct (input, fallback) pair is converted to its
 * string once per call (`v0`, `v1`, …).
 */
export class RenderPlan {
  private readonly values_: string[] = [];
  private readonly index = new Map<string, number>();
  /** Values inserted by the `{input:}` pass, which the second pass then scans (the others it inserts itself). */
  private readonly early = new Set<number>();

  /** `table` holds the module's text: every static piece is taken from it, so a text shared by fields is stored once. */
  /**
   * `required`: the inputs render() refuses to go without (required, no default). Their values are
   * always present where they are read, so a fallback for them is never used and not written.
   */
  constructor(
    private readonly defaults: Readonly<Record<string, string>>,
    private readonly table: TextTable,
    private readonly required: ReadonlySet<string> = new Set(),
  ) {}

  /** `const v0 = …;` lines and the `plain` flag: true when no value the second pass scans holds a `$`. */
  prelude(indent: string, explain = true): string {
    const shared = this.shared ? `${indent}const ${this.shared.name} = ${this.shared.code};\n` : "";
    if (this.values_.length === 0) return shared;
    let decl = `${indent}const `;
    for (let i = 0; i < this.values_.length; i++) decl += `${i ? ", " : ""}v${i} = ${this.values_[i]}`;
    decl += ";\n";
    const early = [...this.early].sort((a, b) => a - b);
    if (early.length === 0) return `${decl}${indent}const plain = true;\n${shared}`;
    // Like concat(): a long || chain would be parsed recursively by V8. (Joined first, the values
    // would be copied: a test of each is faster.)
    const check = early.length <= 64 ? early.map((i) => `v${i}.includes("$")`).join(" || ") : `[${early.map((i) => `v${i}`).join(", ")}].some((v) => v.includes("$"))`;
    const why = explain ? `${indent}// A "$" from a value could form \`\${inputs.x}\`: then the original's second pass runs, exactly.\n` : "";
    return `${decl}${why}${indent}const plain = !(${check});\n${shared}`;
  }

  /**
   * The concatenation of one field (the body), declared once in `prelude` as `name`: a field whose
   * pieces enclose the same run (raw) or the prompt starts from it instead of repeating the pieces.
   */
  private shared: { sp: Split; name: string; code: string } | undefined;

  /** Slot index by the ref as written (`{input:x?}`), which decides its name and fallback. */
  private readonly byRaw = new Map<string, number>();

  private slot(s: Extract<TemplateNode, { type: "input_ref" }>): number {
    const seen = this.byRaw.get(s.raw);
    if (seen !== undefined) return seen;
    const i = this.slotOnce(s);
    this.byRaw.set(s.raw, i);
    return i;
  }

  private slotOnce(s: Extract<TemplateNode, { type: "input_ref" }>): number {
    const fallback = Object.hasOwn(this.defaults, s.name)
      ? this.defaults[s.name]!
      : this.required.has(s.name)
        ? ""
        : s.modifier === null
        ? s.raw
        : s.modifier === "?"
          ? ""
          : s.modifier.slice(1);
    const value = OBJECT_MEMBERS.has(s.name) ? `own(p, ${lit(s.name)})` : access("p", s.name);
    const code = fallback === "" ? `str(${value})` : `str(${value},${lit(fallback)})`;
    let i = this.index.get(code);
    if (i === undefined) {
      i = this.values_.length;
      this.values_.push(code);
      this.index.set(code, i);
    }
    return i;
  }

  /** Each field's split, made once (the prompt splits the body again). */
  private readonly splits = new Map<CompiledText, Split>();

  private split(t: CompiledText): Split {
    let sp = this.splits.get(t);
    if (!sp) this.splits.set(t, (sp = this.splitOnce(t)));
    return sp;
  }

  private splitOnce(t: CompiledText): Split {
    const statics = [""];
    const slots: number[] = [];
    for (const s of t.segments!) {
      if (s.type === "input_ref") {
        const i = this.slot(s);
        this.early.add(i);
        slots.push(i);
        statics.push("");
      } else {
        statics[statics.length - 1] += s.type === "text" ? s.value : s.raw;
      }
    }
    return { statics, slots, late: slots.map(() => false) };
  }

  /**
   * The split with each static `${inputs.x}` as a slot of its own: a present input (or its
   * default) replaces it, else it stays as written. Exact only when `safe` (then the second pass
   * can match nothing else).
   */
  private expand(sp: Split): Split {
    const out: Split = { statics: [""], slots: [], late: [] };
    sp.statics.forEach((text, i) => {
      let at = 0;
      if (text.includes(DOLLAR_OPENING)) for (const m of text.matchAll(DOLLAR_ALL)) {
        out.statics[out.statics.length - 1] += text.slice(at, m.index);
        const name = m[0].slice("${inputs.".length, -1);
        out.slots.push(this.slot({ type: "input_ref", name, modifier: null, raw: m[0] } as Extract<TemplateNode, { type: "input_ref" }>));
        out.late.push(true);
        out.statics.push("");
        at = m.index + m[0].length;
      }
      out.statics[out.statics.length - 1] += text.slice(at);
      if (i < sp.slots.length) {
        out.slots.push(sp.slots[i]!);
        out.late.push(false);
        out.statics.push("");
      }
    });
    return out;
  }

  /**
   * True when no `${inputs.x}` can appear unless a value brings a `$`: the static text holds no
   * whole match (outside late slots), and no static piece before an input value ends in a start
   * of one (a late slot's value is inserted by the last pass, so nothing can complete across it).
   */
  private static safe(sp: Split): boolean {
    return sp.statics.every((s, i) => !s.includes("$") || (!DOLLAR_MATCH.test(s) && (i === sp.slots.length || sp.late[i] || !DOLLAR_PREFIX_AT_END.test(s))));
  }

  private concat(sp: Split, first: readonly string[] = [], last: readonly string[] = []): string {
    const around = this.around(sp);
    if (around) return concat([this.table.join([...first, around[0]]), this.shared!.name, this.table.join([around[1], ...last])].filter((x) => x !== '""'));
    const parts: string[] = [];
    const n = sp.statics.length;
    for (let i = 0; i < n; i++) {
      const s = sp.statics[i]!;
      if (i === 0 && first.length > 0) parts.push(this.table.join(n === 1 ? [...first, s, ...last] : [...first, s]));
      else if (i === n - 1 && last.length > 0) parts.push(this.table.join([s, ...last]));
      else if (s !== "") parts.push(this.table.join([s]));
      if (i < sp.slots.length) parts.push(`v${sp.slots[i]}`);
    }
    return concat(parts.filter((x) => x !== '""'));
  }

  /** When `sp` is the shared field's pieces with text before and after: that text. */
  private around(sp: Split): [string, string] | undefined {
    const shared = this.shared?.sp;
    return shared && sp !== shared ? enclosing(sp, shared) : undefined;
  }

  /**
   * The run-time condition under which the concatenation `sp` is what the second pass leaves
   * (`ex` is `sp` expanded), or null when the pass must always run. Besides `plain`: where a static
   * piece ends in a start of `${inputs.x}` that its value could continue (`Cost: $` + `{input:a}`),
   * a match needs the value to start with the rest of `${inputs.`, or to be a start of that rest
   * itself (then later parts decide, and the pass runs).
   */
  private static fastWhen(sp: Split, ex: Split): string | null {
    if (RenderPlan.safe(ex)) return "plain";
    // Static `${inputs.x}` and open ends together: left to the pass.
    if (ex.slots.length !== sp.slots.length) return null;
    const checks = ["plain"];
    for (let i = 0; i < sp.slots.length; i++) {
      const open = sp.statics[i]!.includes("$") ? DOLLAR_PREFIX_AT_END.exec(sp.statics[i]!)?.[0] : undefined;
      if (open === undefined) continue;
      const rest = DOLLAR_OPENING.slice(open.length);
      if (open.length >= DOLLAR_OPENING.length) return null;
      const v = `v${sp.slots[i]}`;
      checks.push(`!(${v}.startsWith(${lit(rest)}) || ${lit(rest)}.startsWith(${v}))`);
    }
    return checks.join(" && ");
  }

  /**
   * The pieces of a usual render (runtime/define-directive.ts, `Finish`), or undefined when this
   * one is not: `b` the body's concatenation, `values` the inserted values as arguments (what the
   * `$` check reads), the raw text's fixed head and tail around the body, and the fixed content. Usual:
   * no env refs and no actions (the caller checks those), a body with values whose shortcut needs
   * only the `$` check, a raw text that is the body with fixed text around it, a content without
   * values, and a body whose ends the prompt's strip would leave as they are.
   */
  usual(body: CompiledText, raw: CompiledText, content: CompiledText, parts: PromptParts): { b: string; values: string; rawHead: string; rawTail: string; content: string } | undefined {
    if (parts.permissions === undefined || body.segments === null || raw.segments === null || content.segments === null) return undefined;
    const sp = this.split(body);
    if (sp.slots.length === 0 || !RenderPlan.plainOnly(sp, this.expand(sp))) return undefined;
    const [first, last] = [sp.statics[0]!, sp.statics.at(-1)!];
    if (!first || !last || lstrip(first) !== first || rstrip(last) !== last) return undefined;
    const rs = this.split(raw);
    const around = enclosing(rs, sp);
    if (!around || !RenderPlan.plainOnly(rs, this.expand(rs))) return undefined;
    const cs = this.split(content);
    if (cs.slots.length > 0 || this.expand(cs).slots.length > 0) return undefined;
    const early = [...this.early].sort((x, y) => x - y).map((i) => `v${i}`);
    // Passed as arguments, one each: a few dozen at most (a longer list keeps the general code).
    if (early.length > 64) return undefined;
    return { b: this.concat(sp), values: early.join(","), rawHead: this.table.join([around[0]]), rawTail: this.table.join([around[1]]), content: this.table.join([cs.statics[0]!]) };
  }

  /** True when the second pass can change `sp` (`ex` expanded) only if an inserted value holds a `$`. */
  private static plainOnly(sp: Split, ex: Split): boolean {
    return ex.slots.length === sp.slots.length && RenderPlan.safe(ex);
  }

  /** `const v0=…,v1=…;`: each inserted value converted once, for a usual render (no `plain` flag, no shared field). */
  values(indent: string): string {
    return this.values_.length === 0 ? "" : `${indent}const ${this.values_.map((v, i) => `v${i}=${v}`).join(",")};\n`;
  }

  /** What `render` calls the rendered content: `content`, or the expression itself when it is a constant. */
  contentRef = "content";

  /** The prompt as the original builds it, for calls the shortcut does not cover. */
  general(): string {
    return `buildPrompt(PROMPT, ${this.contentRef}, body)`;
  }

  /** A JS expression rendering one field for inputs `p`, following the original's passes. */
  field(t: CompiledText, share?: string): string {
    if (t.segments === null) return `interpretWithEnv(${this.table.text(t.text)}, p, DEFAULTS, env)`;
    const sp = this.split(t);
    let concat = this.concat(sp);
    if (share !== undefined && sp.slots.length > 0 && this.shared === undefined) {
      this.shared = { sp, name: share, code: concat };
      concat = share;
    }
    const ex = this.expand(sp);
    const when = RenderPlan.fastWhen(sp, ex);
    if (when === null) return `dollarPass(${concat}, p, DEFAULTS)`;
    if (ex.slots.length === 0) return concat;
    if (ex.slots.length === sp.slots.length) return `secondPass(${when}, ${concat}, p, DEFAULTS)`;
    // Static `${inputs.x}` already filled in the shortcut; the general path starts from the text as written.
    return `plain ? ${this.concat(ex)} : dollarPass(${concat}, p, DEFAULTS)`;
  }

  /**
   * The prompt of seed 004's `_build_prompt` for the body and content rendered by `field`: one
   * concatenation when the permissions block and the body's stripped ends are fixed by the source.
   */
  prompt(parts: PromptParts, body: CompiledText): string {
    const general = this.general();
    if (parts.permissions === undefined || body.segments === null) return general;
    const unexpanded = this.split(body);
    const sp = this.expand(unexpanded);
    const fast = RenderPlan.fastWhen(unexpanded, sp);
    if (fast === null) return general;
    if (sp.slots.length === 0) return this.staticPrompt(parts, sp.statics[0]!);
    const first = sp.statics[0]!;
    const last = sp.statics.at(-1)!;
    // Where only whitespace lies between a value and an end of the body, the value decides where
    // the strip stops: the shortcut holds when that value starts (ends) with a non-space.
    const solid = (s: string) => {
      for (let i = 0; i < s.length; i++) if (!isPyWhitespace(s.charCodeAt(i))) return true;
      return false;
    };
    const checks = [fast];
    if (!solid(first)) checks.push(`solidStart(v${sp.slots[0]})`);
    if (!solid(last)) checks.push(`solidEnd(v${sp.slots.at(-1)})`);
    const head = [parts.open, parts.permissions].filter((x): x is string => x !== null);
    const tail = [parts.returns, parts.open !== null ? "</directive>" : null].filter((x): x is string => x !== null);
    const before = head.flatMap((h) => [h, "\n"]);
    const after = tail.flatMap((t) => ["\n", t]);
    const when = checks.join(" && ");
    // Nothing to strip at either end: the prompt holds `body` itself, so the module does not repeat its text.
    if (lstrip(first) === first && rstrip(last) === last) return `${when} ? ${[this.table.join(before), "body", this.table.join(after)].filter((x) => x !== '""').join("+")} : ${general}`;
    const stripped = { ...sp, statics: sp.statics.map((s, i) => (i === 0 ? lstrip(s) : i === sp.statics.length - 1 ? rstrip(s) : s)) };
    return `${when} ? ${this.concat(stripped, before, after)} : ${general}`;
  }

  /** `buildPrompt(parts, "", body)` for a body without values, as pieces of the module's text. */
  private staticPrompt(parts: PromptParts, body: string): string {
    const pieces = [parts.open, parts.permissions ?? null, lstrip(rstrip(body)) || null, parts.returns, parts.open !== null ? "</directive>" : null].filter((x): x is string => x !== null);
    const joined = pieces.flatMap((x, i) => (i === 0 ? [x] : ["\n", x]));
    if (joined.join("") !== buildPrompt(parts, "", body)) return lit(buildPrompt(parts, "", body));
    return this.table.join(joined);
  }
}

function lstrip(s: string): string {
  let i = 0;
  while (i < s.length && isPyWhitespace(s.charCodeAt(i))) i++;
  return s.slice(i);
}

function rstrip(s: string): string {
  let end = s.length;
  while (end > 0 && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return s.slice(0, end);
}

/** When `sp` is `inner`'s pieces (same values, same text between them) with text before and after: that text. */
function enclosing(sp: Split, inner: Split): [string, string] | undefined {
  if (sp.slots.length !== inner.slots.length) return undefined;
  const n = sp.slots.length;
  for (let i = 0; i < n; i++) if (sp.slots[i] !== inner.slots[i] || sp.late[i] !== inner.late[i]) return undefined;
  for (let i = 1; i < n; i++) if (sp.statics[i] !== inner.statics[i]) return undefined;
  const [head, tail, sHead, sTail] = [sp.statics[0]!, sp.statics[n]!, inner.statics[0]!, inner.statics[n]!];
  if (!head.endsWith(sHead) || !tail.startsWith(sTail)) return undefined;
  return [head.slice(0, head.length - sHead.length), tail.slice(sTail.length)];
}
