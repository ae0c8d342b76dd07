import { relative, resolve } from "node:path";
import { didYouMeanId } from "../../runtime/did-you-mean.js";
import { loadProject, locateProject, type LoadedProject } from "../../builder/load-project.js";
import { resolveSettings } from "../../project/settings.js";
import { formatDiagnostic } from "../../diagnostics/format.js";
import { previewDirective, type PreviewResult } from "../../preview/preview-directive.js";
import { parsePyJson } from "../../runtime/py-json.js";
import { parseCommandLine } from "../args.js";
import { useColor, type Io } from "../io.js";

const USAGE = `Usage: rye preview <id> [--inputs JSON] [--thread] [--model M] [--json] [--project DIR] [--user-space DIR] [--system DIR]…

Prints what a model will receive from a directive, compiled from the sources (no build or bundle
needed): the rendered prompt, or with --thread the system message and first user message. The inputs
are validated as a run validates them; an invalid call prints the same error payload and exits 1.`;

/** `rye preview`: render one directive from the sources. */
export async function run(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandLine(
    args,
    { inputs: { type: "string" }, thread: { type: "boolean" }, model: { type: "string" }, json: { type: "boolean" }, project: { type: "string" }, "user-space": { type: "string" }, system: { type: "string", multiple: true } },
    USAGE,
    io,
  );
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    io.stderr.write(`rye preview takes one directive id.\n\n${USAGE}\n`);
    return 2;
  }
  const id = positionals[0]!;
  let inputs: unknown = {};
  try {
    if (values.inputs !== undefined) inputs = parsePyJson(values.inputs);
  } catch (e) {
    io.stderr.write(`--inputs is not valid JSON: ${(e as Error).message}\n`);
    return 2;
  }
  const found = locateProject({ project: values.project, userSpace: values["user-space"], cwd: io.cwd, env: io.env });
  if ("problem" in found) {
    io.stderr.write(`${found.problem}\n`);
    return 2;
  }
  const settings = resolveSettings(found.root, { "user-space": values["user-space"], system: values.system }, io.cwd, io.env);
  const project = loadProject({ project: found.root, userSpace: settings.userSpace, systems: settings.systems, cwd: io.cwd, env: io.env });
  const ids = project.sources.filter((s) => s.kind === "directive" && s.space === "project").map((s) => s.id);
  if (!ids.includes(id)) {
    const hint = didYouMeanId(id, ids);
    io.stderr.write(`No directive '${id}' in ${relative(io.cwd, project.spaces.project) || "."}/.ai/directives${hint ? `: did you mean '${hint}'?` : "."}\n`);
    return 1;
  }
  let result: PreviewResult;
  try {
    result = await previewDirective(project.sources, { id, inputs, thread: values.thread, model: values.model }, project.hookConfig);
  } catch (e) {
    // A compiler bug is reported as one (decisions.md #25), with the item, never as a stack trace.
    const detail = e instanceof Error ? `${e.name}: ${e.message.split("\n")[0]}` : String(e);
    io.stderr.write(`Internal error while previewing '${id}' (${detail}); please report it with that directive.\n`);
    return 1;
  }
  return print(result, Boolean(values.json), project, io);
}

function print(result: PreviewResult, json: boolean, project: LoadedProject, io: Io): number {
  if (result.status === "not_compiled") {
    const display = (source: string) => relative(io.cwd, resolve(project.spaces.project, source)) || source;
    const sources = new Map(project.sources.map((s) => [s.path, s.text.replace(/\r\n?/g, "\n")]));
    for (const d of result.diagnostics) io.stderr.write(`${formatDiagnostic(d, { color: useColor(io), sources, displayPath: display })}\n`);
    io.stderr.write(`'${result.id}' does not compile, so it has no preview.\n`);
    return 1;
  }
  if (result.status === "invalid") {
    io.stdout.write(`${JSON.stringify(result.payload, null, 2)}\n`);
    return 1;
  }
  if (json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (result.prompt !== undefined) io.stdout.write(`${result.prompt}\n`);
  else {
    io.stdout.write(`── system ──\n${result.system}\n`);
    for (const m of result.messages ?? []) io.stdout.write(`── ${m.role} ──\n${m.content}\n`);
  }
  return 0;
}
