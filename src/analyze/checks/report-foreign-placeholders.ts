import * as d from "../../diagnostics/codes.js";
import { mayContain, scanPlaceholders } from "../../parse/placeholders.js";
import type { CheckContext } from "./context.js";

/**
 * `${VAR}` (System 1) and `${dotted.path}` (System 3) run in tool configs, hooks and graphs, never
 * in a directive body, where they reach the prompt literally (decisions.md #13). Corpus bodies
 * show them in prose on purpose, so this is a warning.
 */
export function reportForeignPlaceholders({ parsed, bag }: CheckContext): void {
  const body = parsed.file.body;
  if (!mayContain(body.text, "ContextRefs")) return;
  const where = { source: parsed.source, lines: parsed.lines, base: body.loc.start.offset };
  for (const node of scanPlaceholders(body.text, "Mixed", where)) {
    if (node.type === "env_var") {
      bag.add(d.foreignPlaceholder(node.loc, node.raw, "an environment variable", "Pass the value as an input: {input:name}."));
    } else if (node.type === "context_ref" && !node.expr.includes("{input:") && !node.expr.startsWith("input:")) {
      bag.add(d.foreignPlaceholder(node.loc, node.raw, "a context path (hooks and graphs)", "Use {input:name} for directive inputs."));
    }
  }
}
