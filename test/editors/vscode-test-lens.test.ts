// The VS Code extension passes a test file's code lens (`rye.test`, with the file's URI and a case
// name) through to the server unchanged, and shows the run: the report in the "Rye tests" output and
// a one-line verdict. Checked on editors/vscode/src/extension.js with vscode and the language client
// stood in for; the server's side of `rye.test` is test/lsp/test-files.test.ts.
import Module, { createRequire } from "node:module";
import { expect, test } from "vitest";

const require = createRequire(import.meta.url);

type Middleware = { executeCommand: (command: string, args: unknown[], next: (c: string, a: unknown[]) => Promise<unknown>) => Promise<unknown> };

/** Activates extension.js with stand-ins; returns the client's middleware and what the window showed. */
async function activate() {
  const channels = new Map<string, { text: string; shown: number }>();
  const messages: string[] = [];
  let middleware: Middleware | undefined;
  const none = { dispose() {} };
  const vscode = {
    workspace: {
      workspaceFolders: [],
      getConfiguration: () => ({ get: () => ["node", "server.js"] }),
      createFileSystemWatcher: () => none,
      onDidChangeConfiguration: () => none,
    },
    window: {
      activeTextEditor: undefined,
      onDidChangeActiveTextEditor: () => none,
      createOutputChannel: (name: string) => {
        const c = { text: "", shown: 0 };
        channels.set(name, c);
        return { replace: (t: string) => void (c.text = t), show: () => void c.shown++, dispose() {} };
      },
      showInformationMessage: async (m: string) => void messages.push(`info: ${m}`),
      showWarningMessage: async (m: string) => void messages.push(`warning: ${m}`),
      showErrorMessage: async (m: string) => void messages.push(`error: ${m}`),
    },
  };
  class LanguageClient {
    constructor(_id: string, _name: string, _server: unknown, options: { middleware: Middleware }) {
      middleware = options.middleware;
    }
    start = async () => undefined;
    onNotification = () => none;
    sendRequest = async () => null;
  }
  const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  mod._load = function (request: string, ...rest: unknown[]) {
    if (request === "vscode") return vscode;
    if (request === "vscode-languageclient/node") return { LanguageClient };
    return load.call(this, request, ...rest);
  };
  try {
    const path = require.resolve("../../editors/vscode/src/extension.js");
    delete require.cache[path];
    const ext = require(path) as { activate(context: { subscriptions: unknown[] }): Promise<void> };
    await ext.activate({ subscriptions: [] });
  } finally {
    mod._load = load;
  }
  return { middleware: middleware!, channels, messages };
}

test("a test lens's command reaches the server with its arguments, and its report is shown with a verdict", async () => {
  const { middleware, channels, messages } = await activate();
  const uri = "file:///p/.ai/tests/directives/t/hi.test.yaml";
  const sent: [string, unknown[]][] = [];
  const failed = { uri, status: "failed", counts: { passed: 1, failed: 1, skipped: 0, total: 2 }, text: "✗ directive t/hi › expects a goodbye\n" };
  const answer = await middleware.executeCommand("rye.test", [uri, "expects a goodbye"], async (c, a) => (sent.push([c, a]), failed));
  expect(sent).toEqual([["rye.test", [uri, "expects a goodbye"]]]);
  expect(answer).toBe(failed);
  expect(channels.get("Rye tests")).toEqual({ text: failed.text, shown: 1 });
  expect(messages).toEqual(["warning: Rye tests: 1 failed, 1 passed"]);

  await middleware.executeCommand("rye.test", [uri], async () => ({ uri, status: "passed", counts: { passed: 2, failed: 0 }, text: "ok\n" }));
  expect(channels.get("Rye tests")!.text).toBe("ok\n");
  expect(messages.at(-1)).toBe("info: Rye tests: 2 passed");
});

test("a preview's command leaves the test output alone", async () => {
  const { middleware, channels } = await activate();
  await middleware.executeCommand("rye.preview", ["file:///p/.ai/directives/t/hi.md"], async () => ({ status: "success", prompt: "Hi" }));
  expect(channels.has("Rye tests")).toBe(false);
  expect(channels.get("Rye preview")!.text).toBe("Hi");
});
