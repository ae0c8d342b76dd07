import type { Diagnostic, Location } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { didYouMean } from "../runtime/did-you-mean.js";
import { mayContain, type PlaceholderSystem } from "../parse/placeholders.js";
import { compareParams, readParamSchema } from "../runtime/exec/check-params.js";
import type { DirectiveEntry } from "./resolve-context.js";

/** The `parameters={…}` dict of a call: where it was written and where each of its keys was. */
export interface CallArgs {
  id: string;
  at: Location;
  keys: { name: string; loc: Location; value?: Literal }[];
}

/** A parameter's value as written in the call: a literal of some kind, or text filled in at run time. */
export type Literal = { kind: string; value?: unknown };

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
  for (const k of call.keys) {
    const type = declared.find((i) => i.name === k.name)?.type;
    const expected = type === undefined ? undefined : INPUT_JSON_TYPE[type];
    if (k.value && expected) checkLiteralType(call.id, k, [expected], out, d.directiveCallParamWrongType);
  }
}

/** The JSON Schema type of each input `type` a directive's validate checks (others are not checked). */
const INPUT_JSON_TYPE: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  string: "string", integer: "integer", number: "number", float: "number", boolean: "boolean", object: "object", dict: "object", array: "array", list: "array",
});

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
    else if (k.value) checkLiteralType(call.id, k, declaredType(schemaValue, k.name), out);
  }
}

const field = (v: unknown, k: string): unknown => (v instanceof Map ? v.get(k) : v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined);

/** The JSON Schema `type` of one property (a name or a list of names); empty when it declares none. */
function declaredType(schema: unknown, name: string): string[] {
  const type = field(field(field(schema, "properties"), name), "type");
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}

const HOLDS_PLACEHOLDER: PlaceholderSystem[] = ["InputRefs", "EnvRefs", "EnvVars"];

/** The JSON Schema types a literal of the call is an instance of; null when its value is only known at run time. */
function literalTypes(v: Literal): string[] | null {
  switch (v.kind) {
    case "str":
      // A call in a body is an instruction the model carries out: text with a placeholder becomes
      // the caller's value there, of whatever type the model then writes ("{input:n}" may be 30).
      return HOLDS_PLACEHOLDER.some((system) => mayContain(String(v.value), system)) ? null : ["string"];
    case "num":
      return Number.isInteger(v.value) ? ["integer", "number"] : ["number"];
    case "const":
      return v.value === null ? ["null"] : ["boolean"];
    case "dict":
      return ["object"];
    case "list":
      return ["array"];
    default:
      return null;
  }
}

const A_TYPE: Record<string, string> = { string: "a string", integer: "an integer", number: "a number", boolean: "a boolean", null: "None", object: "a dict", array: "a list" };

/** RYE6008: the original passes the value through unchecked, and the tool receives a value of the wrong type; RYE6009: a directive's validate refuses it. */
function checkLiteralType(id: string, k: CallArgs["keys"][number], expected: string[], out: Diagnostic[], report = d.callParamWrongType): void {
  const known = expected.filter((t) => t in A_TYPE);
  const given = literalTypes(k.value!);
  if (known.length === 0 || known.length < expected.length || !given || given.some((t) => known.includes(t))) return;
  out.push(report(k.loc, id, k.name, known.map((t) => A_TYPE[t]).join(" or "), A_TYPE[given[given.length - 1]!]!));
}
