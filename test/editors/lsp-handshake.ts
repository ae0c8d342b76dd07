// Starts a server command the way an editor config does and speaks LSP to it over stdio: the
// `initialize` answer, then the diagnostics of an opened directive.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";

export interface Handshake {
  serverName: string | undefined;
  hasCompletion: boolean;
  codes: unknown[];
}

/** Runs `command args` in `cwd`, initialises it for `root` and collects the diagnostics of `file`. */
export async function handshake(command: string, args: string[], cwd: string, root: string, file: string, env: NodeJS.ProcessEnv): Promise<Handshake> {
  const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<never>((_, reject) => child.on("exit", (code) => reject(new Error(`server exited ${code}: ${stderr}`))));
  exited.catch(() => undefined); // killed after a good handshake: not an error
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const uri = pathToFileURL(file).href;
  const diagnostics = new Promise<unknown[]>((resolve) =>
    connection.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: { code?: unknown }[] }) => {
      if (p.uri === uri && p.diagnostics.length > 0) resolve(p.diagnostics.map((d) => d.code));
    }),
  );
  connection.listen();
  try {
    const init = (await Promise.race([
      connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null }),
      exited,
    ])) as { serverInfo?: { name?: string }; capabilities: { completionProvider?: unknown } };
    await connection.sendNotification("initialized", {});
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "markdown", version: 1, text: readFileSync(file, "utf8") } });
    const codes = await Promise.race([diagnostics, exited]);
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    return { serverName: init.serverInfo?.name, hasCompletion: init.capabilities.completionProvider !== undefined, codes };
  } finally {
    connection.dispose();
    child.kill();
  }
}
