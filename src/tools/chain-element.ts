// The element type shared by chain building, planning and validation (kept apart so those files do
// not import each other in a circle).
import type { Span } from "./read-python-metadata.js";
import type { ToolMetadata } from "./tool-metadata.js";

/** Where an item lives: the project, the user space, or a named system bundle. */
export type Space = "project" | "user" | `system:${string}`;

/** One element of an executor chain: the file and its normalised metadata. */
export interface ChainElement {
  item_id: string;
  path: string;
  space: Space;
  ext: string;
  metadata: ToolMetadata;
  /** Content hash used as the element's integrity, when an `integrity` function was given. */
  integrity: string | null;
  /** Where each metadata field was written, for diagnostics. */
  spans: Partial<Record<keyof ToolMetadata, Span>>;
}
