import { didYouMean } from "../did-you-mean.js";
import type { ChainDict } from "./plan.js";
import { toolErrorResponse } from "./tool-response.js";

/** What a tool's CONFIG_SCHEMA says about its parameters: the declared names (null: none declared) and the required ones. */
export interface ParamSchema {
  properties: string[] | null;
  required: string[];
}

// Metadata read from Python may hold dicts as Maps (to keep their key order), JSON ones as objects.
const keysOf = (v: unknown): string[] | null =>
  v instanceof Map ? [...v.keys()].map(String) : v !== null && typeof v === "object" && !Array.isArray(v) ? Object.keys(v) : null;
const field = (v: unknown, k: string): unknown => (v instanceof Map ? v.get(k) : v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined);

/** The parameter names a CONFIG_SCHEMA declares and requires; null when it declares neither. */
export function readParamSchema(schema: unknown): ParamSchema | null {
  const properties = keysOf(field(schema, "properties"));
  const required = field(schema, "required");
  const names = Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : [];
  return properties === null && names.length === 0 ? null : { properties, required: names };
}

/** Required parameters a call leaves out, and given ones the schema does not declare. */
export function compareParams(schema: ParamSchema, given: readonly string[]): { missing: string[]; unknown: string[] } {
  return {
    missing: schema.required.filter((r) => !given.includes(r)),
    unknown: schema.properties ? given.filter((g) => !schema.properties!.includes(g)) : [],
  };
}

/**
 * The error response for parameters that leave out a required CONFIG_SCHEMA property, or null
 * when they are fine. The original passes any parameters through; a missing required one only
 * fails later, inside the tool, so it is refused before anything runs. Undeclared parameters
 * still pass (tools may read more than they declare); they are named when they look like a typo.
 */
export function refuseParams(itemId: string, schemaValue: unknown, params: unknown, chain: ChainDict[]): Record<string, unknown> | null {
  const schema = readParamSchema(schemaValue);
  const given = keysOf(params);
  if (!schema) return null;
  if (given === null) return toolErrorResponse(itemId, `Invalid parameters for tool '${itemId}': expected an object of parameters`, chain, 0);
  const { missing, unknown } = compareParams(schema, given);
  if (missing.length === 0) return null;
  const hints = unknown.map((u) => [u, didYouMean(u, missing)] as const).filter(([, near]) => near !== undefined);
  const hint = hints.map(([u, near]) => ` '${u}' was given: did you mean '${near}'?`).join("");
  const message = `Invalid parameters for tool '${itemId}': missing required ${missing.map((m) => `'${m}'`).join(", ")}.${hint}`;
  const response = toolErrorResponse(itemId, message, chain, 0);
  response.validation = { missing, unknown, required: schema.required, properties: schema.properties };
  return response;
}
