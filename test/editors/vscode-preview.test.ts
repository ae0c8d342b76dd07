// The preview follows typing with no click first. The server sends `rye/preview` after each check,
// but only for directives whose preview was asked for once (src/lsp/server.ts keeps them in a set
// that `rye.preview` fills). So the extension's panel asks for the active directive's preview when
// it becomes active. Checked in two halves: the panel (editors/vscode/src/preview-panel.js, with
// vscode stood in for) sends that request and shows what comes back; the real server, once asked,
// sends a new preview after an edit.
import { spawn } from "node:child_process";
import Module, { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
import { afterAll, describe, expect, test } from "vitest";
import { makeProject, serverEnv } from "./project.js";

const require = createRequire(import.meta.url);
type Listener = (e: unknown) => void;

/** Loads preview-panel.js with a stand-in `vscode` whose active editor and output channel are recorded. */
function loadPanel(activePath: string | undefined) {
  const editorListeners: Listener[] = [];
  const shown: string[] = [];
  let reveals = 0;
  const doc = (fsPath: string) => ({ uri: { scheme: "file", fsPath, toString: () => pathToFileURL(fsPath).href } });
  const vscode = {
    window: {
      activeTextEditor: activePath ? { document: doc(activePath) } : undefined,
      onDidChangeActiveTextEditor: (l: Listener) => (editorListeners.push(l), { dispose() {} }),
    },
  };
  const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  mod._load = function (request: string, ...rest: unknown[]) {
    return request === "vscode" ? vscode : load.call(this, request, ...rest);
  };
  try {
    const path = require.resolve("../../editors/vscode/src/preview-panel.js");
    delete require.cache[path];
    const { PreviewPanel } = require(path) as { PreviewPanel: new (c: unknown) => { attach(c: unknown): void; show(uri: string, r: unknown, reveal: boolean): void } };
    const channel = { replace: (t: string) => shown.push(t), show: () => reveals++, dispose() {} };
    return { panel: new PreviewPanel(channel), shown, reveals: () => reveals, activate: (p: string) => editorListeners.forEach((l) => l({ document: doc(p) })) };
  } finally {
    mod._load = load;
  }
}

/** A client that records requests and lets the test send `rye/preview` notifications. */
function fakeClient(answer: (uri: string) => unknown) {
  const requests: { method: string; params: { command: string; arguments: string[] } }[] = [];
  let notify: Listener = () => {};
  return {
    requests,
    notify: (p: unknown) => notify(p),
    client: {
      onNotification: (method: string, l: Listener) => (method === "rye/preview" ? (notify = l) : undefined, { dispose() {} }),
      sendRequest: async (method: string, params: { command: string; arguments: string[] }) => (requests.push({ method, params }), answer(params.arguments[0]!)),
    },
  };
}

const success = (text: string) => ({ status: "success", id: "t/hello", system: "sys", messages: [{ role: "user", content: text }] });
const tick = () => new Promise((r) => setTimeout(r, 10));

describe("the preview panel (editors/vscode/src/preview-panel.js)", () => {
  test("asks for the active directive's preview on start and shows it, with no click", async () => {
    const dir = "/p/.ai/directives/t/hello.md";
    const { panel, shown, reveals } = loadPanel(dir);
    const c = fakeClient(() => success("first"));
    panel.attach(c.client);
    await tick();
    expect(c.requests).toEqual([{ method: "workspace/executeCommand", params: { command: "rye.preview", arguments: [pathToFileURL(dir).href] } }]);
    expect(shown.at(-1)).toContain("first");
    expect(reveals()).toBe(1);
    // Each check after an edit: the server's notification replaces the text, without stealing focus again.
    c.notify({ uri: pathToFileURL(dir).href, result: success("typed") });
    expect(shown.at(-1)).toContain("typed");
    expect(reveals()).toBe(1);
    // Another directive's preview (asked for earlier) does not replace the followed one.
    c.notify({ uri: pathToFileURL("/p/.ai/directives/t/other.md").href, result: success("other") });
    expect(shown.at(-1)).toContain("typed");
  });

  test("follows the editor that becomes active; asks nothing for files that are not directives", async () => {
    const { panel, shown, activate } = loadPanel("/p/README.md");
    const c = fakeClient((uri) => success(uri));
    panel.attach(c.client);
    activate("/p/notes.md");
    activate("/p/.ai/tools/x.yaml");
    await tick();
    expect(c.requests).toEqual([]);
    activate("/p/.ai/directives/t/b.md");
    await tick();
    expect(c.requests.map((r) => r.params.arguments[0])).toEqual([pathToFileURL("/p/.ai/directives/t/b.md").href]);
    expect(shown.at(-1)).toContain("b.md");
  });
});

describe("the server, once the preview was asked for, sends a new one after an edit", () => {
  const p = makeProject("here");
  const child = spawn(p.bin!, ["lsp", "--stdio"], { cwd: p.root, env: serverEnv(p.root), stdio: ["pipe", "pipe", "inherit"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const previews: { uri: string; result: { messages?: { content: string }[] } }[] = [];
  connection.onNotification("rye/preview", (n: (typeof previews)[number]) => void previews.push(n));
  connection.listen();
  afterAll(() => {
    connection.dispose();
    child.kill();
  });
  const uri = pathToFileURL(p.directive).href;
  const text = readFileSync(p.directive, "utf8");

  test("the edited text is in the next rye/preview", async () => {
    await connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(p.root).href, capabilities: {}, workspaceFolders: null });
    await connection.sendNotification("initialized", {});
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "markdown", version: 1, text } });
    // What the panel sends when the directive becomes active.
    const first = (await connection.sendRequest("workspace/executeCommand", { command: "rye.preview", arguments: [uri] })) as { status: string; messages: { content: string }[] };
    expect(first.status).toBe("success");
    expect(JSON.stringify(first.messages)).toContain("Say hello.");
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: text.replace("Say hello.", "Say goodbye.") }] });
    const deadline = Date.now() + 15_000;
    while (!previews.some((n) => n.uri === uri && JSON.stringify(n.result).includes("Say goodbye.")) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(previews.filter((n) => n.uri === uri).map((n) => JSON.stringify(n.result).includes("Say goodbye."))).toContain(true);
  }, 60_000);
});
