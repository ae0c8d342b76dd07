// DR-007's placeholders and where each may appear (seed 003 "Placeholder Scope").

export type AgentScope = "agent_command" | "role" | "context" | "task";

/** Placeholder name → the scopes it is valid in. */
export const PLACEHOLDER_SCOPES: Readonly<Record<string, readonly AgentScope[]>> = {
  date: ["agent_command", "role", "context", "task"],
  bin: ["agent_command"],
  model: ["agent_command"],
  prompt: ["agent_command"],
  role: ["agent_command"],
  role_file: ["agent_command"],
  file: ["role", "context", "task"],
  file_contents: ["role", "context", "task"],
  command: ["role", "context", "task"],
  command_output: ["role", "context", "task"],
  instructions: ["task"],
};

/** A single-brace placeholder name: `{prompt}`, `{role_file}`. */
export const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** Whether `name` is a DR-007 placeholder valid in `scope`. */
export function inScope(name: string, scope: AgentScope): boolean {
  return scopesOf(name)?.includes(scope) ?? false;
}

/** The scopes of a DR-007 placeholder, or undefined for any other name (`constructor` included). */
export function scopesOf(name: string): readonly AgentScope[] | undefined {
  return Object.hasOwn(PLACEHOLDER_SCOPES, name) ? PLACEHOLDER_SCOPES[name] : undefined;
}
