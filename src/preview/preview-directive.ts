// What a model will receive from a directive, straight from the sources: compile it in memory, load the
// module from a private temporary folder, validate the inputs as a run would, then render.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "../compile/build.js";
import type { SourceFile } from "../model/source.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { runtimeFiles } from "../output/runtime-files.js";
import { privateModuleFolder } from "../output/private-module-folder.js";
import { VERSION } from "../version.js";

/** What to preview: the inputs (as a run would receive them) and which view. */
export interface PreviewRequest {
  id: string;
  inputs?: unknown;
  /** The thread's system message and first user message instead of the prompt alone. */
  thread?: boolean;
  model?: string;
}

/** The preview, the validation error payload a run would give, or why the directive cannot be compiled. */
export type PreviewResult =
  | { status: "success"; id: string; prompt?: string; system?: string; messages?: { role: string; content: string }[] }
  | { status: "invalid"; payload: unknown }
  | { status: "not_compiled"; id: string; diagnostics: Diagnostic[] };

interface LoadedDirective {
  validate(params: unknown): { status: string };
  render(inputs: unknown): { prompt: string };
  renderThread(inputs: unknown, options?: { model?: string }): { system: string; messages: { role: string; content: string }[] };
}

/**
 * Compiles `sources` and previews one directive of them.
 * @example const r = await previewDirective(loadProject().sources, { id: "hello/summarize", inputs: { text: "…" } });
 */
export async function previewDirective(sources: readonly SourceFile[], request: PreviewRequest, hookConfig: { path: string; text: string } | null = null): Promise<PreviewResult> {
  const result = build(sources, VERSION, { hookConfig });
  const path = `directives/${request.id}.js`;
  const text = result.files.get(path);
  if (!text || !result.compiled.includes(request.id)) {
    const own = sources.find((s) => s.kind === "directive" && s.id === request.id);
    return { status: "not_compiled", id: request.id, diagnostics: own ? result.diagnostics.filter((d) => d.loc?.source === own.path) : [] };
  }
  // A thread's knowledge is imported from the knowledge modules, which load with it.
  const knowledge = [...result.files].filter(([rel]) => rel.startsWith("knowledge/") && rel.endsWith(".js"));
  return withModule(path, text, knowledge, (mod) => {
    const inputs = request.inputs ?? {};
    const checked = mod.validate(inputs);
    if (checked.status !== "success") return { status: "invalid", payload: checked };
    if (!request.thread) return { status: "success", id: request.id, prompt: mod.render(inputs).prompt };
    const thread = mod.renderThread(inputs, request.model === undefined ? {} : { model: request.model });
    return { status: "success", id: request.id, system: thread.system, messages: thread.messages };
  });
}

// The module was compiled from the user's own sources in this process: it is evaluated from a fresh
// 0700 folder that only this process writes, and the folder is removed once `use` is done with it.
async function withModule<T>(path: string, text: string, imported: [string, string][], use: (mod: LoadedDirective) => T): Promise<T> {
  const dir = privateModuleFolder("rye-preview-");
  try {
    for (const [rel, body] of [[path, text] as const, ...imported, ...runtimeFiles()]) {
      if (!rel.endsWith(".js")) continue;
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), body, { flag: "wx", mode: 0o600 });
    }
    return use((await import(pathToFileURL(join(dir, path)).href)) as LoadedDirective);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
