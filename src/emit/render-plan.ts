// Plans the body of a compiled `render()`: everything that depends only on the source is decided
// here, so the common call is one concatenation per field. The original runs a second pass
// (`${inputs.x}`) over the whole interpolated text and builds the prompt by strip-and-join; both are
// kept, exactly, for the calls that could need them, decided by a cheap check of the inserted values.
import type { CompiledText } from "../analyze/analysis.js";
import type { TemplateNode } from "../parse/ast.js";
import { buildPrompt, type PromptParts } from "../runtime/directive.js";
import { isPyWhitespace } from "../runtime/pystr.js";
import { access, lit } from "./escape.js";

const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A whole `${inputs.x}` in static text: the second pass can change it whatever the inputs. */
const DOLLAR_MATCH = /\$\{inputs\.[\p{L}\p{N}_]+\}/u;
/** Static text ending in a start of `${inputs.x}` that an inserted value could complete. */
const DOLLAR_PREFIX_AT_END = /\$(?:\{(?:i(?:n(?:p(?:u(?:t(?:s(?:\.[\p{L}\p{N}_]*)?)?)?)?)?)?)?)?$/u;

/** A field split once at build time: static strings with value slots between them (statics.length = slots.length + 1). */
interface Split {
  statics: string[];
  slots: number[];
}

/**
 * Shared by all fields of one render: each distinct (input, fallback) pair is converted to its
 * string once per call (`v0`, `v1`, …).
 */
export class RenderPlan {
  private readonly values: string[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly defaults: Readonly<Record<string, string>>) {}

  /** `const v0 = …;` lines and the `plain` flag: true when no inserted value holds a `$`. */
  prelude(indent: string): string {
    if (this.values.length === 0) return "";
    const decl = this.values.map((v, i) => `${indent}const v${i} = ${v};\n`).join("");
    const check = this.values.map((_, i) => `v${i}.includes("$")`).join(" || ");
    return `${decl}${indent}// A "$" from a value could form \`\${inputs.x}\`: then the original's second pass runs, exactly.\n${indent}const plain = !(${check});\n`;
  }

  private slot(s: Extract<TemplateNode, { type: "input_ref" }>): number {
    const fallback = Object.hasOwn(this.defaults, s.name)
      ? this.defaults[s.name]!
      : s.modifier === null
        ? s.raw
        : s.modifier === "?"
          ? ""
          : s.modifier.slice(1);
    const value = OBJECT_MEMBERS.has(s.name) ? `own(p, ${lit(s.name)})` : access("p", s.name);
    const code = `str(${value}, ${lit(fallback)})`;
    let i = this.index.get(code);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(code);
      this.index.set(code, i);
    }
    return i;
  }

  private split(t: CompiledText): Split {
    const statics = [""];
    const slots: number[] = [];
    for (const s of t.segments!) {
      if (s.type === "input_ref") {
        slots.push(this.slot(s));
        statics.push("");
      } else {
        statics[statics.length - 1] += s.type === "text" ? s.value : s.raw;
      }
    }
    return { statics, slots };
  }

  /**
   * True when no `${inputs.x}` can appear unless a value brings a `$`: the static text holds no
   * whole match, and no static piece before a value ends in a start of one.
   */
  private static safe(sp: Split): boolean {
    return sp.statics.every((s, i) => !DOLLAR_MATCH.test(s) && (i === sp.slots.length || !DOLLAR_PREFIX_AT_END.test(s)));
  }

  private static concat(sp: Split, first = "", last = ""): string {
    const parts: string[] = [];
    sp.statics.forEach((s, i) => {
      const text = (i === 0 ? first : "") + s + (i === sp.statics.length - 1 ? last : "");
      if (text) parts.push(lit(text));
      if (i < sp.slots.length) parts.push(`v${sp.slots[i]}`);
    });
    return parts.length === 0 ? '""' : parts.join(" + ");
  }

  /** A JS expression rendering one field for inputs `p`, following the original's passes. */
  field(t: CompiledText): string {
    if (t.segments === null) return `interpretWithEnv(${lit(t.text)}, p, DEFAULTS, env)`;
    const sp = this.split(t);
    const concat = RenderPlan.concat(sp);
    if (!RenderPlan.safe(sp)) return `dollarPass(${concat}, p, DEFAULTS)`;
    if (sp.slots.length === 0) return concat;
    return `secondPass(plain, ${concat}, p, DEFAULTS)`;
  }

  /**
   * The prompt of seed 004's `_build_prompt` for the body and content rendered by `field`: one
   * concatenation when the permissions block and the body's stripped ends are fixed by the source.
   */
  prompt(parts: PromptParts, body: CompiledText): string {
    const general = "buildPrompt(PROMPT, content, body)";
    if (parts.permissions === undefined || body.segments === null) return general;
    const sp = this.split(body);
    if (!RenderPlan.safe(sp)) return general;
    if (sp.slots.length === 0) return lit(buildPrompt(parts, "", sp.statics[0]!));
    const first = sp.statics[0]!;
    const last = sp.statics.at(-1)!;
    // Where a value could be at either end of the stripped body, only pyStrip at run time knows.
    const solid = (s: string) => [...s].some((c) => !isPyWhitespace(c.charCodeAt(0)));
    if (!solid(first) || !solid(last)) return general;
    const head = [parts.open, parts.permissions].filter((x): x is string => x !== null);
    const tail = [parts.returns, parts.open !== null ? "</directive>" : null].filter((x): x is string => x !== null);
    const before = head.map((h) => `${h}\n`).join("");
    const after = tail.map((t) => `\n${t}`).join("");
    const stripped = { ...sp, statics: sp.statics.map((s, i) => (i === 0 ? lstrip(s) : i === sp.statics.length - 1 ? rstrip(s) : s)) };
    return `plain ? ${RenderPlan.concat(stripped, before, after)} : ${general}`;
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
