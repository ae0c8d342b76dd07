// State-graph inputs as the original walker checks them: JSON-schema-like `properties` defaults
// and `required` names, without type checks.

export interface InputSchema {
  properties?: Record<string, { default?: unknown; [k: string]: unknown }>;
  required?: string[];
  [k: string]: unknown;
}

/** Params with schema defaults added for absent keys (a new object; params is not modified). */
export function applyInputDefaults(params: Readonly<Record<string, unknown>>, schema: InputSchema | null | undefined): Record<string, unknown> {
  if (!schema || Object.keys(schema).length === 0) return params as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...params };
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (!Object.hasOwn(merged, key) && prop && "default" in prop) merged[key] = prop.default;
  }
  return merged;
}

/** One message per required name absent from params. */
export function validateGraphInputs(params: Readonly<Record<string, unknown>>, schema: InputSchema | null | undefined): string[] {
  if (!schema || Object.keys(schema).length === 0) return [];
  return (schema.required ?? []).filter((f) => !Object.hasOwn(params, f)).map((f) => `missing required input: '${f}'`);
}
