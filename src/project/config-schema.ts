import { CONFIG_KEYS } from "./config-keys.js";

/** The JSON Schema of rye.config.json, derived from the one list of settings (schema/ holds it as a file). */
export function configSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = { $schema: { type: "string", description: "The JSON Schema this file follows." } };
  for (const [name, entry] of Object.entries(CONFIG_KEYS)) {
    const [kind, description] = entry;
    properties[name] = entry[0] === "string[]" ? { type: "array", items: { type: "string" }, maxItems: entry[2], description } : { type: kind, description };
  }
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "rye build configuration",
    description: "Settings for rye build; command-line flags override them. Keys for trusting signatures are not settings: they come from outside the checkout.",
    type: "object",
    properties,
    additionalProperties: false,
  };
}
