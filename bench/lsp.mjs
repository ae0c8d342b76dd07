// Keystroke-to-diagnostics latency of `rye lsp`: a real client over stdio types into a directive of a
// project (one character per change, as an editor sends them) and times each change until the server
// publishes that file's diagnostics. Returns the median and p95 in ms.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/** The largest directive of a project (the costliest file to re-check). */
function largestDirective(project) {
  const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith(".md") ? [join(d, e.name)] : []));
  return walk(join(project, ".ai", "directives")).sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
}

/**
 * A fresh `rye lsp --stdio` from spawn to its first diagnostics: initialize, initialized, then the
 * project's largest directive opened. Returns the milliseconds from spawn to that file's diagnostics.
 */
export async function firstDiagnostics(rye, project, env) {
  const started = performance.now();
  const child = spawn(process.execPath, [rye, "lsp", "--stdio"], { cwd: project, env, stdio: ["pipe", "pipe", "ignore"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const file = largestDirective(project);
  const uri = pathToFileURL(file).href;
  const published = new Promise((resolve) => connection.onNotification("textDocument/publishDiagnostics", (p) => p.uri === uri && resolve()));
  connection.listen();
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(project).href, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification("initialized", {});
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "markdown", version: 1, text: readFileSync(file, "utf8") } });
  await published;
  const ms = performance.now() - started;
  connection.dispose();
  child.kill();
  await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
  return ms;
}

export async function benchLsp(rye, project, env, keystrokes = 60) {
  const child = spawn(process.execPath, [rye, "lsp", "--stdio"], { cwd: project, env, stdio: ["pipe", "pipe", "ignore"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const file = largestDirective(project);
  const uri = pathToFileURL(file).href;
  let waiting = null;
  connection.onNotification("textDocument/publishDiagnostics", (p) => {
    if (p.uri === uri && waiting) waiting();
  });
  connection.listen();
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(project).href, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification("initialized", {});
  const published = () => new Promise((resolve) => (waiting = resolve));
  let text = readFileSync(file, "utf8");
  let first = published();
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "markdown", version: 1, text } });
  await first;
  const times = [];
  // Type a word at the end of the body, then delete it, one character per change.
  const word = "{input:typed_by_the_benchmark}".slice(0, keystrokes / 2);
  const edits = [...[...word].map((c) => (t) => t + c), ...[...word].map(() => (t) => t.slice(0, -1))];
  for (const [i, edit] of edits.entries()) {
    text = edit(text);
    const done = published();
    const t = performance.now();
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version: i + 2 }, contentChanges: [{ text }] });
    await done;
    times.push(performance.now() - t);
  }
  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  connection.dispose();
  child.kill();
  return { file, keystrokes: times.length, medianMs: percentile(times, 50), p95Ms: percentile(times, 95), maxMs: Math.max(...times) };
}
