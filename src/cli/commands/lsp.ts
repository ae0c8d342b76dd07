import type { Io } from "../io.js";

const USAGE = `Usage: rye lsp [--stdio]

Runs the language server for Rye projects on stdin/stdout (LSP). Editors start it themselves; see
docs/editors.md for VS Code, Neovim and Helix.`;

/** `rye lsp`: hand the process's stdio to the language server until the client exits. */
export async function run(args: string[], io: Io): Promise<number> {
  const unknown = args.filter((a) => a !== "--stdio");
  if (unknown.length > 0 || args.includes("--help")) {
    (args.includes("--help") ? io.stdout : io.stderr).write(`${USAGE}\n`);
    return args.includes("--help") ? 0 : 2;
  }
  const { startServer } = await import("../../lsp/server.js");
  // The last net under every handler (decisions.md #25): an error no handler caught, or a promise
  // no one awaited, is logged on stderr and the server keeps serving instead of exiting. Handlers
  // of requests answer with an error response themselves (vscode-jsonrpc catches what they throw).
  const report = (what: string) => (e: unknown) => io.stderr.write(`rye lsp: ${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.on("uncaughtException", report("uncaught error"));
  process.on("unhandledRejection", report("unhandled rejection"));
  startServer();
  // The connection ends the process when the client sends `exit`.
  return new Promise<number>(() => undefined);
}
