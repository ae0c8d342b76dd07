import * as d from "../../diagnostics/codes.js";
import { upToLastCloser } from "../../runtime/interpolate.js";
import type { CheckContext } from "./context.js";

/** The keys of the hook context the original's runner and harness provide to hooks. */
export const HOOK_NAMESPACES = new Set([
  "directive", "directive_body", "model", "limits", "inputs", "state", "result", "project_path", "depth",
  "parent_thread_id", "previous_thread_id", "spend_limit", "max_turns", "capabilities_summary", "error",
  "classification", "limit_code", "current_value", "pressure_ratio", "event",
]);

const CONTEXT_REF = /\$\{([^}]+)\}/g;
const INPUT_REF = /\{input:[\p{L}\p{N}_]+(?:\?|[:|][^}]*)?\}/gu;

/** `${ns.path}` with an unknown namespace, or `{input:x}` in a directive without inputs, inside `<hooks>` (decisions.md #13). */
export function reportHookTemplates({ data, parsed, bag }: CheckContext): void {
  const hooks = data.hooks ?? [];
  const hasInputs = (data.inputs ?? []).length > 0;
  hooks.forEach((_hook, i) => {
    const loc = parsed.locs.hooks[i];
    if (!loc) return;
    const start = loc.start.offset;
    // Both patterns end in `}`: searching up to the last one keeps each scan linear.
    const text = upToLastCloser(parsed.file.text.slice(start, loc.end.offset));
    const at = (index: number, length: number) => parsed.lines.location(parsed.source, start + index, start + index + length);
    for (const m of text.matchAll(CONTEXT_REF)) {
      const head = m[1]!.trim().split(/[.[|\s]/)[0]!;
      if (!HOOK_NAMESPACES.has(head)) {
        bag.add(d.badHookTemplate(at(m.index, m[0].length), m[0], `'${head}' is not in the hook context; use one of ${[...HOOK_NAMESPACES].slice(0, 6).join(", ")}, …`));
      }
    }
    if (!hasInputs) {
      for (const m of text.matchAll(INPUT_REF)) {
        bag.add(d.badHookTemplate(at(m.index, m[0].length), m[0], "this directive declares no inputs; declare one, or use ${inputs.name} for values passed at run time"));
      }
    }
  });
}
