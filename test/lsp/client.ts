// A real LSP client over stdio for tests: spawns `rye lsp` and speaks JSON-RPC to it.
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from "vscode-languageserver-protocol/node";

const bin = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));

export interface LspClient {
  connection: ProtocolConnection;
  /** The diagnostics last published for a file, waiting for the next publication that passes `until`. */
  diagnosticsFor(file: string, until?: (d: { code?: unknown }[]) => boolean): Promise<{ code?: unknown; message: string; range: unknown }[]>;
  uri(file: string): string;
  close(): Promise<void>;
}

/** Starts `rye lsp` for a project folder (with `env` added to the environment) and initialises it. */
export async function startClient(root: string, env: NodeJS.ProcessEnv = {}): Promise<LspClient> {
  const child = spawn(process.execPath, [bin, "lsp", "--stdio"], { cwd: root, env: { ...process.env, USER_SPACE: root, ...env }, stdio: ["pipe", "pipe", "inherit"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published = new Map<string, { code?: unknown; message: string; range: unknown }[]>();
  const waiters: (() => void)[] = [];
  connection.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: { code?: unknown; message: string; range: unknown }[] }) => {
    published.set(p.uri, p.diagnostics);
    for (const w of waiters.splice(0)) w();
  });
  connection.listen();
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification("initialized", {});
  const uri = (file: string) => pathToFileURL(file).href;
  return {
    connection,
    uri,
    async diagnosticsFor(file, until = () => true) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const list = published.get(uri(file));
        if (list && until(list)) return list;
        if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${file}: ${JSON.stringify(list)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 500);
        });
      }
    },
    async close() {
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      connection.dispose();
      child.kill();
    },
  };
}
