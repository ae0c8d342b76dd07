import type { PromptParts } from "../runtime/directive.js";
import type { DirectiveData } from "../parse/directive-data.js";

const PERMISSIONS_BLOCK = /(<permissions>[\s\S]*?<\/permissions>)/;

/**
 * The input-independent parts of seed 004's `_build_prompt` (decisions.md #1). The permissions
 * block is fixed here unless the content holds input refs, which could move it at run time.
 */
export function promptParts(data: Pick<DirectiveData, "name" | "description" | "content" | "outputs">, contentIsStatic: boolean): PromptParts {
  const name = data.name ?? "";
  const desc = data.description ?? "";
  const open = name && desc
    ? `<directive name="${name}">\n<description>${desc}</description>`
    : name
      ? `<directive name="${name}">`
      : desc
        ? `<directive>\n<description>${desc}</description>`
        : null;
  const permissions = contentIsStatic ? (data.content ? (PERMISSIONS_BLOCK.exec(data.content)?.[1] ?? null) : null) : undefined;
  return { open, permissions, returns: returnsInstruction(data) };
}

/** The `directive_return` call built from `<outputs>` (labels "desc (type)" plus " [required]"). */
function returnsInstruction(data: Pick<DirectiveData, "outputs"> | { outputs?: Record<string, unknown> }): string | null {
  // A dict in the original: a repeated name keeps its first position and its last label.
  const fields = new Map<string, string>();
  const outputs: unknown = data.outputs;
  if (Array.isArray(outputs)) {
    for (const o of outputs as Partial<NonNullable<DirectiveData["outputs"]>[number]>[]) {
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
