// What a case can check of each kind of item.
import type { ItemKind } from "../model/source.js";

/** The fields an expectation may name, per kind (a dotted path reaches into an object field). */
export const FIELDS: Record<ItemKind, readonly string[]> = {
  // render(): prompt, body, content, raw, actions; renderThread(): system, user (the first user
  // message), context (the knowledge ids the thread places); the module's calls and metadata.
  directive: ["prompt", "body", "content", "raw", "actions", "system", "user", "context", "calls", "metadata"],
  knowledge: ["content", "metadata"],
  // The build-time chain plan, its element ids, the dry run's response, and with --run the result.
  tool: ["plan", "chain", "dry_run", "result", "metadata"],
};

/** Fields whose value is an object or list, so a dotted path may reach into them. */
export const OBJECT_FIELDS = new Set(["actions", "calls", "metadata", "plan", "dry_run", "result", "context", "chain"]);

/** Fields that need the thread rendered. */
export const THREAD_FIELDS = new Set(["system", "user", "context"]);

/** The keys a case may have. */
export const CASE_KEYS = ["name", "inputs", "model", "limit_overrides", "env", "expect", "refuses", "skip", "only"] as const;

/** The keys of `refuses:`. */
export const REFUSAL_KEYS = ["missing", "type", "unknown", "error", "payload"] as const;
