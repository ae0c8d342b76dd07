import * as d from "../../diagnostics/codes.js";
import type { CheckContext } from "./context.js";

// Near-misses of `\{input:(\w+)(\?|[:|][^}]*)?\}` that users write expecting a substitution.
const LOOSE = /\{input:[^}\n]{0,80}\}?/gu;

/** `{input: name}`, `{input:my-name}`, `{input:x?y}` and the like: they stay literal forever. */
export function reportUnmatchablePlaceholders({ parsed, refs, bag }: CheckContext): void {
  const { text } = parsed.file;
  const matched = new Set(refs.filter((r) => r.type === "input_ref").map((r) => r.loc.start.offset));
  // Every near-miss starts with `{input:`: when each one there starts a real ref, there is none.
  if (!unmatchedStart(text, matched)) return;
  for (const m of text.matchAll(LOOSE)) {
    if (matched.has(m.index)) continue;
    // A real ref that starts inside a near-miss (`{input:{input:x}`) is not a near-miss itself.
    if (m[0].lastIndexOf("{input:") > 0) continue;
    const loc = parsed.lines.location(parsed.source, m.index, m.index + m[0].length);
    bag.add(d.unmatchablePlaceholder(loc, m[0], hint(m[0])));
  }
}

/** Inputs named by near misses (`{input: text}`): reported by RYE2011 alone, so not also as unused. */
export function unmatchableNames(text: string, refs: CheckContext["refs"]): string[] {
  const matched = new Set(refs.filter((r) => r.type === "input_ref").map((r) => r.loc.start.offset));
  if (!unmatchedStart(text, matched)) return [];
  const names: string[] = [];
  for (const m of text.matchAll(LOOSE)) {
    const name = matched.has(m.index) ? undefined : /^\{input:\s*([\p{L}\p{N}_]+)/u.exec(m[0])?.[1];
    if (name) names.push(name);
  }
  return names;
}

/** Whether some `{input:` in `text` starts at none of the offsets in `matched`. */
function unmatchedStart(text: string, matched: ReadonlySet<number>): boolean {
  for (let at = text.indexOf("{input:"); at !== -1; at = text.indexOf("{input:", at + 1)) if (!matched.has(at)) return true;
  return false;
}

function hint(raw: string): string {
  if (!raw.endsWith("}")) return "it has no closing '}'";
  const inner = raw.slice(7, -1);
  if (inner === "") return "the input name is empty";
  if (/^\s|\s$/.test(inner)) return "remove the spaces inside the braces";
  if (/^[\p{L}\p{N}_]+\?./u.test(inner)) return "'?' must come right before '}', and cannot be combined with a default";
  return "input names are letters, digits and '_' only";
}
