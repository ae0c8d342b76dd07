import type { Diagnostic, Position } from "../diagnostics/diagnostic.js";
import type { TemplateNode } from "../parse/ast.js";
import type { DeclaredInput, DirectiveData } from "../parse/directive-data.js";
import type { ParsedDirective } from "../parse/parse-directive.js";
import type { ThreadPlan } from "../runtime/thread.js";
import type { ContextPlan } from "./resolve-context.js";
import type { CallPlan } from "./resolve-calls.js";

/**
 * TypeScript spelling of each known input `type` (anything else becomes `unknown`). No prototype:
 * a type named `constructor`, `toString` or `__proto__` is unknown, never an inherited member.
 */
export const TS_TYPES: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  string: "string",
  integer: "number",
  number: "number",
  float: "number",
  boolean: "boolean",
  object: "Record<string, unknown>",
  dict: "Record<string, unknown>",
  array: "unknown[]",
  list: "unknown[]",
});

/** A string field of the directive, compiled for the render pass that applies to it. */
export interface CompiledText {
  /** The original text. */
  text: string;
  /** Input-ref segmentation of `text`; null when the text needs the run-time interpreter (env refs). */
  segments: TemplateNode[] | null;
  /** True when `{env:…}` refs run first (body, content and raw only, as in the original). */
  env: boolean;
}

/** Everything emit needs for one directive; produced only when the directive has no errors. */
export interface DirectiveAnalysis {
  id: string;
  source: string;
  data: DirectiveData;
  inputs: DeclaredInput[];
  body: CompiledText;
  content: CompiledText;
  raw: CompiledText;
  actions: { key: string[]; text: CompiledText }[];
  diagnostics: Diagnostic[];
  /** Set once extends and context are resolved across spaces. */
  context?: ContextPlan;
  thread?: ThreadPlan;
  /** The knowledge of `thread` that the output holds as modules (project items): imported, not copied. */
  knowledgeModules?: string[];
  /** Effective permissions: the directive's own, or inherited from its chain. */
  permissions?: NonNullable<DirectiveData["permissions"]>;
  /** The backtick calls of the body with their resolved targets. */
  calls?: CallPlan[];
  /** Where the directive and each of its own `<input>`s and `<output>`s were written in its `.md` (aligned with `inputs` and `data.outputs`). */
  declared?: DeclaredAt;
}

/** See `DirectiveAnalysis.declared`: the element, or the `name` attribute when there is one. */
export interface DeclaredAt {
  root: Position;
  inputs: Position[];
  outputs: Position[];
}

/** Inputs to analysis: a parsed directive and the item id it was found under. */
export interface AnalyzeInput {
  id: string;
  parsed: ParsedDirective;
}
