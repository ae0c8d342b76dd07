import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compileAgentConfig } from "../../agents/agent-config.js";
import { formatDiagnostic } from "../../diagnostics/format.js";
import { launchAgent } from "../../runtime/agents/launch-agent.js";
import { parsePyJson } from "../../runtime/py-json.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";

const USAGE = `Usage: rye run <bundle.mjs> directive <id> [--inputs JSON] [--thread] [--model M]
                 [--agent NAME [--agents FILE]]

Runs a directive from a bundle built by \`rye bundle\`, with no sources: validates the inputs and
prints the rendered prompt (or, with --thread, the system message and first user message) as JSON.
With --agent, launches that agent CLI from the agents TOML (default .ai/config/agents.toml) with
{prompt} = the first user message, {role}/{role_file} = the system message, {model} = --model, the
directive's model id or the agent's default_model. Exit codes: 0 success, 1 failure, 2 usage.`;

interface DirectiveModule {
  metadata: { model?: Record<string, string> };
  validate(p: unknown): { status: string };
  render(i: unknown): unknown;
  renderThread(i: unknown, o?: { model?: string }): { system: string; messages: { content: string }[] };
}

/** `rye run <bundle> directive <id> …`. */
export async function run(args: string[], io: Io): Promise<number> {
  const values = parseCommandArgs(
    args,
    { inputs: { type: "string" }, thread: { type: "boolean" }, model: { type: "string" }, agent: { type: "string" }, agents: { type: "string" } },
    USAGE,
    io,
    false,
  );
  if (typeof values === "number") return values;
  const positionals = args.filter((a, i) => !a.startsWith("--") && !(i > 0 && /^--(inputs|model|agent|agents)$/.test(args[i - 1]!)));
  const [bundle, kind, id] = positionals;
  if (!bundle || kind !== "directive" || !id) {
    io.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const bundlePath = resolve(io.cwd, bundle);
  if (!existsSync(bundlePath)) {
    io.stderr.write(`No bundle at ${bundlePath}: run rye bundle first.\n`);
    return 2;
  }
  let inputs: unknown = {};
  try {
    if (typeof values.inputs === "string") inputs = parsePyJson(values.inputs);
  } catch (e) {
    io.stderr.write(`--inputs is not valid JSON: ${(e as Error).message}\n`);
    return 2;
  }
  const { directives } = (await import(pathToFileURL(bundlePath).href)) as { directives: Record<string, DirectiveModule> };
  const mod = directives[id];
  const print = (v: unknown) => io.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
  if (!mod) {
    print({ status: "error", error: `Directive not found: ${id}`, item_id: id });
    return 1;
  }
  const checked = mod.validate(inputs);
  if (checked.status !== "success") {
    print(checked);
    return 1;
  }
  if (typeof values.agent !== "string") {
    const model = typeof values.model === "string" ? values.model : undefined;
    print({ status: "success", type: "directive", item_id: id, data: values.thread ? mod.renderThread(inputs, { model }) : mod.render(inputs) });
    return 0;
  }
  return launch(mod, inputs, values.agent, typeof values.agents === "string" ? values.agents : ".ai/config/agents.toml", values.model, io);
}

async function launch(mod: DirectiveModule, inputs: unknown, name: string, agentsFile: string, modelFlag: unknown, io: Io): Promise<number> {
  const path = resolve(io.cwd, agentsFile);
  if (!existsSync(path)) {
    io.stderr.write(`No agent configuration at ${path} (--agents FILE).\n`);
    return 2;
  }
  const text = readFileSync(path, "utf8");
  const { config, diagnostics } = compileAgentConfig(text, agentsFile);
  for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d, { color: false, sources: new Map([[agentsFile, text]]) })}\n`);
  if (!config || diagnostics.some((d) => d.severity === "error")) return 1;
  const agent = config.agents[name];
  if (!agent) {
    io.stderr.write(`Agent '${name}' is not in ${agentsFile}; it has: ${Object.keys(config.agents).join(", ") || "none"}.\n`);
    return 2;
  }
  const chosen = (typeof modelFlag === "string" ? modelFlag : undefined) ?? mod.metadata.model?.id ?? agent.default_model ?? "";
  const model = agent.models?.[chosen] ?? chosen;
  const thread = mod.renderThread(inputs, { model });
  const result = await launchAgent(agent.command, { bin: agent.bin, model, prompt: thread.messages[0]!.content, role: thread.system }, { env: io.env, cwd: io.cwd });
  return result.exitCode === 0 ? 0 : 1;
}
