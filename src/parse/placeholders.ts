import type { LineIndex } from "../diagnostics/diagnostic.js";
import type { TemplateNode } from "./ast.js";

/** Which templating pass to scan for (the start rules of grammar/placeholders.peggy). */
export type PlaceholderSystem = "InputRefs" | "DollarInputs" | "EnvRefs" | "EnvVars" | "ContextRefs" | "Params" | "Mixed";

// grammar/placeholders.peggy is the specification; these regexes are its rules transcribed, because a
// Peggy scan tests prose one character at a time and placeholder scanning dominated analysis. Each
// rule is a sequence of possessive pieces whose backtracking can never change a match, so the regex
// finds exactly what the rule finds; test/parse/placeholders.test.ts checks that against the grammar.
const WORD = String.raw`[\p{L}\p{N}_]+`;
const RULES = {
  input_ref: String.raw`\{input:(${WORD})(\?|[:|][^}]*)?\}`,
  env_ref: String.raw`\{env:(${WORD})(?::([^}]*))?\}`,
  dollar_input: String.raw`\$\{inputs\.(${WORD})\}`,
  env_var: String.raw`\$\{([A-Z_][A-Z0-9_]*)(?::-([^}]*))?\}`,
  context_ref: String.raw`\$\{([^}]+)\}`,
  param: String.raw`\{([^}]+)\}`,
};
type Kind = keyof typeof RULES;

/** Each pass's alternatives, in the grammar's order of preference. */
const PASSES: Record<PlaceholderSystem, Kind[]> = {
  InputRefs: ["input_ref"],
  DollarInputs: ["dollar_input"],
  EnvRefs: ["env_ref"],
  EnvVars: ["env_var"],
  ContextRefs: ["context_ref"],
  Params: ["param"],
  Mixed: ["input_ref", "env_ref", "dollar_input", "env_var", "context_ref", "param"],
};

const groupCount = (rule: string) => new RegExp(`${rule}|`, "u").exec("")!.length - 1;

/** One global regex per pass: its alternatives in order, each wrapped in a group marking which one matched. */
const PATTERNS = Object.fromEntries(
  Object.entries(PASSES).map(([system, kinds]) => [system, new RegExp(kinds.map((k) => `(${RULES[k]})`).join("|"), "gu")]),
) as Record<PlaceholderSystem, RegExp>;

/** Index of each alternative's wrapping group in the match array; its own captures follow it. */
const WRAPPERS = Object.fromEntries(
  Object.entries(PASSES).map(([system, kinds]) => {
    let next = 1;
    return [system, kinds.map((k) => ((next += 1 + groupCount(RULES[k])), next - 1 - groupCount(RULES[k])))];
  }),
) as Record<PlaceholderSystem, number[]>;

/**
 * Splits `text` into text and placeholder nodes exactly as the given pass would match them: left
 * to right, never overlapping, a failed match at one position retried at the next (as re.sub does).
 * `base` is the offset of `text` in the file, so locations point into the `.md`.
 */
export function scanPlaceholders(
  text: string,
  system: PlaceholderSystem,
  where: { source: string; lines: LineIndex; base: number },
): TemplateNode[] {
  const out: TemplateNode[] = [];
  const loc = (start: number, end: number) => where.lines.location(where.source, where.base + start, where.base + end);
  const kinds = PASSES[system];
  const wrappers = WRAPPERS[system];
  const pattern = PATTERNS[system];
  pattern.lastIndex = 0;
  // Every rule ends with "}", and a `[^}]*` that finds none runs to the end of the text, from each
  // opener in turn: a text of many unclosed openers took time quadratic in its length. No match can
  // lie past the last "}", so only the text up to it is searched; there, each such run ends at a
  // "}" that completes its match, and the matches are the same.
  const scanned = text.slice(0, text.lastIndexOf("}") + 1);
  let from = 0;
  for (let m = pattern.exec(scanned); m !== null; m = pattern.exec(scanned)) {
    const start = m.index;
    const end = start + m[0].length;
    if (start > from) out.push({ type: "text", value: text.slice(from, start), loc: loc(from, start) });
    let i = 0;
    while (m[wrappers[i]!] === undefined) i++;
    const c = wrappers[i]! + 1;
    const raw = m[0];
    switch (kinds[i]!) {
      case "input_ref":
        out.push({ type: "input_ref", name: m[c]!, modifier: m[c + 1] ?? null, raw, loc: loc(start, end) });
        break;
      case "env_ref":
        out.push({ type: "env_ref", name: m[c]!, fallback: m[c + 1] ?? null, raw, loc: loc(start, end) });
        break;
      case "dollar_input":
        out.push({ type: "dollar_input", name: m[c]!, raw, loc: loc(start, end) });
        break;
      case "env_var":
        out.push({ type: "env_var", name: m[c]!, fallback: m[c + 1] ?? null, raw, loc: loc(start, end) });
        break;
      case "context_ref":
        out.push({ type: "context_ref", expr: m[c]!, raw, loc: loc(start, end) });
        break;
      case "param":
        out.push({ type: "param", name: m[c]!, raw, loc: loc(start, end) });
        break;
    }
    from = end;
  }
  if (from < text.length) out.push({ type: "text", value: text.slice(from), loc: loc(from, text.length) });
  return out;
}

/**
 * What `scanPlaceholders` returns for `text.slice(start, end)` (at `where.base + start`), taken from
 * `nodes`, the scan of all of `text` by the same pass: its placeholders that lie inside, and its text
 * cut to the ends. The passes match left to right without looking behind or past a match, so that is
 * the same, unless a placeholder of the whole crosses an end: then null, and the slice is scanned.
 */
export function placeholdersWithin(nodes: readonly TemplateNode[], text: string, start: number, end: number, where: { source: string; lines: LineIndex; base: number }): TemplateNode[] | null {
  const out: TemplateNode[] = [];
  for (const node of nodes) {
    const from = node.loc.start.offset - where.base;
    const to = node.loc.end.offset - where.base;
    if (to <= start || from >= end) {
      if (from >= end) break;
      continue;
    }
    if (node.type !== "text") {
      if (from < start || to > end) return null;
      out.push(node);
      continue;
    }
    const a = Math.max(from, start);
    const b = Math.min(to, end);
    if (a === b) continue;
    out.push(a === from && b === to ? node : { type: "text", value: text.slice(a, b), loc: where.lines.location(where.source, where.base + a, where.base + b) });
  }
  return out;
}

/** Fast check used before scanning: most strings hold no placeholder of the pass at all. */
export function mayContain(text: string, system: PlaceholderSystem): boolean {
  switch (system) {
    case "InputRefs":
      return text.includes("{input:");
    case "DollarInputs":
      return text.includes("${inputs.");
    case "EnvRefs":
      return text.includes("{env:");
    case "EnvVars":
    case "ContextRefs":
      return text.includes("${");
    default:
      return text.includes("{");
  }
}
