import * as d from "../../diagnostics/codes.js";
import { scanPlaceholders } from "../../parse/placeholders.js";
import type { CheckContext } from "./context.js";

/** Placeholders in metadata text (e.g. `<description>`) that the original never interpolates. */
export function reportUninterpolatedPlaceholders({ parsed, bag }: CheckContext): void {
  const { text } = parsed.file;
  for (const field of parsed.locs.uninterpolated) {
    if (!field.text.includes("{input:") && !field.text.includes("${inputs.")) continue;
    // Scan the source slice, not the entity-decoded text, so locations point at what the user wrote.
    const start = field.loc.start.offset;
    const where = { source: parsed.source, lines: parsed.lines, base: start };
    const slice = text.slice(start, field.loc.end.offset);
    for (const system of ["InputRefs", "DollarInputs"] as const) {
      for (const node of scanPlaceholders(slice, system, where)) {
        if (node.type !== "text") bag.add(d.uninterpolatedPlaceholder(node.loc, node.raw, `<${field.field}>`));
      }
    }
  }
}
