// The `yaml` package composes documents recursively (one level of its compose and toJS per level of
// nesting), so a deeply nested flow or block collection overflowed the stack, at a depth that
// depends on the thread. Its CST parser keeps an explicit stack, so the nesting is measured on the
// CST, without recursion, before the document is composed (decisions.md #25).
import { Parser } from "yaml";

/** Deepest nesting of YAML collections read (RYE1009, or RYE4004 in a tool): upstream ryeos bounds its ASTs at 128. */
export const MAX_YAML_DEPTH = 128;

const COLLECTIONS = new Set(["block-map", "block-seq", "flow-collection"]);

/** The offset of the first collection nested deeper than `max` in `text`, or -1. */
export function yamlTooDeepAt(text: string, max = MAX_YAML_DEPTH): number {
  // Nothing can nest deeper than the indicators that open collections: most texts stop here.
  if (!mayNest(text, max)) return -1;
  const stack: [unknown, number][] = [];
  for (const token of new Parser().parse(text)) stack.push([token, 0]);
  let found = -1;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    const type = (node as { type?: unknown }).type;
    const d = typeof type === "string" && COLLECTIONS.has(type) ? depth + 1 : depth;
    if (d > max) {
      const offset = (node as { offset?: unknown }).offset;
      if (typeof offset === "number" && (found === -1 || offset < found)) found = offset;
      continue;
    }
    for (const key in node) {
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) stack.push([child, d]);
    }
  }
  return found;
}

/** False when `text` has at most `max` characters that can open a collection (`[`, `{`, `-`, `?`, `:`). */
function mayNest(text: string, max: number): boolean {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b || c === 0x2d || c === 0x3f || c === 0x3a) {
      if (++n > max) return true;
    }
  }
  return false;
}
