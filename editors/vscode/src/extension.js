// Starts the project's own `rye-build lsp` for the workspace and keeps the prompt preview of the
// directive being edited in the "Rye preview" panel; a test file's runs go to the "Rye tests" output.
const vscode = require("vscode");
const { existsSync } = require("node:fs");
const { join } = require("node:path");
const { LanguageClient } = require("vscode-languageclient/node");
const { resolveServer } = require("./resolve-server.js");
const { PreviewPanel, isDirective } = require("./preview-panel.js");

/** @type {LanguageClient | undefined} */
let client;

/** The folder holding `.ai/` (the project), else the first one. */
function projectFolder() {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return (folders.find((f) => existsSync(join(f.uri.fsPath, ".ai"))) ?? folders[0])?.uri.fsPath;
}

/** @param {vscode.ExtensionContext} context */
async function start(context, panel) {
  const folder = projectFolder();
  const server = resolveServer(folder, vscode.workspace.getConfiguration("rye").get("command"));
  if ("error" in server) {
    // Say what to do instead of failing silently, and download nothing.
    const choice = await vscode.window.showErrorMessage(server.error, "Copy install command", "Retry");
    if (choice === "Copy install command") await vscode.env.clipboard.writeText(server.install);
    if (choice === "Retry") return start(context, panel);
    return;
  }
  client = new LanguageClient(
    "rye",
    "Rye",
    { command: server.command, args: server.args, options: { cwd: folder, shell: server.shell } },
    {
      documentSelector: [
        { scheme: "file", pattern: "**/.ai/**/*.md" },
        { scheme: "file", pattern: "**/.ai/**/*.{yaml,yml}" },
      ],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/{.ai/**,rye.config.json,package.json}") },
      middleware: {
        // The code lens (and the palette) run `rye.preview`; its answer goes to the panel. A test
        // file's lenses run `rye.test`; its report goes to the "Rye tests" output.
        async executeCommand(command, args, next) {
          const uri = args[0] ?? vscode.window.activeTextEditor?.document.uri.toString();
          const result = await next(command, uri ? [uri, ...args.slice(1)] : args);
          if (command === "rye.preview" && uri) panel.show(uri, result, true);
          if (command === "rye.test" && result) showTestRun(context, result);
          return result;
        },
      },
    },
  );
  try {
    await client.start();
  } catch (e) {
    const how = server.from === "setting" ? "the `rye.command` setting" : server.command;
    void vscode.window.showErrorMessage(`Rye: the language server did not start (${how}): ${e?.message ?? e}`);
    return;
  }
  panel.attach(client);
}

let testOutput;

/** A test lens's run (`rye.test`): the report in the "Rye tests" output, and a one-line verdict. */
function showTestRun(context, run) {
  if (!testOutput) context.subscriptions.push((testOutput = vscode.window.createOutputChannel("Rye tests")));
  testOutput.replace(run.text ?? JSON.stringify(run, null, 2));
  testOutput.show(true);
  const { passed = 0, failed = 0 } = run.counts ?? {};
  if (run.status === "passed") void vscode.window.showInformationMessage(`Rye tests: ${passed} passed`);
  else void vscode.window.showWarningMessage(run.status === "invalid" ? "Rye tests: no case ran, the test file has problems (see Rye tests output)" : `Rye tests: ${failed} failed, ${passed} passed`);
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  const panel = new PreviewPanel(vscode.window.createOutputChannel("Rye preview"));
  context.subscriptions.push(panel);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration("rye.command")) return;
      await client?.stop();
      client = undefined;
      await start(context, panel);
    }),
  );
  await start(context, panel);
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate, isDirective };
