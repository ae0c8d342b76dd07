// What the language server's features share: the connection, the open buffers, the project and the
// diagnostics last published. Each feature module registers its handlers on one session.
import { fileURLToPath, pathToFileURL } from "node:url";
import { TextDocuments, type Connection } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { DeclaredInput } from "../parse/directive-data.js";
import type { FileSpan } from "./navigation.js";
import { rangeOf } from "./positions.js";
import { sharingHandlers } from "./shared-handlers.js";
import type { Workspace } from "./workspace.js";

/**
 * The file a document URI names, or null for any other URI (untitled:, a remote host, a malformed
 * one): the server answers requests about those with nothing instead of failing.
 */
export function fileOf(uri: unknown): string | null {
  if (typeof uri !== "string" || !uri.startsWith("file:")) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

/** A request's document, when the server has a project and the URI names a file it can read. */
export interface OpenDocument {
  ws: Workspace;
  file: string;
  text: string;
}

export class Session {
  readonly documents = new TextDocuments(TextDocument);
  /** Null until `initialize`, and when the root holds no project the server can load. */
  ws: Workspace | null = null;
  /** Called with the project's root once `initialize` found one. */
  readonly onRoot: ((root: string) => void)[] = [];
  /** The declared inputs of each project directive as its last analysis gave them, by id. */
  readonly analysedInputs = new Map<string, DeclaredInput[]>();
  /** The diagnostics last sent, by file: hover explains the ones under the cursor. */
  published = new Map<string, Diagnostic[]>();
  /** Called after every publication, once the diagnostics above are current. */
  readonly afterPublish: (() => void)[] = [];

  /** Code lenses, commands and completion are answered by several features: see shared-handlers.ts. */
  readonly connection: Connection;

  constructor(connection: Connection) {
    this.connection = sharingHandlers(connection);
  }

  /** For handlers: the file of a document URI, or "" (no item, no text) for any other. */
  pathOf(uri: string): string {
    return fileOf(uri) ?? "";
  }

  /** The editor's buffer of a document, else the workspace's copy of the file. */
  textOf(uri: string): string | undefined {
    const file = fileOf(uri);
    return file === null ? undefined : (this.documents.get(uri)?.getText() ?? this.ws?.textOf(file));
  }

  /** The workspace, file and text a request is about, or null when there is nothing to answer. */
  open(uri: string): OpenDocument | null {
    const text = this.textOf(uri);
    return this.ws && text !== undefined ? { ws: this.ws, file: this.pathOf(uri), text } : null;
  }
}

/** A span as an LSP location. */
export function locationOf(span: FileSpan): { uri: string; range: ReturnType<typeof rangeOf> } {
  return { uri: pathToFileURL(span.file).href, range: rangeOf(span.text, span.start, span.end) };
}
