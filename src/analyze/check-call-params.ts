import type { Diagnostic, Location } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { didYouMean } from "../runtime/did-you-mean.js";
import { compareParams, readParamSchema } from "../runtime/exec/check-params.js";
import type { DirectiveEntry } from "./resolve-context.js";

/** The `parameters={…}` dict of a call: where it was written and where each of its keys was. */
export interface CallArgs {
  id: string;
  at: Location;
  keys: { name: string; loc: Location }[];
}

/** A call to a directive: required inputs it leaves out (at the dict), parameters it does not declare (at each key). */
export function checkDirectiveParams(call: CallArgs, callee: DirectiveEntry | undefined, out: Diagnostic[]): void {
  // A directive with errors of its own reports them itself; its inputs are unknown here.
  if (!callee || callee.failed) return;
  const declared = callee.data.inputs ?? [];
  const given = call.keys.map((k) => k.name);
  const names = declared.map((i) => i.name);
  // Without declared inputs the original accepts any parameters.
  const unknown = declared.length === 0 ? [] : call.keys.filter((k) => !names.includes(k.name));
  // A misspelt parameter is one mistake: the input it was meant for is not also reported as missing.
  const meant = new Set(unknown.map((k) => didYouMean(k.name, names)));
  const missing = declared.filter((i) => i.required && i.default === undefined && !given.includes(i.name) && !meant.has(i.name)).map((i) => i.name);
  if (missing.length > 0) out.push(d.callMissingInput(call.at, call.id, missing));
  for (const k of unknown) out.push(d.callUnknownInput(k.loc, call.id, k.name, names));
}

/** A call to a tool, checked against its CONFIG_SCHEMA: required properties left out, names it does not declare. */
export function checkToolParams(call: CallArgs, schemaValue: unknown, out: Diagnostic[]): void {
  const schema = readParamSchema(schemaValue);
  if (!schema) return;
  const { missing: absent, unknown } = compareParams(schema, call.keys.map((k) => k.name));
  const meant = new Set(unknown.map((name) => didYouMean(name, schema.properties ?? [])));
  const missing = absent.filter((name) => !meant.has(name));
  if (missing.length > 0) out.push(d.toolCallMissingParam(call.at, call.id, missing));
  for (const k of call.keys) {
    if (unknown.includes(k.name)) out.push(d.toolCallUnknownParam(k.loc, call.id, k.name, schema.properties ?? []));
  }
}
