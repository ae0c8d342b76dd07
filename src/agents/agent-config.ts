import { parse as parseToml, TomlError } from "smol-toml";
import { LineIndex, type Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { CommandTemplate } from "../runtime/agents/launch-agent.js";
import { PLACEHOLDER, inScope, scopesOf, type AgentScope } from "../runtime/agents/scopes.js";
import { parseCommandTemplate } from "./command-template.js";

/** A UTD entry (roles, contexts, tasks): file, command and prompt template (seed 003). */
export interface Utd {
  file?: string;
  command?: string;
  prompt?: string;
  [k: string]: unknown;
}

export interface CompiledAgent {
  bin: string;
  description?: string;
  default_model?: string;
  models?: Record<string, string>;
  command: CommandTemplate;
}

/** A compiled agent configuration: agents with argv templates, and checked UTD entries. */
export interface AgentConfig {
  agents: Record<string, CompiledAgent>;
  roles: Record<string, Utd>;
  contexts: Record<string, Utd>;
  tasks: Record<string, Utd>;
}

const SECTION_SCOPE: Record<string, AgentScope> = { roles: "role", contexts: "context", tasks: "task" };
type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Date);
// Null-prototype maps: an entry named `constructor` or `__proto__` is a name like any other.
const dict = <T>() => Object.create(null) as Record<string, T>;
const put = <T>(o: Record<string, T>, k: string, v: T) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });

/**
 * Parses and checks an agents TOML file; each problem is located in the file. An agent entry with
 * an error is left out of `config.agents` and its diagnostics are also listed under `byAgent`, so one
 * bad entry does not make the others unusable.
 */
export function compileAgentConfig(text: string, source: string): { config: AgentConfig | null; diagnostics: Diagnostic[]; byAgent: Map<string, Diagnostic[]> } {
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = [];
  const byAgent = new Map<string, Diagnostic[]>();
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (e) {
    const at = e instanceof TomlError ? Math.max(0, lines.text.split("\n").slice(0, e.line - 1).join("\n").length + (e.line > 1 ? 1 : 0) + e.column - 1) : 0;
    diagnostics.push(d.invalidToml(lines.location(source, at, at), (e as Error).message.split("\n")[0]!));
    return { config: null, diagnostics, byAgent };
  }
  // Locations: the value's text inside its own table, found from the table header onwards.
  const locate = (section: string, name: string, needle: string, offset = 0) => {
    const header = text.search(new RegExp(`^\\[${section}\\.${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\]`, "m"));
    const at = text.indexOf(needle, Math.max(0, header));
    const start = (at === -1 ? Math.max(0, header) : at) + offset;
    return lines.location(source, start, start + 1);
  };
  const config: AgentConfig = { agents: dict(), roles: dict(), contexts: dict(), tasks: dict() };
  for (const [name, raw] of Object.entries(isTable(doc.agents) ? doc.agents : {})) {
    const found = compileAgent(name, raw, (needle, offset) => locate("agents", name, needle, offset));
    diagnostics.push(...found.diagnostics);
    if (found.diagnostics.length > 0) byAgent.set(name, found.diagnostics);
    if (found.agent && !found.diagnostics.some((x) => x.severity === "error")) put(config.agents, name, found.agent);
  }
  for (const [section, scope] of Object.entries(SECTION_SCOPE)) {
    for (const [name, raw] of Object.entries(isTable(doc[section]) ? (doc[section] as Table) : {})) {
      if (!isTable(raw)) continue;
      const utd = raw as Utd;
      const value = utd.prompt;
      if (typeof value === "string") {
        for (const m of value.matchAll(PLACEHOLDER)) {
          const ph = m[1]!;
          const scopes = scopesOf(ph);
          if (scopes && !inScope(ph, scope)) {
            const message = `{${ph}} is not available in ${section}; it is valid in ${scopes.join(", ")}`;
            diagnostics.push(d.placeholderOutOfScope(locate(section, name, m[0]), message));
          }
        }
      }
      put(config[section as "roles"] as Record<string, Utd>, name, utd);
    }
  }
  return { config, diagnostics, byAgent };
}

/** One `[agents.NAME]` table: string fields of the right shape and a command that parses. */
function compileAgent(name: string, raw: unknown, locate: (needle: string, offset?: number) => ReturnType<LineIndex["location"]>): { agent: CompiledAgent | null; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  if (!isTable(raw)) return { agent: null, diagnostics: [d.invalidAgentEntry(locate(`[agents.${name}]`), `agents.${name} must be a table with bin and command`)] };
  for (const field of ["bin", "command", "default_model", "description"]) {
    if (raw[field] !== undefined && typeof raw[field] !== "string") diagnostics.push(d.invalidAgentEntry(locate(field), `agents.${name}.${field} must be a string`));
  }
  if (raw.models !== undefined && (!isTable(raw.models) || Object.values(raw.models).some((m) => typeof m !== "string" && !(isTable(m) && typeof m.id === "string")))) {
    diagnostics.push(d.invalidAgentEntry(locate("models"), `agents.${name}.models must map names to model ids (strings or { id = "…" })`));
  }
  if (typeof raw.command !== "string") {
    if (raw.command === undefined) diagnostics.push(d.invalidAgentEntry(locate(`[agents.${name}]`), `agents.${name} has no command`));
    return { agent: null, diagnostics };
  }
  const command = raw.command;
  const { template, problems } = parseCommandTemplate(command);
  for (const p of problems) {
    const loc = locate(command, p.offset);
    const make = { scope: d.placeholderOutOfScope, no_bin: d.commandWithoutBin, bare_positional: d.barePositionalPlaceholder, syntax: d.badCommandTemplate }[p.kind];
    diagnostics.push(make(loc, p.message));
  }
  if (!template) return { agent: null, diagnostics };
  const models = dict<string>();
  if (isTable(raw.models)) for (const [k, m] of Object.entries(raw.models)) put(models, k, isTable(m) ? String(m.id) : String(m));
  const agent: CompiledAgent = { bin: typeof raw.bin === "string" ? raw.bin : "", command: template, models };
  if (typeof raw.default_model === "string") agent.default_model = raw.default_model;
  if (typeof raw.description === "string") agent.description = raw.description;
  return { agent, diagnostics };
}
