import { existsSync } from "node:fs";
import { readRegularText, Unreadable } from "../../project/read-regular.js";
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
import { agentProgramCheck, chooseAgentsFile, type AgentsOptions } from "../../bundle/bundle-agents.js";
import { runBundleTool } from "../../bundle/run-bundle-tool.js";
import { skippedTool } from "./skipped-tool.js";
import { dependencyVerifier } from "../../bundle/dependency-verifier.js";
import { verifyItem } from "../../sign/verify-item.js";
import { parseCommandArgs, parseCommandLine } from "../args.js";
import { importVerifiedBundle, type LoadedBundle } from "../../bundle/import-verified-bundle.js";
import { registerVerifier } from "../../register/register-verifier.js";
import { IntegrityError } from "../../verify/integrity-error.js";
import type { Io } from "../io.js";

const USAGE = `Usage: rye run tool <id> [--params JSON] [--dry-run] [--project DIR] [--out DIR] [--user-space DIR] [--trusted-key FILE]…
       rye run <bundle.mjs> directive <id> [--inputs JSON] [--thread] [--model M]
                 [--agent NAME [--agents FILE]] [--trusted-key FILE]… [--trust-checkout]
       rye run <bundle.mjs> tool <id> [--params JSON] [--dry-run] [--project DIR] [--trusted-key FILE]… [--trust-checkout]

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
With --agent, launches that agent CLI from the agents TOML (--agents FILE, default the user space's
.ai/config/agents.toml) with {prompt} = the first user message, {role}/{role_file} = the system
message, {model} = --model, the directive's model id or the agent's default_model. A bundled tool
runs its plan against the files of the project at --project (default: found as rye build finds it),
each re-hashed against the plan first.

A bundle run does not let the checkout (the bundle's folder and project, the working directory's
project, --project, and the git working trees holding them) choose code to run: no .env, no
interpreter, agents TOML or agent program inside it, no PATH/PYTHONPATH/NODE_PATH entry inside it,
no preload (LD_PRELOAD, BASH_ENV, NODE_OPTIONS --require) from it, and no file beside the tool that
an interpreter could import unless the bundle hashed it or a key from outside the checkout signed it.
--trust-checkout lets it, as rye run tool from your own project's sources does.

Every tool run refuses a --params key that names rye's own path context (tool_dir, anchor_path, …),
or that would replace a config value deciding what runs unless the tool's CONFIG_SCHEMA declares it;
a runtime's verify_deps is enforced before the spawn (every file of its scope signed and trusted).
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
    { inputs: { type: "string" }, thread: { type: "boolean" }, model: { type: "string" }, agent: { type: "string" }, agents: { type: "string" }, "trusted-key": { type: "string", multiple: true }, "trust-checkout": { type: "boolean" } },
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
  const loaded = await loadBundle<{ directives: Record<string, DirectiveModule>; provenanceOf?: (m: DirectiveModule) => unknown }>(bundlePath, bundle!, values["trusted-key"] as string[] | undefined, io);
  if (typeof loaded === "number") return loaded;
  try {
    return await runDirective(loaded.module.directives, id!, inputs, { ...values, bundle: bundlePath, provenanceOf: loaded.module.provenanceOf }, io);
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
    // Where the prompt came from (runtime/provenance.ts), for a log to check later with rye verify --provenance.
    const provenance = typeof values.provenanceOf === "function" ? (values.provenanceOf as (m: DirectiveModule) => unknown)(mod) ?? null : null;
    print({ status: "success", type: "directive", item_id: id, data: values.thread ? mod.renderThread(checked.inputs, options) : mod.render(checked.inputs), provenance });
    return 0;
  }
  const where: AgentsOptions = {
    bundle: values.bundle as string,
    cwd: io.cwd,
    env: io.env,
    agents: typeof values.agents === "string" ? values.agents : undefined,
    trustCheckout: values["trust-checkout"] === true,
  };
  return launch(mod, checked.inputs, values.agent, where, options, io);
}

async function launch(mod: DirectiveModule, inputs: unknown, name: string, where: AgentsOptions, options: ExecutionOptions, io: Io): Promise<number> {
  const chosen = chooseAgentsFile(where);
  if ("problem" in chosen) {
    io.stderr.write(`${chosen.problem}\n`);
    return chosen.code;
  }
  const model = options.model || mod.metadata.model?.id;
  const thread = (m: string) => {
    const t = mod.renderThread(inputs, { ...options, model: m });
    return { system: t.system, prompt: t.messages[0]!.content };
  };
  let text: string;
  try {
    // Bounded like every file rye reads: a FIFO or a link to /dev/zero is an error, not an endless read.
    text = readRegularText(chosen.path, { kind: "config", link: { links: "follow" } });
  } catch (e) {
    io.stderr.write(`${chosen.label}: error: cannot read the agents file: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  return launchConfiguredAgent({ text, file: chosen.label, name, model, thread, io, ...agentProgramCheck(where) });
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
  metadata?: Readonly<Record<string, unknown>>;
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
  const params = parseParams(values.params, io);
  if (typeof params === "number") return params;
  const found = locateProject({ project: values.project, userSpace: values["user-space"], cwd: io.cwd, env: io.env });
  if ("problem" in found) {
    io.stderr.write(`rye run tool: ${found.problem}\n`);
    return 2;
  }
  const project = found.root;
  const outDir = resolve(project, values.out ?? "out");
  const userSpace = resolve(io.cwd, values["user-space"] ?? io.env.USER_SPACE ?? homedir());
  const print = (v: ToolResponse) => printResponse(v, io);
  const modulePath = join(outDir, "tools", `${id}.js`);
  if (!existsSync(modulePath)) {
    print({ status: "error", error: `Tool not found: ${id}`, item_id: id });
    const skipped = skippedTool(project, id);
    const why = skipped ? `rye build skipped ${skipped.path} (RYE1012): ${skipped.why}` : "run rye build (tools with build errors are not emitted)";
    io.stderr.write(`No compiled tool at ${modulePath}: ${why}.\n`);
    return 1;
  }
  let response: ToolResponse;
  try {
    // Every file of out/ this import reaches is verified against the signed manifest as it loads.
    registerVerifier({ trustedKeys: values["trusted-key"] ?? [], outputDirs: [outDir], cwd: io.cwd, env: io.env });
    const mod = (await import(pathToFileURL(modulePath).href)) as ToolModule;
    response = await mod.execute(params, {
      projectPath: project,
      userSpace,
      osEnv: io.env,
      dryRun: values["dry-run"] === true,
      verifyElement: signedElementVerifier(project, userSpace, io),
      // verify_deps: every file of the runtime's scope must be signed by a trusted key before the spawn.
      verifyDependency: dependencyVerifier({ spaces: [{ root: project, label: "project" }, { root: userSpace, label: "user" }], env: io.env, trustedKeys: values["trusted-key"] ?? [], cwd: io.cwd }),
      configSchema: mod.metadata?.config_schema,
      // The CLI's own execa, so out/ runs even where no execa is installed beside it.
      execa: execa as unknown as Execa,
    });
  } catch (e) {
    response = { status: "error", error: e instanceof Error ? e.message : String(e), item_id: id };
  }
  print(response);
  return response.status === "success" || response.status === "validation_passed" ? 0 : 1;
}

/** `--params` as a plain object (a tool takes its parameters by name), or exit code 2. */
function parseParams(text: string | undefined, io: Io): Record<string, unknown> | number {
  let params: unknown = {};
  try {
    if (text !== undefined) params = parsePyJson(text);
    if (params instanceof Map) params = toPlainObject(params);
  } catch (e) {
    io.stderr.write(`--params is not valid JSON: ${(e as Error).message}\n`);
    return 2;
  }
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    io.stderr.write("--params must be a JSON object\n");
    return 2;
  }
  return params as Record<string, unknown>;
}

/** A response as JSON; floats (PyFloat, from any copy of the runtime) as numbers. */
function printResponse(v: ToolResponse, io: Io): void {
  io.stdout.write(`${JSON.stringify(v, (_k, x) => (x instanceof PyFloat ? x.value : x), 2)}\n`);
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

const BUNDLED_TOOL_OPTIONS = {
  params: { type: "string" },
  "dry-run": { type: "boolean" },
  project: { type: "string" },
  "trusted-key": { type: "string", multiple: true },
  "trust-checkout": { type: "boolean" },
} as const;

/**
 * `rye run <bundle> tool <id> [--params JSON] [--dry-run] [--project DIR] [--trust-checkout]`: rye
 * calls the verified bundle's tool itself (runBundleTool), so the options that keep the checkout
 * from choosing code (see bundle-run-options.ts) hold whatever the bundle's own command line does.
 */
async function runBundledTool(args: string[], io: Io): Promise<number> {
  const [bundle, , id, ...flags] = args;
  const bundlePath = bundleAt(bundle, id?.startsWith("--") ? undefined : id, io);
  if (typeof bundlePath === "number") return bundlePath;
  const parsed = parseCommandLine(flags, BUNDLED_TOOL_OPTIONS, USAGE, io);
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  if (positionals.length > 0) return usage(io);
  const params = parseParams(values.params, io);
  if (typeof params === "number") return params;
  const found = locateProject({ project: values.project, cwd: io.cwd, env: io.env });
  if ("problem" in found) {
    io.stderr.write(`rye run tool: ${found.problem}\n`);
    return 2;
  }
  let response: ToolResponse;
  try {
    response = await runBundleTool(bundle!, id!, params, {
      trustedKeys: values["trusted-key"],
      cwd: io.cwd,
      env: io.env,
      project: found.root,
      trustCheckout: values["trust-checkout"] === true,
      dryRun: values["dry-run"] === true,
      execa: execa as unknown as Execa,
    });
  } catch (e) {
    return refused(e, bundle!, io);
  }
  printResponse(response, io);
  return response.status === "success" || response.status === "validation_passed" ? 0 : 1;
}

/** The verified bundle's exports, or exit code 1 (with the refusal on stderr) when it does not verify. */
async function loadBundle<T>(path: string, label: string, trustedKeys: readonly string[] | undefined, io: Io): Promise<LoadedBundle<T> | number> {
  try {
    return await importVerifiedBundle<T>(path, label, { trustedKeys, env: io.env, cwd: io.cwd });
  } catch (e) {
    return refused(e, label, io);
  }
}

/**
 * Exit code 1 for a bundle that does not verify or is not a file rye reads (a device such as
 * /dev/null, a FIFO, an oversized file), with one line naming the bundle and why; anything else is
 * a fault of rye's own and propagates.
 */
function refused(e: unknown, label: string, io: Io): number {
  if (e instanceof IntegrityError) io.stderr.write(`IntegrityError: ${e.message}\n`);
  else if (e instanceof Unreadable) io.stderr.write(`error: ${label}: cannot read the bundle: ${e.reason}\n`);
  else throw e;
  return 1;
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
