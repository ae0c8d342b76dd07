import type { Io } from "../io.js";

const USAGE = `Usage: rye lsp [--stdio]

Runs the language server for Rye projects on stdin/stdout (LSP), with or without --stdio. Editors start it themselves; see
docs/editors.md for VS Code, Neovim and Helix.`;

/** `rye lsp`: hand the process's stdio to the language server until the client exits. */
export async function run(args: string[], io: Io): Promise<number> {
  const unknown = args.filter((a) => a !== "--stdio");
  if (unknown.length > 0 || args.includes("--help")) {
    (args.includes("--help") ? io.stdout : io.stderr).write(`${USAGE}\n`);
    return args.includes("--help") ? 0 : 2;
  }
  const [{ startServer }, library] = await Promise.all([import("../../lsp/server.js"), import("vscode-languageserver/node")]);
  // A CommonJS package: Node always gives its exports as the default export, not always as names.
  const { createConnection, ProposedFeatures } = library.default;
  // The last net under every handler (decisions.md #25): an error no handler caught, or a promise
  // no one awaited, is logged on stderr and the server keeps serving instead of exiting. Handlers
  // of requests answer with an error response themselves (vscode-jsonrpc catches what they throw).
  // The exit code is set to failure all the same: a server that still serves ends through the
  // client's `exit` (which sets its own code), while one that can no longer serve ends when its
  // event loop empties, and that end is a failure, never a silent 0.
  const report = (what: string) => (e: unknown) => {
    process.exitCode = 1;
    io.stderr.write(`rye lsp: ${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  };
  process.on("uncaughtException", report("uncaught error"));
  process.on("unhandledRejection", report("unhandled rejection"));
  // stdio whether or not --stdio is given: the only transport rye offers, named explicitly so the
  // library never looks for one in the process's arguments.
  startServer(createConnection(ProposedFeatures.all, process.stdin, process.stdout));
  // The connection ends the process when the client sends `exit`.
  return new Promise<number>(() => undefined);
}
