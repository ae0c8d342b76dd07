// The knowledge a directive's thread receives, embedded in its module so that compiled modules never
// read `.md` files at run time.
import type { DirectiveAnalysis } from "../analyze/analysis.js";
import type { KnowledgeItem } from "../model/items.js";
import type { KnowledgeBlock, ThreadPlan } from "../runtime/thread.js";

function block(id: string, knowledge: (id: string) => KnowledgeItem | null): KnowledgeBlock | null {
  const k = knowledge(id);
  return k ? [id, typeof k.data.name === "string" ? k.data.name : "", k.data.body] : null;
}

/** The ids of the knowledge items a thread plan holds, once each. */
export function threadKnowledge(plan: ThreadPlan): string[] {
  const blocks = [...plan.system, ...plan.before, ...plan.after, ...plan.hooks.flatMap((h) => h.actions.map((a) => a.block))];
  return [...new Set(blocks.flatMap((b) => (b ? [b[0]] : [])))];
}

/** A context plan with each knowledge id replaced by the item's block (ids that resolve to nothing are left out). */
export function threadPlan(plan: NonNullable<DirectiveAnalysis["context"]>, knowledge: (id: string) => KnowledgeItem | null): ThreadPlan {
  const blocks = (ids: string[]) => ids.map((id) => block(id, knowledge)).filter((b): b is KnowledgeBlock => b !== null);
  return {
    system: blocks(plan.system),
    before: blocks(plan.before),
    after: blocks(plan.after),
    hooks: plan.hooks.map((h) => ({
      id: h.id,
      event: h.event,
      position: h.position,
      wrap: h.wrap,
      condition: h.condition,
      actions: h.actions.map((a) => ({
        item_id: a.item_id ?? "",
        item_type: a.item_type ?? "",
        block: a.item_type === "knowledge" && a.item_id ? block(a.item_id, knowledge) : null,
      })),
    })),
  };
}
