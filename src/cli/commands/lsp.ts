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
  startServer();
  // The connection ends the process when the client sends `exit`.
  return new Promise<number>(() => undefined);
}
