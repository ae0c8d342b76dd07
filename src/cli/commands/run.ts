import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { launchConfiguredAgent } from "../../agents/launch-configured-agent.js";
import type { Execa } from "../../runtime/exec/run-process.js";
import type { ElementFile, RunToolOptions, ToolResponse } from "../../runtime/exec/run-tool.js";
import { parsePyJson } from "../../runtime/py-json.js";
import { PyFloat } from "../../runtime/pystr.js";
import { toPlainObject } from "../../runtime/py-value.js";
import type { TrustStore } from "../../sign/trust-store.js";
import { trustForSpaces } from "../../builder/signing.js";
import { locateProject } from "../../builder/load-project.js";
import { resolveSettings } from "../../project/settings.js";
import { verifyItem } from "../../sign/verify-item.js";
import { parseCommandArgs, parseCommandLine } from "../args.js";
import { importVerifiedBundle, type LoadedBundle } from "../../bundle/import-verified-bundle.js";
import { registerVerifier } from "../../register/register-verifier.js";
import { IntegrityError } from "../../verify/integrity-error.js";
import type { Io } from "../io.js";

const USAGE = `Usage: rye run tool <id> [--params JSON] [--dry-run] [--project DIR] [--out DIR] [--user-space DIR] [--trusted-key FILE]…
       rye run <bundle.mjs> directive <id> [--inputs JSON] [--thread] [--model M]
                 [--agent NAME [--agents FILE]] [--trusted-key FILE]…
       rye run <bundle.mjs> tool <id> [--params JSON] [--dry-run] [--project DIR] [--trusted-key FILE]…

Nothing runs before it is verified against keys from outside the checkout (--trusted-key,
RYE_TRUSTED_KEYS, this machine's signing key, the user space's trust store): a bundle is read once,
checked, and exactly those bytes are evaluated; a compiled tool and every file it imports from the
output folder are checked against the signed manifest as they load.

Runs a tool compiled by \`rye build\` (DIR/out/tools/<id>.js) through its build-time chain and prints
the rye_execute response as JSON; --dry-run validates the chain and prints it without running.

Runs a directive from a bundle built by \`rye bundle\`, with no sources: validates the inputs and
prints the rendered prompt (or, with --thread, the system message and first user message) as JSON.
As in the original, model, limit_overrides and previous_thread_id in --inputs are not inputs: they
set the thread's model and limits (--model wins over model).
With --agent, launches that agent CLI from the agents TOML (default .ai/config/agents.toml) with
{prompt} = the first user message, {role}/{role_file} = the system message, {model} = --model, the
directive's model id or the agent's default_model. A bundled tool runs its plan against the files of
the project at --project (default: found as rye build finds it), each re-hashed against the plan first.
Exit codes: 0 success, 1 failure, 2 usage.`;

/** What a thread takes besides its inputs: validate() splits these off the parameters. */
type ExecutionOptions = { model?: string; limit_overrides?: unknown; previous_thread_id?: string };

interface DirectiveModule {
  metadata: { model?: Record<string, string> };
  validate(p: unknown): { status: string; inputs?: unknown; options?: ExecutionOptions };
  render(i: unknown): unknown;
  renderThread(i: unknown, o?: ExecutionOptions): { system: string; messages: { content: string }[] };
}

/** `rye run <bundle> directive <id> …`. */
export async function run(args: string[], io: Io): Promise<number> {
  if (args[0] === "tool") return runTool(args.slice(1), io);
  if (args[1] === "tool") return runBundledTool(args, io);
  const values = parseCommandArgs(
    args,
    { inputs: { type: "string" }, thread: { type: "boolean" }, model: { type: "string" }, agent: { type: "string" }, agents: { type: "string" }, "trusted-key": { type: "string", multiple: true } },
    USAGE,
    io,
    false,
  );
  if (typeof values === "number") return values;
  const positionals = args.filter((a, i) => !a.startsWith("--") && !(i > 0 && /^--(inputs|model|agent|agents|trusted-key)$/.test(args[i - 1]!)));
  const [bundle, kind, id] = positionals;
  const bundlePath = kind === "directive" ? bundleAt(bundle, id, io) : usage(io);
  if (typeof bundlePath === "number") return bundlePath;
  let inputs: unknown = {};
  try {
    if (typeof values.inputs === "string") inputs = parsePyJson(values.inputs);
  } catch (e) {
    io.stderr.write(`--inputs is not valid JSON: ${(e as Error).message}\n`);
    return 2;
  }
  const loaded = await loadBundle<{ directives: Record<string, DirectiveModule> }>(bundlePath, bundle!, values["trusted-key"] as string[] | undefined, io);
  if (typeof loaded === "number") return loaded;
  try {
    return await runDirective(loaded.module.directives, id!, inputs, values, io);
  } finally {
    loaded.dispose();
  }
}

async function runDirective(directives: Record<string, DirectiveModule>, id: string, inputs: unknown, values: Record<string, unknown>, io: Io): Promise<number> {
  const mod = directives[id];
  const print = (v: unknown) => io.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
  if (!mod) {
    print({ status: "error", error: `Directive not found: ${id}`, item_id: id });
    return 1;
  }
  // validate() takes model, limit_overrides and previous_thread_id out of the inputs, as the original's executor does.
  const checked = mod.validate(inputs);
  if (checked.status !== "success") {
    print(checked);
    return 1;
  }
  const options: ExecutionOptions = { ...checked.options, ...(typeof values.model === "string" && values.model ? { model: values.model } : {}) };
  if (typeof values.agent !== "string") {
    print({ status: "success", type: "directive", item_id: id, data: values.thread ? mod.renderThread(checked.inputs, options) : mod.render(checked.inputs) });
    return 0;
  }
  return launch(mod, checked.inputs, values.agent, typeof values.agents === "string" ? values.agents : configuredAgents(io), options, io);
}

/** The agents TOML without --agents: the project's config (`"agents"`) names it, else `.ai/config/agents.toml`. */
function configuredAgents(io: Io): string {
  const found = locateProject({ cwd: io.cwd, env: io.env });
  const fromConfig = "problem" in found ? undefined : resolveSettings(found.root, {}, io.cwd, io.env).agents;
  return fromConfig ?? ".ai/config/agents.toml";
}

async function launch(mod: DirectiveModule, inputs: unknown, name: string, agentsFile: string, options: ExecutionOptions, io: Io): Promise<number> {
  const path = resolve(io.cwd, agentsFile);
  if (!existsSync(path)) {
    io.stderr.write(`No agent configuration at ${path} (--agents FILE).\n`);
    return 2;
  }
  const model = options.model || mod.metadata.model?.id;
  const thread = (m: string) => {
    const t = mod.renderThread(inputs, { ...options, model: m });
    return { system: t.system, prompt: t.messages[0]!.content };
  };
  return launchConfiguredAgent({ text: readFileSync(path, "utf8"), file: agentsFile, name, model, thread, io });
}

const TOOL_OPTIONS = {
  params: { type: "string" },
  "dry-run": { type: "boolean" },
  project: { type: "string" },
  out: { type: "string" },
  "user-space": { type: "string" },
  "trusted-key": { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

interface ToolModule {
  execute(params: Record<string, unknown>, options?: RunToolOptions): Promise<ToolResponse>;
}

/** `rye run tool <id> …`: loads the compiled module from out/ and runs it. */
async function runTool(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandLine(args, TOOL_OPTIONS, USAGE, io);
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const [id, ...extra] = positionals;
  if (!id || extra.length > 0 || id.split("/").some((p) => p === "" || p === "." || p === "..")) {
    io.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let params: unknown = {};
  try {
    // A tool takes its parameters by name: a plain object even where JSON order would need a Map.
    if (values.params !== undefined) params = parsePyJson(values.params);
    if (params instanceof Map) params = toPlainObject(params);
  } catch (e) {
    io.stderr.write(`--params is not valid JSON: ${(e as Error).message}\n`);
    return 2;
  }
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    io.stderr.write("--params must be a JSON object\n");
    return 2;
  }
  const found = locateProject({ project: values.project, userSpace: values["user-space"], cwd: io.cwd, env: io.env });
  if ("problem" in found) {
    io.stderr.write(`rye run tool: ${found.problem}\n`);
    return 2;
  }
  const project = found.root;
  const outDir = resolve(project, values.out ?? "out");
  const userSpace = resolve(io.cwd, values["user-space"] ?? io.env.USER_SPACE ?? homedir());
  const print = (v: unknown) => io.stdout.write(`${JSON.stringify(v, (_k, x) => (x instanceof PyFloat ? x.value : x), 2)}\n`);
  const modulePath = join(outDir, "tools", `${id}.js`);
  if (!existsSync(modulePath)) {
    print({ status: "error", error: `Tool not found: ${id}`, item_id: id });
    io.stderr.write(`No compiled tool at ${modulePath}: run rye build (tools with build errors are not emitted).\n`);
    return 1;
  }
  let response: ToolResponse;
  try {
    // Every file of out/ this import reaches is verified against the signed manifest as it loads.
    registerVerifier({ trustedKeys: values["trusted-key"] ?? [], outputDirs: [outDir], cwd: io.cwd, env: io.env });
    const mod = (await import(pathToFileURL(modulePath).href)) as ToolModule;
    response = await mod.execute(params as Record<string, unknown>, {
      projectPath: project,
      userSpace,
      osEnv: io.env,
      dryRun: values["dry-run"] === true,
      verifyElement: signedElementVerifier(project, userSpace, io),
      // The CLI's own execa, so out/ runs even where no execa is installed beside it.
      execa: execa as unknown as Execa,
    });
  } catch (e) {
    response = { status: "error", error: e instanceof Error ? e.message : String(e), item_id: id };
  }
  print(response);
  return response.status === "success" || response.status === "validation_passed" ? 0 : 1;
}

function usage(io: Io): number {
  io.stderr.write(`${USAGE}\n`);
  return 2;
}

/** The bundle's absolute path, or exit code 2 when the arguments or the file are missing. */
function bundleAt(bundle: string | undefined, id: string | undefined, io: Io): string | number {
  if (!bundle || !id) return usage(io);
  const path = resolve(io.cwd, bundle);
  if (existsSync(path)) return path;
  io.stderr.write(`No bundle at ${path}: run rye bundle first.\n`);
  return 2;
}

/** `rye run <bundle> tool <id> [--params JSON] [--dry-run] [--project DIR]`: the bundle's own tool command. */
async function runBundledTool(args: string[], io: Io): Promise<number> {
  const [bundle, , id, ...flags] = args;
  const bundlePath = bundleAt(bundle, id?.startsWith("--") ? undefined : id, io);
  if (typeof bundlePath === "number") return bundlePath;
  // --trusted-key is ours; every other flag goes to the bundle's own tool command.
  const trustedKeys = flags.filter((_, j) => j > 0 && flags[j - 1] === "--trusted-key");
  const rest = flags.filter((a, j) => a !== "--trusted-key" && !(j > 0 && flags[j - 1] === "--trusted-key"));
  const i = rest.indexOf("--project");
  const found = locateProject({ project: i >= 0 ? rest[i + 1] : undefined, cwd: io.cwd, env: io.env });
  if ("problem" in found) {
    io.stderr.write(`rye run tool: ${found.problem}\n`);
    return 2;
  }
  const withProject = i >= 0 ? rest.map((a, j) => (j === i + 1 ? found.root : a)) : [...rest, "--project", found.root];
  const loaded = await loadBundle<{ main: (argv: string[], out: Io["stdout"], err: Io["stderr"]) => number | Promise<number> }>(bundlePath, bundle!, trustedKeys, io);
  if (typeof loaded === "number") return loaded;
  try {
    return await loaded.module.main(["tool", id!, ...withProject], io.stdout, io.stderr);
  } finally {
    loaded.dispose();
  }
}

/** The verified bundle's exports, or exit code 1 (with the refusal on stderr) when it does not verify. */
async function loadBundle<T>(path: string, label: string, trustedKeys: readonly string[] | undefined, io: Io): Promise<LoadedBundle<T> | number> {
  try {
    return await importVerifiedBundle<T>(path, label, { trustedKeys, env: io.env, cwd: io.cwd });
  } catch (e) {
    if (!(e instanceof IntegrityError)) throw e;
    io.stderr.write(`IntegrityError: ${e.message}\n`);
    return 1;
  }
}

/** A signed chain element must verify against the trust store of the project, the user space and this machine's keys. */
function signedElementVerifier(project: string, userSpace: string, io: Io): (file: ElementFile) => void {
  let trust: TrustStore | undefined;
  return (file) => {
    if (!file.signed) return;
    trust ??= trustForSpaces([{ root: project, label: "project" }, { root: userSpace, label: "user" }], io.env);
    const result = verifyItem(file.text, "tool", trust, { path: file.absolutePath });
    if (!result.ok) throw new Error(result.message);
  };
}
