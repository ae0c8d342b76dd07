// Which command starts the language server for a workspace folder.
//
// Only the project's own install of rye-build (or a command the user set) is ever run. The first
// version ran `npx rye lsp`: with no local install and no terminal on stdin, npx fetched and ran an
// unrelated npm package that happens to be called `rye`. Nothing here downloads anything; when
// there is no install, the caller shows how to make one.
const { existsSync } = require("node:fs");
const { dirname, join } = require("node:path");

const INSTALL = "npm install --save-dev rye-build";

/**
 * @typedef {{ command: string, args: string[], shell: boolean, from: "setting" | "bin" | "script" }} ServerCommand
 * @typedef {{ error: string, install: string }} NoServer
 */

/**
 * @param {string | undefined} folder the workspace folder's path
 * @param {unknown} configured the `rye.command` setting ([] or unset: find the project's install)
 * @param {{ platform?: string, exists?: (path: string) => boolean }} [env] for tests
 * @returns {ServerCommand | NoServer}
 */
function resolveServer(folder, configured, env = {}) {
  const platform = env.platform ?? process.platform;
  const exists = env.exists ?? existsSync;
  // Windows runs `.cmd` shims (and a bare command name) only through a shell.
  const shell = platform === "win32";
  if (Array.isArray(configured) && configured.length > 0 && configured.every((a) => typeof a === "string" && a !== "")) {
    const [command, ...args] = configured;
    return { command, args, shell, from: "setting" };
  }
  if (!folder) return { error: "Rye: open the folder of a project that has rye-build installed.", install: INSTALL };
  // The folder or the nearest one above holding an install, as Node finds packages (a workspace
  // hoists rye-build to its root).
  for (let dir = folder; dir; dir = dirname(dir) === dir ? undefined : dirname(dir)) {
    const bin = join(dir, "node_modules", ".bin", shell ? "rye-build.cmd" : "rye-build");
    if (exists(bin)) return { command: bin, args: ["lsp", "--stdio"], shell, from: "bin" };
    // An install whose bin links were not made (`npm install --no-bin-links`, some copies of node_modules).
    const script = join(dir, "node_modules", "rye-build", "bin", "rye.js");
    if (exists(script)) return { command: "node", args: [script, "lsp", "--stdio"], shell: false, from: "script" };
  }
  return {
    error:
      `Rye: no rye-build in ${join(folder, "node_modules")} or a folder above. Install it in the project with \`${INSTALL}\` ` +
      "(or from a tarball or git URL: `npm install --save-dev ./rye-build-0.1.0.tgz`), " +
      "or set `rye.command` to the command that starts `rye-build lsp --stdio`.",
    install: INSTALL,
  };
}

module.exports = { resolveServer, INSTALL };
