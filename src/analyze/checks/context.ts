import type { DiagnosticBag } from "../../diagnostics/diagnostic.js";
import type { PlaceholderNode } from "../../parse/ast.js";
import type { DirectiveData } from "../../parse/directive-data.js";
import type { ParsedDirective } from "../../parse/parse-directive.js";

/** What every directive check reads: the parse, its data, and the placeholders found in `raw`. */
export interface CheckContext {
  id: string;
  parsed: ParsedDirective;
  data: DirectiveData;
  /** `{input:…}` and `${inputs.…}` references anywhere in the file (raw covers body and content). */
  refs: Extract<PlaceholderNode, { type: "input_ref" | "dollar_input" }>[];
  bag: DiagnosticBag;
}
