// The items the pipeline hands from one phase to the next, as plain data. This module imports no
// phase, so that every phase (and the emitter in particular) can depend on it without depending on
// the pipeline that produces the data.
import type { ChainPlan } from "../runtime/exec/plan.js";
import type { ToolMetadata } from "../tools/tool-metadata.js";

/** A knowledge item as the original's `markdown/frontmatter` parser returns it: YAML keys plus body and raw. */
export interface KnowledgeData {
  body: string;
  raw: string;
  name?: string;
  version?: string;
  [key: string]: unknown;
}

/** A knowledge item that parsed, with the space it was found in: what its module is emitted from. */
export interface KnowledgeItem {
  id: string;
  space: string;
  source: string;
  data: KnowledgeData;
}

/** A project tool whose chain resolved: what its module is emitted from. */
export interface CompiledTool {
  id: string;
  source: string;
  metadata: ToolMetadata;
  plan: ChainPlan;
}
