// `rye lsp`: the compiler's diagnostics, completion, hover, navigation, rename and a prompt preview
// for directives, knowledge, tool YAMLs and hook_conditions.yaml, and checks, completion and runs
// for test files, over LSP on stdio. Each feature lives in features/; this file answers `initialize`
// and wires them to one session.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { createConnection, ProposedFeatures, TextDocumentSyncKind, type Connection } from "vscode-languageserver/node";
import { registerCompletion } from "./features/completion.js";
import { registerDiagnostics } from "./features/diagnostics.js";
import { registerHover } from "./features/hover.js";
import { registerNavigation } from "./features/navigation.js";
import { registerPreview } from "./features/preview.js";
import { registerRename } from "./features/rename.js";
import { registerTestFiles } from "./features/test-files.js";
import { fileOf, Session } from "./session.js";
import { Workspace } from "./workspace.js";

/** The nearest folder at or above `from` holding `.ai/`, else `from` itself. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".ai"))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

/** Starts the server on this process's stdin and stdout; resolves when the client shuts it down. */
export function startServer(connection: Connection = createConnection(ProposedFeatures.all)): void {
  const s = new Session(connection);
  connection.onInitialize((params) => {
    const folder = params?.workspaceFolders?.[0]?.uri ?? params?.rootUri;
    try {
      // A root that is no file: URI (or none) is the server's own folder.
      s.ws = new Workspace(projectRoot((typeof folder === "string" && fileOf(folder)) || process.cwd()));
      for (const ready of s.onRoot) ready(s.ws.root);
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
        executeCommandProvider: { commands: ["rye.preview", "rye.test"] },
      },
      serverInfo: { name: "rye", version: "lsp" },
    };
  });
  // Test files answer completion before the item completion, which would read them as tool YAML.
  for (const register of [registerDiagnostics, registerTestFiles, registerCompletion, registerHover, registerNavigation, registerRename, registerPreview]) register(s);
  connection.onShutdown(() => undefined);
  s.documents.listen(connection);
  connection.listen();
}
