// `rye run <bundle> directive <id> --agent NAME`: picks the agent from the agents TOML, resolves the
// model and launches it. Every failure is one line on stderr and an exit code — 2 for usage (no such
// agent), 1 for anything else, 128 + n when a forwarded signal n ended the run — never a stack trace.
import { formatDiagnostic } from "../diagnostics/format.js";
import type { Io } from "../cli/io.js";
import { AgentLaunchError, launchAgent } from "../runtime/agents/launch-agent.js";
import { signalExitCode } from "../runtime/agents/forward-signals.js";
import { compileAgentConfig } from "./agent-config.js";

export interface ConfiguredLaunch {
  /** The agents TOML text and its name as the user gave it. */
  text: string;
  file: string;
  name: string;
  /** `--model`, then the directive's model id; the agent's default_model comes after both. */
  model: string | undefined;
  /** The directive's system message and first user message for the resolved model. */
  thread: (model: string) => { system: string; prompt: string };
  io: Io;
  /** The agent's environment (default `io.env`): a bundle run passes it without the checkout's search entries. */
  env?: NodeJS.ProcessEnv;
  /** Refuses the agent program found (e.g. one in the checkout); see LaunchOptions.checkProgram. */
  checkProgram?: (path: string) => string | null;
}

/** Launches the named agent and returns rye's exit code. */
export async function launchConfiguredAgent(c: ConfiguredLaunch): Promise<number> {
  const { io } = c;
  const { config, diagnostics, byAgent } = compileAgentConfig(c.text, c.file);
  const print = (list: readonly Parameters<typeof formatDiagnostic>[0][]) => {
    for (const d of list) io.stderr.write(`${formatDiagnostic(d, { color: false, sources: new Map([[c.file, c.text]]) })}\n`);
  };
  if (!config) {
    print(diagnostics);
    return 1;
  }
  const own = byAgent.get(c.name) ?? [];
  print(own);
  if (own.some((d) => d.severity === "error")) {
    io.stderr.write(`Agent '${c.name}' in ${c.file} cannot be used until the errors above are fixed.\n`);
    return 1;
  }
  if (!Object.hasOwn(config.agents, c.name)) {
    io.stderr.write(`Agent '${c.name}' is not in ${c.file}; it has: ${Object.keys(config.agents).join(", ") || "none"}.\n`);
    return 2;
  }
  const agent = config.agents[c.name]!;
  const chosen = c.model ?? agent.default_model ?? "";
  const models = agent.models ?? {};
  const model = Object.hasOwn(models, chosen) ? models[chosen]! : chosen;
  try {
    const thread = c.thread(model);
    const result = await launchAgent(agent.command, { bin: agent.bin, model, prompt: thread.prompt, role: thread.system }, { env: c.env ?? io.env, cwd: io.cwd, checkProgram: c.checkProgram });
    if (result.forwardedSignal) return signalExitCode(result.forwardedSignal);
    return result.exitCode === 0 ? 0 : 1;
  } catch (e) {
    const message = e instanceof AgentLaunchError ? e.message : e instanceof Error ? e.message.split("\n")[0] : String(e);
    io.stderr.write(`Agent '${c.name}': ${message}\n`);
    return 1;
  }
}
