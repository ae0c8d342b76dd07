// Preview: what the model receives from a directive, offered as a code lens and kept current (a
// `rye/preview` notification after every check) for each directive whose preview was asked for.
import { existsSync, lstatSync } from "node:fs";
import type { PreviewResult } from "../../preview/preview-directive.js";
import { readRegularFile } from "../../project/source-text.js";
import type { Session } from "../session.js";

/** The largest `<name>.inputs.json` a preview reads. */
const SAMPLE_INPUTS_MAX_BYTES = 1024 * 1024;

export function registerPreview(s: Session): void {
  const previews = new Set<string>();

  s.connection.onCodeLens(({ textDocument }) => {
    const ref = s.ws?.itemAt(s.pathOf(textDocument.uri));
    if (ref?.kind !== "directive") return [];
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return [{ range, command: { title: "Preview what the model receives", command: "rye.preview", arguments: [textDocument.uri] } }];
  });

  s.connection.onExecuteCommand(async ({ command, arguments: args }) => {
    if (command !== "rye.preview" || typeof args?.[0] !== "string") return null;
    previews.add(args[0]);
    return preview(s, args[0], args[1] !== false);
  });

  s.afterPublish.push(() => {
    for (const uri of previews) void sendPreview(s, uri);
  });
}

/** The preview of a directive buffer, with the sample inputs kept beside it (`<name>.inputs.json`). */
async function preview(s: Session, uri: string, thread = true): Promise<PreviewResult | null> {
  const ws = s.ws;
  const ref = ws?.itemAt(s.pathOf(uri));
  if (!ws || ref?.kind !== "directive") return null;
  const samples = s.pathOf(uri).replace(/\.md$/, ".inputs.json");
  let inputs: unknown = {};
  try {
    // A checkout's file: never through a link, only a regular file, bounded (decisions.md #23, #25).
    if (existsSync(samples) || isLink(samples)) {
      if (isLink(samples)) throw new Error("it is a symbolic link; sample inputs are read only from a plain file beside the directive");
      inputs = JSON.parse(readRegularFile(samples, SAMPLE_INPUTS_MAX_BYTES).toString("utf8"));
    }
  } catch (e) {
    return { status: "invalid", payload: { status: "error", error: `${samples}: ${(e as Error).message}` } };
  }
  // The previewer compiles and emits: loaded by the first preview, not before the first diagnostics.
  const { previewDirective } = await import("../../preview/preview-directive.js");
  return previewDirective(ws.sources(), { id: ref.id, inputs, thread }, ws.hookConfig);
}

async function sendPreview(s: Session, uri: string): Promise<void> {
  try {
    const result = await preview(s, uri);
    if (result) await s.connection.sendNotification("rye/preview", { uri, result });
  } catch (e) {
    s.connection.console.error(`rye: preview of ${uri} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
