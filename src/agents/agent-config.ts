import { parse as parseToml, TomlError } from "smol-toml";
import { LineIndex, type Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { CommandTemplate } from "../runtime/agents/launch-agent.js";
import { PLACEHOLDER, PLACEHOLDER_SCOPES, inScope, type AgentScope } from "../runtime/agents/scopes.js";
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

/** Parses and checks an agents TOML file; each problem is located in the file. */
export function compileAgentConfig(text: string, source: string): { config: AgentConfig | null; diagnostics: Diagnostic[] } {
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = [];
  let doc: Record<string, Record<string, Record<string, unknown>>>;
  try {
    doc = parseToml(text) as typeof doc;
  } catch (e) {
    const at = e instanceof TomlError ? Math.max(0, lines.text.split("\n").slice(0, e.line - 1).join("\n").length + (e.line > 1 ? 1 : 0) + e.column - 1) : 0;
    diagnostics.push(d.invalidToml(lines.location(source, at, at), (e as Error).message.split("\n")[0]!));
    return { config: null, diagnostics };
  }
  // Locations: the value's text inside its own table, found from the table header onwards.
  const locate = (section: string, name: string, needle: string, offset = 0) => {
    const header = text.search(new RegExp(`^\\[${section}\\.${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\]`, "m"));
    const at = text.indexOf(needle, Math.max(0, header));
    const start = (at === -1 ? Math.max(0, header) : at) + offset;
    return lines.location(source, start, start + 1);
  };
  const config: AgentConfig = { agents: {}, roles: {}, contexts: {}, tasks: {} };
  for (const [name, raw] of Object.entries(doc.agents ?? {})) {
    const command = String(raw.command ?? "");
    const { template, problems } = parseCommandTemplate(command);
    for (const p of problems) {
      const loc = locate("agents", name, command, p.offset);
      diagnostics.push(p.kind === "scope" ? d.placeholderOutOfScope(loc, p.message) : p.kind === "no_bin" ? d.commandWithoutBin(loc, p.message) : d.badCommandTemplate(loc, p.message));
    }
    if (template) config.agents[name] = { ...(raw as object), bin: String(raw.bin ?? ""), command: template } as CompiledAgent;
  }
  for (const [section, scope] of Object.entries(SECTION_SCOPE)) {
    for (const [name, raw] of Object.entries(doc[section] ?? {})) {
      const utd = raw as Utd;
      for (const field of ["prompt"] as const) {
        const value = utd[field];
        if (typeof value !== "string") continue;
        for (const m of value.matchAll(PLACEHOLDER)) {
          const ph = m[1]!;
          if (PLACEHOLDER_SCOPES[ph] && !inScope(ph, scope)) {
            const message = `{${ph}} is not available in ${section}; it is valid in ${PLACEHOLDER_SCOPES[ph]!.join(", ")}`;
            diagnostics.push(d.placeholderOutOfScope(locate(section, name, m[0]), message));
          }
        }
      }
      (config[section as "roles"] as Record<string, Utd>)[name] = utd;
    }
  }
  return { config, diagnostics };
}
