import * as d from "../../diagnostics/codes.js";
import type { CheckContext } from "./context.js";

/** The directive's `name` should match its file name, as the original's extractor schema expects. */
export function reportNameMismatch({ id, data, parsed, bag }: CheckContext): void {
  const stem = id.slice(id.lastIndexOf("/") + 1);
  if (data.name !== undefined && data.name !== stem) bag.add(d.nameMismatch(parsed.locs.name ?? parsed.locs.root, data.name, stem));
}
