import type { ChainDict } from "../runtime/exec/plan.js";
import type { ChainElement } from "./chain-element.js";

/** Outcome of `validateChain`, shaped as the original ChainValidationResult. */
export interface ChainValidation {
  valid: boolean;
  issues: string[];
  warnings: string[];
  validated_pairs: number;
}

// `system:<bundle>` spaces are not keys here and score 0, so the pair rule never fires for a system
// parent; that is the original's behaviour and is kept.
const SPACE_PRECEDENCE: Record<string, number> = { project: 3, user: 2, system: 1 };

/** `_chain_element_to_dict`: item id, space, tool type, executor id and integrity of each element. */
export function chainDicts(chain: readonly ChainElement[]): ChainDict[] {
  return chain.map((e) => ({
    item_id: e.item_id,
    space: e.space,
    tool_type: e.metadata.tool_type ?? null,
    executor_id: e.metadata.executor_id ?? null,
    integrity: e.integrity,
  }));
}

/**
 * The original chain validator's space rules over adjacent (child, parent) pairs. Its I/O and version
 * rules read keys (`inputs`, `outputs`, `child_constraints`) that chain dicts never carry, so they
 * cannot fire and are not reproduced.
 */
export function validateChain(chain: readonly { item_id: string; space: string }[]): ChainValidation {
  const result: ChainValidation = { valid: true, issues: [], warnings: [], validated_pairs: 0 };
  if (chain.length <= 1) return result;
  for (let i = 0; i < chain.length - 1; i++) {
    const child = chain[i]!;
    const parent = chain[i + 1]!;
    if ((SPACE_PRECEDENCE[child.space] ?? 0) < (SPACE_PRECEDENCE[parent.space] ?? 0)) {
      result.issues.push(
        `Tool '${child.item_id}' from ${child.space} space cannot depend on '${parent.item_id}' from ${parent.space} space. ` +
          "Lower precedence spaces cannot depend on higher precedence spaces.",
      );
      result.valid = false;
    }
    result.validated_pairs++;
  }
  for (let i = 0; i < chain.length - 1; i++) {
    const here = chain[i]!;
    const next = chain[i + 1]!;
    if (here.space.startsWith("system") && (next.space === "project" || next.space === "user")) {
      result.issues.push(`Invalid chain: system tool '${here.item_id}' cannot delegate to mutable ${next.space} tool '${next.item_id}'`);
      result.valid = false;
    }
  }
  return result;
}
