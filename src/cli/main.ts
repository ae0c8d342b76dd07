import type { Io } from "./io.js";
import { VERSION } from "../version.js";

export { tuneForLongRun } from "./v8-budget.js";

const HELP = `rye ${VERSION}: a compiler for Rye directives

Usage:
  rye init [DIR]                                   create a small working project (never overwrites)
  rye build [--project DIR] [--out DIR] [--json]   compile .ai/directives into typed modules
  rye preview <id> [--inputs JSON] [--thread]     print what a model receives, from the sources
  rye lsp                                          the language server (editors start it)
  rye test [ids|globs…] [-t NAME] [--out DIR | --bundle FILE]   run the prompt tests in .ai/tests/
  rye verify [paths…] [--trusted-key FILE]         check build output, bundles and Rye items
  rye sign [paths… | kind:id…]                     sign source items in place with this machine's key
  rye keys generate|show|trust                     manage signing keys
  rye bundle [--project DIR] [--out DIR]           build, then write out/bundle.mjs (runs with plain node)
  rye run <bundle> directive <id> [--inputs JSON] [--thread] [--agent NAME]   run a bundled directive
  rye run tool <id> [--params JSON] [--dry-run] [--project DIR] [--out DIR]    run a compiled tool from out/
  rye --version`;

type Command = (args: string[], io: Io) => Promise<number>;

// Commands load on demand so `rye build` never pays for what `rye verify` needs, and vice versa.
const COMMANDS: Record<string, () => Promise<{ run: Command }>> = {
  build: () => import("./commands/build.js"),
  verify: () => import("./commands/verify.js"),
  sign: () => import("./commands/sign.js"),
  keys: () => import("./commands/keys.js"),
  bundle: () => import("./commands/bundle.js"),
  run: () => import("./commands/run.js"),
  init: () => import("./commands/init.js"),
  preview: () => import("./commands/preview.js"),
  lsp: () => import("./commands/lsp.js"),
  test: () => import("./commands/test.js"),
};

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v") {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(`${HELP}\n`);
    return name === undefined ? 2 : 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.stderr.write(`Unknown command '${name}'.\n\n${HELP}\n`);
    return 2;
  }
  return (await load()).run(rest, io);
}
