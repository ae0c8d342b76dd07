import type { Span } from "./read-python-metadata.js";
import type { ChainElement, Space } from "./chain-element.js";
import { readToolMetadata, type MetadataProblem } from "./tool-metadata.js";


/** One file found for an item id. */
export interface ResolvedTool {
  path: string;
  space: Space;
  text: string;
  ext: string;
}

/** Looks an item id up, searching the spaces allowed from `fromSpace` (see `searchOrder`). */
export interface ToolFinder {
  resolve(itemId: string, fromSpace: Space): ResolvedTool | undefined;
}

/** A problem with the chain as a whole (`error`) or with reading one element's file. */
export interface ChainIssue {
  code: "tool_not_found" | "executor_not_found" | "chain_too_deep" | "circular_dependency" | "metadata_problem";
  severity: MetadataProblem["severity"];
  message: string;
  itemId: string;
  path?: string;
  span?: Span;
}

/** Maximum number of elements in a chain, as in the original. */
export const MAX_CHAIN_DEPTH = 10;

/** Spaces searched from an element in `fromSpace`: project → user → system, user → user → system, system → system. */
export function searchOrder(fromSpace: Space, systemSpaces: readonly `system:${string}`[]): Space[] {
  if (fromSpace.startsWith("system")) return [...systemSpaces];
  if (fromSpace === "user") return ["user", ...systemSpaces];
  return ["project", "user", ...systemSpaces];
}

/**
 * Follows `executor_id` from a tool to its root primitive (the first element without one), as the
 * original `_build_chain`: each element is looked up from its predecessor's space.
 */
export function buildChain(
  itemId: string,
  finder: ToolFinder,
  options: {
    integrity?: (text: string, ext: string) => string | null;
    /** Reads one file's metadata (default `readToolMetadata`); a build passes a cached one. */
    readMetadata?: typeof readToolMetadata;
  } = {},
): { chain: ChainElement[]; issues: ChainIssue[] } {
  const chain: ChainElement[] = [];
  const issues: ChainIssue[] = [];
  const visited = new Set<string>();
  const fail = (code: ChainIssue["code"], message: string, id: string) => {
    issues.push({ code, severity: "error", message, itemId: id });
    return { chain, issues };
  };
  let currentId = itemId;
  let currentSpace: Space = "project";
  for (;;) {
    if (chain.length >= MAX_CHAIN_DEPTH) {
      return fail(
        "chain_too_deep",
        `Chain too deep (max ${MAX_CHAIN_DEPTH}): ${itemId}. Possible circular dependency or excessive nesting.`,
        currentId,
      );
    }
    if (visited.has(currentId)) return fail("circular_dependency", `Circular dependency detected: ${currentId}`, currentId);
    visited.add(currentId);
    const found = finder.resolve(currentId, currentSpace);
    if (!found) {
      return chain.length > 0
        ? fail("executor_not_found", `Executor not found: ${currentId}`, currentId)
        : fail("tool_not_found", `Tool not found: ${currentId}`, currentId);
    }
    const read = (options.readMetadata ?? readToolMetadata)(found.text, found.ext);
    for (const p of read.problems) {
      issues.push({ code: "metadata_problem", severity: p.severity, message: p.message, itemId: currentId, path: found.path, span: p.span });
    }
    chain.push({
      item_id: currentId,
      path: found.path,
      space: found.space,
      ext: found.ext,
      metadata: read.metadata,
      integrity: options.integrity?.(found.text, found.ext) ?? null,
      spans: read.spans,
    });
    // The original loops `while current_id`, so any falsy id (absent, None, "", False, 0) ends the chain.
    const next = read.metadata.executor_id;
    if (next === undefined || next === null || next === "" || next === false || next === 0) return { chain, issues };
    currentId = String(next);
    currentSpace = found.space;
  }
}

export type { ChainElement, Space } from "./chain-element.js";
export { chainDicts, validateChain, type ChainValidation } from "./validate-chain.js";
export { planChain } from "./plan-chain.js";
