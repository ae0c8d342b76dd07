// The input-independent parts of seed 004's `_build_prompt`, from a directive's metadata. The
// compiler plans `render()` with them, and a compiled module computes the same parts when it loads
// instead of storing their text a second time (the description and output labels are in the metadata).
import type { PromptParts } from "./directive.js";

interface PromptSource {
  name?: string;
  description?: string;
  outputs?: unknown;
}

/**
 * `permissions`: the first raw `<permissions>…</permissions>` block of the content (null when there
 * is none), or undefined when it must be found in the interpolated content at run time.
 */
export function promptParts(data: PromptSource, permissions: string | null | undefined): PromptParts {
  const name = data.name ?? "";
  const desc = data.description ?? "";
  const open = name && desc
    ? `<directive name="${name}">\n<description>${desc}</description>`
    : name
      ? `<directive name="${name}">`
      : desc
        ? `<directive>\n<description>${desc}</description>`
        : null;
  return { open, permissions, returns: returnsInstruction(data.outputs) };
}

interface OutputLike {
  name?: string;
  type?: string;
  required?: boolean;
  description?: string;
}

/** The `directive_return` call built from `<outputs>` (labels "desc (type)" plus " [required]"). */
function returnsInstruction(outputs: unknown): string | null {
  // A dict in the original: a repeated name keeps its first position and its last label.
  const fields = new Map<string, string>();
  if (Array.isArray(outputs)) {
    for (const o of outputs as OutputLike[]) {
      if (!o.name) continue;
      const type = o.type ?? "string";
      let label = o.description ? `${o.description} (${type})` : type;
      if (o.required) label += " [required]";
      fields.set(o.name, label);
    }
  } else if (outputs && typeof outputs === "object") {
    for (const [k, v] of Object.entries(outputs)) fields.set(k, typeof v === "string" ? v : v == null ? "" : String(v));
  }
  if (fields.size === 0) return null;
  const params = [...fields].map(([k, v]) => `"${k}": "<${v || k}>"`).join(", ");
  return (
    "When you have completed all steps, return structured results:\n" +
    `\`rye_execute(item_type="tool", item_id="rye/agent/threads/directive_return", parameters={${params}})\``
  );
}
