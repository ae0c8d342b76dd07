// Hook conditions' `op: regex` patterns, checked at build against the rule the runtime matches them
// by (src/runtime/context/linear-regex.ts): a pattern the linear-time matcher cannot run, or that is
// no JavaScript pattern at all (Python's `(?P<n>…)`, `(?i)`, `\Z`), is a located RYE3009 here rather
// than an error on every render.
import * as d from "../diagnostics/codes.js";
import type { Diagnostic, LineIndex } from "../diagnostics/diagnostic.js";
import { regexProblem } from "../runtime/context/linear-regex.js";

/** The refused regex patterns of a condition (`any`/`all`/`not` followed), each with why. */
export function refusedRegexes(condition: unknown): { pattern: string; why: string }[] {
  const out: { pattern: string; why: string }[] = [];
  const visit = (c: unknown): void => {
    if (c === null || typeof c !== "object") return;
    const cond = c as Record<string, unknown>;
    for (const key of ["any", "all"]) if (Array.isArray(cond[key])) (cond[key] as unknown[]).forEach(visit);
    if ("not" in cond) visit(cond.not);
    if (cond.op !== "regex") return;
    const pattern = String(cond.value ?? null);
    const why = regexProblem(pattern);
    if (why !== null) out.push({ pattern, why });
  };
  visit(condition);
  return out;
}

/**
 * RYE3009 for each refused pattern of `condition`, located at the pattern's first mention in
 * `text[start, end)` (where the hook is written), else at `start`.
 */
export function reportRefusedRegexes(condition: unknown, text: string, start: number, end: number, source: string, lines: LineIndex): Diagnostic[] {
  return refusedRegexes(condition).map(({ pattern, why }) => {
    // As written: the pattern itself (YAML), else with XML's escapes (a `<condition value=…>`).
    const region = text.slice(start, end);
    const escaped = pattern.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    const written = region.includes(pattern) ? pattern : escaped;
    const found = region.indexOf(written);
    const at = found === -1 || pattern === "" ? start : start + found;
    return d.unsafeHookRegex(lines.location(source, at, at + (found === -1 ? 1 : Math.max(1, written.length))), pattern, why);
  });
}
