// Starts `rye lsp` for the workspace and shows the prompt preview beside the directive.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rye").get("command");
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  client = new LanguageClient(
    "rye",
    "Rye",
    { command, args, options: { cwd, shell: process.platform === "win32" } },
    {
      documentSelector: [
        { scheme: "file", pattern: "**/.ai/**/*.md" },
        { scheme: "file", pattern: "**/.ai/**/*.{yaml,yml}" },
      ],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/{.ai/**,rye.config.json,package.json}") },
    },
  );
  const panel = vscode.window.createOutputChannel("Rye preview");
  const show = (result) => {
    panel.clear();
    if (result?.status !== "success") panel.append(JSON.stringify(result, null, 2));
    else panel.append([`── system ──`, result.system, ...result.messages.flatMap((m) => [`── ${m.role} ──`, m.content])].join("\n"));
    panel.show(true);
  };
  context.subscriptions.push(panel);
  await client.start();
  // The server re-sends the preview after every check, so it follows typing.
  client.onNotification("rye/preview", ({ result }) => show(result));
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
