// `rye lsp`: the compiler's diagnostics, completion, hover, navigation, rename and a prompt preview
// for directives, knowledge, tool YAMLs and hook_conditions.yaml, over LSP on stdio.
import { existsSync, lstatSync } from "node:fs";
import { readRegularFile } from "../project/source-text.js";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type Connection } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { CODES } from "../diagnostics/codes.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { previewDirective, type PreviewResult } from "../preview/preview-directive.js";
import { Checker } from "./checker.js";
import { complete } from "./completion.js";
import { directiveContext, toolContext } from "./cursor-context.js";
import { itemMarkdown, paramMarkdown, inputsOfText, paramsOf } from "./item-info.js";
import { definitionOf, inputReferences, resolveItem, type FileSpan } from "./navigation.js";
import { offsetAt, rangeOf, toRange } from "./positions.js";
import { tokenAt } from "./token-at.js";
import { Workspace } from "./workspace.js";

/** A diagnostic code's explanation, as the diagnostics reference gives it. */
function explain(code: string): string {
  const entry = Object.hasOwn(CODES, code) ? CODES[code as keyof typeof CODES] : undefined;
  return entry ? `**${code}** (${entry[0]}): ${entry[1]}. See docs/diagnostics.md#${code.toLowerCase()}.` : "";
}

/**
 * The file a document URI names, or null for any other URI (untitled:, a remote host, a malformed
 * one): the server answers requests about those with nothing instead of failing.
 */
function fileOf(uri: unknown): string | null {
  if (typeof uri !== "string" || !uri.startsWith("file:")) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

/** The nearest folder at or above `from` holding `.ai/`, else `from` itself. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".ai"))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

/** Starts the server on this process's stdin and stdout; resolves when the client shuts it down. */
export function startServer(connection: Connection = createConnection(ProposedFeatures.all)): void {
  const documents = new TextDocuments(TextDocument);
  const checker = new Checker();
  const previews = new Set<string>();
  let ws: Workspace | null = null;
  let published = new Map<string, Diagnostic[]>();
  let pending: string[] = [];
  let scheduled = false;

  connection.onInitialize((params) => {
    const folder = params?.workspaceFolders?.[0]?.uri ?? params?.rootUri;
    try {
      // A root that is no file: URI (or none) is the server's own folder.
      ws = new Workspace(projectRoot((typeof folder === "string" && fileOf(folder)) || process.cwd()));
    } catch (e) {
      // No project here: the server stays up and answers nothing, as editors expect of a server.
      void connection.window.showWarningMessage(`rye: ${(e as Error).message}`);
    }
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: [":", '"', "<", "{", ".", ",", " "] },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        codeLensProvider: {},
        executeCommandProvider: { commands: ["rye.preview"] },
      },
      serverInfo: { name: "rye", version: "lsp" },
    };
  });
  connection.onInitialized(() => schedule([]));

  const change = (uri: string, text: string | null) => {
    const file = fileOf(uri);
    if (!ws || !file) return;
    ws.setOverlay(file, text);
    schedule([file]);
  };
  documents.onDidOpen((e) => change(e.document.uri, e.document.getText()));
  documents.onDidChangeContent((e) => change(e.document.uri, e.document.getText()));
  documents.onDidClose((e) => change(e.document.uri, null));
  connection.onDidChangeWatchedFiles(() => {
    ws?.reload();
    checker.reset();
    schedule([]);
  });

  // Edits arriving together are checked once, right after the current event turn.
  function schedule(files: string[]): void {
    pending.push(...files);
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const files = pending;
      pending = [];
      // Nothing that one file or edit does may stop the server: a failure is logged, and the next edit checks again.
      try {
        if (ws) publish(ws, files);
      } catch (e) {
        connection.console.error(`rye: checking failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
    });
  }

  function publish(ws: Workspace, files: string[]): void {
    const sources = ws.sources();
    const changed = sources.filter((s) => files.includes(ws.absolute(s.path)));
    for (const f of files) {
      const ref = ws.itemAt(f);
      if (ref && !changed.some((s) => s.path === ref.path)) changed.push({ kind: ref.kind, id: ref.id, path: ref.path, text: "" });
    }
    const diagnostics = [...ws.configProblems, ...ws.overlayProblems(), ...checker.check(sources, ws.hookConfig, changed)];
    const byFile = new Map<string, Diagnostic[]>();
    for (const d of diagnostics) {
      if (!d.loc) continue;
      const file = ws.absolute(d.loc.source);
      byFile.set(file, [...(byFile.get(file) ?? []), d]);
    }
    // Files that had diagnostics and lost them, and edited files without any, get an empty list.
    for (const file of [...published.keys(), ...files]) if (!byFile.has(file)) connection.sendDiagnostics({ uri: pathToFileURL(file).href, diagnostics: [] });
    for (const [file, list] of byFile) {
      connection.sendDiagnostics({
        uri: pathToFileURL(file).href,
        diagnostics: list.map((d) => ({ range: toRange(d.loc!), severity: d.severity === "error" ? 1 : d.severity === "warning" ? 2 : 3, code: d.code, source: "rye", message: d.message })),
      });
    }
    published = byFile;
    for (const uri of previews) void sendPreview(uri);
  }

  /** For handlers: the file of a document URI, or "" (no item, no text) for any other. */
  const pathOf = (uri: string) => fileOf(uri) ?? "";
  const textOf = (uri: string) => {
    const file = fileOf(uri);
    return file === null ? undefined : (documents.get(uri)?.getText() ?? ws?.textOf(file));
  };
  const location = (span: FileSpan) => ({ uri: pathToFileURL(span.file).href, range: rangeOf(span.text, span.start, span.end) });

  connection.onCompletion(({ textDocument, position }) => {
    const text = textOf(textDocument.uri);
    if (!ws || text === undefined) return [];
    const file = pathOf(textDocument.uri);
    const before = text.slice(0, offsetAt(text, position));
    const ref = ws.itemAt(file);
    const ctx = ref?.kind === "tool" || file.endsWith(".yaml") || file.endsWith(".yml") ? toolContext(before) : directiveContext(before);
    return ctx ? complete(ctx, text, ref?.path ?? file, ws.sources()) : [];
  });

  connection.onHover(({ textDocument, position }) => {
    const text = textOf(textDocument.uri);
    if (!ws || text === undefined) return null;
    const offset = offsetAt(text, position);
    const token = tokenAt(text, offset);
    // A diagnostic under the cursor is explained by its code's entry, whatever else is there.
    const explained = (published.get(pathOf(textDocument.uri)) ?? []).filter((d) => d.loc!.start.offset <= offset && offset <= d.loc!.end.offset).map((d) => explain(d.code));
    const markdown = (value: string) => ({ contents: { kind: "markdown" as const, value: [...explained, value].filter(Boolean).join("\n\n---\n\n") }, ...(token ? { range: rangeOf(text, token.start, token.end) } : {}) });
    if (!token) return explained.length > 0 ? markdown("") : null;
    if (token.kind === "code") return markdown(explain(token.code));
    if (token.kind === "id") {
      const src = resolveItem(ws.sources(), token.itemKinds, token.id);
      return markdown(itemMarkdown(src?.kind ?? token.itemKinds[0]!, token.id, src));
    }
    if (token.kind === "input") {
      const input = inputsOfText(text, pathOf(textDocument.uri)).find((i) => i.name === token.name);
      return markdown(input ? paramMarkdown(input) : `\`${token.name}\` is not a declared input of this directive.`);
    }
    const target = resolveItem(ws.sources(), token.itemKinds, token.target);
    const param = target ? paramsOf(target).find((p) => p.name === token.name) : undefined;
    return markdown(param ? paramMarkdown(param) : `\`${token.name}\` is no parameter of \`${token.target}\`.`);
  });

  connection.onDefinition(({ textDocument, position }) => {
    const text = textOf(textDocument.uri);
    if (!ws || text === undefined) return null;
    const token = tokenAt(text, offsetAt(text, position));
    const span = token ? definitionOf(ws, pathOf(textDocument.uri), text, token) : null;
    return span ? location(span) : null;
  });

  connection.onReferences(({ textDocument, position }) => {
    const text = textOf(textDocument.uri);
    if (!ws || text === undefined) return [];
    const token = tokenAt(text, offsetAt(text, position));
    return token ? inputReferences(ws, pathOf(textDocument.uri), text, token).map(location) : [];
  });

  connection.onPrepareRename(({ textDocument, position }) => {
    const text = textOf(textDocument.uri);
    const token = text === undefined ? null : tokenAt(text, offsetAt(text, position));
    if (!token || (token.kind !== "input" && token.kind !== "call-param")) return null;
    return { range: rangeOf(text!, token.start, token.end), placeholder: token.name };
  });

  connection.onRenameRequest(({ textDocument, position, newName }) => {
    const text = textOf(textDocument.uri);
    if (!ws || text === undefined) return null;
    if (!/^[\p{L}\p{N}_]+$/u.test(newName)) throw new Error(`'${newName}' cannot be an input name: use letters, digits and underscores.`);
    const token = tokenAt(text, offsetAt(text, position));
    if (!token) return null;
    const changes: Record<string, { range: ReturnType<typeof rangeOf>; newText: string }[]> = {};
    for (const span of inputReferences(ws, pathOf(textDocument.uri), text, token)) {
      const uri = pathToFileURL(span.file).href;
      (changes[uri] ??= []).push({ range: rangeOf(span.text, span.start, span.end), newText: newName });
    }
    return { changes };
  });

  connection.onCodeLens(({ textDocument }) => {
    const ref = ws?.itemAt(pathOf(textDocument.uri));
    if (ref?.kind !== "directive") return [];
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return [{ range, command: { title: "Preview what the model receives", command: "rye.preview", arguments: [textDocument.uri] } }];
  });

  connection.onExecuteCommand(async ({ command, arguments: args }) => {
    if (command !== "rye.preview" || typeof args?.[0] !== "string") return null;
    previews.add(args[0]);
    return preview(args[0], args[1] !== false);
  });

  /** The preview of a directive buffer, with the sample inputs kept beside it (`<name>.inputs.json`). */
  async function preview(uri: string, thread = true): Promise<PreviewResult | null> {
    const ref = ws?.itemAt(pathOf(uri));
    if (!ws || ref?.kind !== "directive") return null;
    const samples = pathOf(uri).replace(/\.md$/, ".inputs.json");
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
    return previewDirective(ws.sources(), { id: ref.id, inputs, thread }, ws.hookConfig);
  }

  async function sendPreview(uri: string): Promise<void> {
    try {
      const result = await preview(uri);
      if (result) await connection.sendNotification("rye/preview", { uri, result });
    } catch (e) {
      connection.console.error(`rye: preview of ${uri} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  connection.onShutdown(() => undefined);
  documents.listen(connection);
  connection.listen();
}

/** The largest `<name>.inputs.json` a preview reads. */
const SAMPLE_INPUTS_MAX_BYTES = 1024 * 1024;

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
