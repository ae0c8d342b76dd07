import type { LineIndex } from "../diagnostics/diagnostic.js";
import { parse as parsePlaceholders } from "./generated/placeholders.js";
import type { TemplateNode } from "./ast.js";

/** Which templating pass to scan for (grammar/placeholders.peggy start rules). */
export type PlaceholderSystem = "InputRefs" | "DollarInputs" | "EnvRefs" | "EnvVars" | "ContextRefs" | "Params" | "Mixed";

type RawNode = { type: string; start: number; end: number; [k: string]: unknown };

/**
 * Splits `text` into text and placeholder nodes exactly as the given pass would match them.
 * `base` is the offset of `text` in the file, so locations point into the `.md`.
 */
export function scanPlaceholders(
  text: string,
  system: PlaceholderSystem,
  where: { source: string; lines: LineIndex; base: number },
): TemplateNode[] {
  const raw = parsePlaceholders(text, { startRule: system }) as RawNode[];
  return raw.map(({ start, end, ...rest }) => ({
    ...rest,
    loc: where.lines.location(where.source, where.base + start, where.base + end),
  })) as TemplateNode[];
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
