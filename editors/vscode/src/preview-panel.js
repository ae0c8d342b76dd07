// The "Rye preview" panel follows the directive in the active editor and updates as you type.
//
// The server sends `rye/preview` after every check, but only for directives whose preview was asked
// for once (`rye.preview`). So the panel asks for the active directive's preview when it becomes
// active: no click on the code lens is needed before the preview follows typing.
const vscode = require("vscode");
const { isDirective, formatPreview } = require("./preview-text.js");

class PreviewPanel {
  /** @param {vscode.OutputChannel} channel */
  constructor(channel) {
    this.channel = channel;
    /** The directive whose preview is shown (a URI string, as the server sends it back). */
    this.uri = undefined;
    this.revealed = false;
    this.subscriptions = [channel];
  }

  /** Starts following the active editor once the client runs. */
  attach(client) {
    this.client = client;
    this.subscriptions.push(client.onNotification("rye/preview", ({ uri, result }) => this.show(uri, result, false)));
    this.subscriptions.push(vscode.window.onDidChangeActiveTextEditor((editor) => void this.follow(editor?.document)));
    void this.follow(vscode.window.activeTextEditor?.document);
  }

  async follow(document) {
    if (!document || document.uri.scheme !== "file" || !isDirective(document.uri.fsPath) || !this.client) return;
    const uri = document.uri.toString();
    this.uri = uri;
    try {
      const result = await this.client.sendRequest("workspace/executeCommand", { command: "rye.preview", arguments: [uri] });
      this.show(uri, result, false);
    } catch {
      // The server stopped or the file is no directive: the panel keeps what it showed.
    }
  }

  /** Shows a preview if it is the followed directive's; `reveal` (a click) also makes it the followed one. */
  show(uri, result, reveal) {
    if (reveal) this.uri = uri;
    if (uri !== this.uri || !result) return;
    this.channel.replace(formatPreview(result));
    // Brought into view the first time and on a click, never stealing focus from the editor.
    if (reveal || !this.revealed) this.channel.show(true);
    this.revealed = true;
  }

  dispose() {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}

module.exports = { PreviewPanel, isDirective };
