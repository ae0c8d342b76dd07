import type { PromptParts } from "../runtime/directive.js";
import type { DirectiveData } from "../parse/directive-data.js";
import { promptParts as partsOf } from "../runtime/prompt-parts.js";

const PERMISSIONS_BLOCK = /(<permissions>[\s\S]*?<\/permissions>)/;

/**
 * The input-independent parts of seed 004's `_build_prompt` (decisions.md #1). The permissions
 * block is fixed here unless the content holds input refs, which could move it at run time.
 * The rest comes from the metadata, as a compiled module computes it (runtime/prompt-parts.ts).
 */
export function promptParts(data: Pick<DirectiveData, "name" | "description" | "content" | "outputs">, contentIsStatic: boolean): PromptParts {
  return partsOf(data, permissionsBlock(data.content, contentIsStatic));
}

/** The first raw `<permissions>` block of static content (null: none), undefined for content with input refs. */
export function permissionsBlock(content: string | undefined, contentIsStatic: boolean): string | null | undefined {
  return contentIsStatic ? (content ? (PERMISSIONS_BLOCK.exec(content)?.[1] ?? null) : null) : undefined;
}
