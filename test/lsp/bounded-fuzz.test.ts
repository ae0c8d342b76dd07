// Decision #25: the language server survives every file and request. Random documents (nested
// thousands deep in every recursive syntax, huge, odd text), random URIs (non-file schemes, remote
// hosts, bad escapes, paths outside the workspace) and random requests (unknown methods, malformed
// params, positions out of range) are sent to a real `rye lsp` over stdio; after each batch it
// must still answer a normal request, its process must be alive, and nothing may have reached the
// last-resort handler (an error no handler caught).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from "vscode-languageserver-protocol/node";

const bin = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));
const GREET = '# greet\n\n```xml\n<directive name="greet" version="1.0.0">\n  <metadata><description>Greets.</description></metadata>\n  <inputs><input name="name" type="string" required="true">Who</input></inputs>\n</directive>\n```\n\nHello {input:name}.\n';

let root: string;
let child: ChildProcess;
let connection: ProtocolConnection;
let stderr = "";
let version = 1;

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms))]);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "rye-lsp-fuzz-"));
  mkdirSync(join(root, ".ai", "directives"), { recursive: true });
  mkdirSync(join(root, ".ai", "knowledge"), { recursive: true });
  mkdirSync(join(root, ".ai", "tools"), { recursive: true });
  writeFileSync(join(root, ".ai", "directives", "greet.md"), GREET);
  // The file of the check after each batch: no action touches it.
  writeFileSync(join(root, ".ai", "directives", "anchor.md"), GREET.replace('name="greet"', 'name="anchor"'));
  child = spawn(process.execPath, [bin, "lsp", "--stdio"], { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: root, USER_SPACE: root }, stdio: ["pipe", "pipe", "pipe"] });
  child.stderr!.on("data", (b: Buffer) => (stderr += b.toString()));
  connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  connection.listen();
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification("initialized", {});
}, 30_000);

afterAll(async () => {
  try {
    await within(connection.sendRequest("shutdown"), 5000, "shutdown");
    await connection.sendNotification("exit");
  } catch {
    // The assertions already said what went wrong.
  }
  connection.dispose();
  child.kill();
  rmSync(root, { recursive: true, force: true });
});

// Documents nested `depth` deep in each recursive syntax the server reads.
const nest = (open: string, close: string, depth: number, leaf = "1") => open.repeat(depth) + leaf + close.repeat(depth);
const directive = (metadata: string, body: string) => `# t\n\n\`\`\`xml\n<directive name="t" version="1.0.0">\n  <metadata><description>d</description></metadata>\n${metadata}</directive>\n\`\`\`\n\n${body}\n`;
const DOCUMENTS: ((depth: number) => string)[] = [
  (n) => directive("", `\`rye_execute(item_id="x", parameters=${nest('{"a": ', "}", n, '"x"')})\``),
  (n) => directive("", `\`rye_execute(item_id="x", parameters={"a": ${nest("[", "]", n)}})\``),
  (n) => directive(`  <notes>${nest("<n>", "</n>", n, "x")}</notes>\n`, "Body."),
  (n) => directive(`  <inputs><input name="a" type="object" required="false" default='${nest('{"a": ', "}", n)}'>a</input></inputs>\n`, "{input:a}"),
  (n) => `\`\`\`yaml\nname: k\nextra: ${nest("[", "]", n)}\n\`\`\`\n\n# K\n`,
  (n) => `\`\`\`yaml\nname: k\nextra:\n${Array.from({ length: Math.min(n, 1500) }, (_, i) => `${" ".repeat(i + 1)}-`).join("\n")} 1\n\`\`\`\n`,
  (n) => `__tool_type__ = "python"\nCONFIG_SCHEMA = ${nest('{"a": ', "}", n)}\n`,
  (n) => `export const __tool_type__ = "javascript";\nexport const CONFIG_SCHEMA = ${nest("{a: ", "}", n)};\n`,
  (n) => `version: "1.0.0"\ntool_type: primitive\nconfig_schema: ${nest("{a: ", "}", n)}\n`,
  (n) => "`rye_execute(".repeat(n) + "{input:".repeat(n),
  () => "x".repeat(2 * 1024 * 1024),
  () => "\u0000\ud800\u2028```xml\n<directive",
];
const FILES = [".ai/directives/t.md", ".ai/directives/greet.md", ".ai/knowledge/k.md", ".ai/tools/t.py", ".ai/tools/t.js", ".ai/tools/t.yaml", ".ai/config/agent/hook_conditions.yaml", "elsewhere/x.md"];
const uriArb = fc.oneof(
  fc.constantFrom(...FILES).map((f) => pathToFileURL(join(root, f)).href),
  fc.constantFrom("untitled:Untitled-1", "file://remote-host/share/x.md", "file:///%E0%A4%A", "file:///tmp/%00/x.md", "http://example.com/a.md", "", "file:", "file:///", "vscode-notebook-cell:/x#1", "file:///../../etc/passwd"),
  fc.string({ maxLength: 40 }),
);
const posArb = fc.oneof(
  fc.record({ line: fc.integer({ min: -5, max: 10_000_000 }), character: fc.integer({ min: -5, max: 10_000_000 }) }),
  fc.constantFrom(null, {}, { line: "x", character: [] }, 7),
);
const textArb = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: DOCUMENTS.length - 1 }), fc.integer({ min: 1, max: 10_000 })).map(([k, n]) => DOCUMENTS[k]!(n)),
  fc.string({ maxLength: 200 }),
);
const METHODS = ["textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/references", "textDocument/prepareRename", "textDocument/rename", "textDocument/codeLens", "workspace/executeCommand", "rye/unknown", "textDocument/formatting", "$/weird"];
const actionArb = fc.oneof(
  fc.record({ kind: fc.constant("open" as const), uri: uriArb, text: textArb }),
  fc.record({ kind: fc.constant("change" as const), uri: uriArb, text: textArb, range: fc.option(fc.record({ start: posArb, end: posArb }), { nil: undefined }) }),
  fc.record({ kind: fc.constant("close" as const), uri: uriArb }),
  fc.record({ kind: fc.constant("request" as const), method: fc.constantFrom(...METHODS), uri: uriArb, position: posArb, junk: fc.oneof(fc.constant(undefined), fc.anything({ maxDepth: 3 })) }),
  fc.record({ kind: fc.constant("notify" as const), method: fc.constantFrom("textDocument/didSave", "workspace/didChangeWatchedFiles", "rye/nothing", "textDocument/didOpen"), junk: fc.anything({ maxDepth: 3 }) }),
);

type Action = typeof actionArb extends fc.Arbitrary<infer A> ? A : never;

async function perform(a: Action): Promise<void> {
  if (a.kind === "open") await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: a.uri, languageId: "markdown", version: version++, text: a.text } });
  else if (a.kind === "change") {
    const change = a.range ? { range: a.range, text: a.text } : { text: a.text };
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri: a.uri, version: version++ }, contentChanges: [change] });
  } else if (a.kind === "close") await connection.sendNotification("textDocument/didClose", { textDocument: { uri: a.uri } });
  else if (a.kind === "notify") await connection.sendNotification(a.method, a.junk as object);
  else {
    const params = a.junk !== undefined ? a.junk : a.method === "workspace/executeCommand" ? { command: "rye.preview", arguments: [a.uri] } : { textDocument: { uri: a.uri }, position: a.position, newName: "renamed", context: { includeDeclaration: true } };
    // An answer or an error response: both are fine; silence is not.
    await within(connection.sendRequest(a.method, params as object).catch(() => undefined), 20_000, a.method);
  }
}

/** A normal request the server must still answer: hover over the input of anchor.md. */
async function stillServes(): Promise<void> {
  expect(child.exitCode).toBeNull();
  const hover = (await within(
    connection.sendRequest("textDocument/hover", { textDocument: { uri: pathToFileURL(join(root, ".ai/directives/anchor.md")).href }, position: { line: 9, character: 14 } }),
    20_000,
    "the check's hover",
  )) as { contents: { value: string } } | null;
  expect(hover?.contents.value).toContain("name");
}

describe("rye lsp under random files, URIs and requests", () => {
  test("answers a normal request after every batch, and nothing escapes a handler (property)", async () => {
    await stillServes();
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, { minLength: 1, maxLength: 8 }), async (actions) => {
        for (const a of actions) await perform(a);
        await stillServes();
        expect(stderr).not.toMatch(/rye lsp: (uncaught error|unhandled rejection)/);
      }),
      { numRuns: 40, seed: 25, endOnFailure: true },
    );
  }, 600_000);

  test("a directive whose call nests 5,000 deep gets RYE1008 where the limit is passed, and the server goes on", async () => {
    const file = join(root, ".ai/directives/deep.md");
    const uri = pathToFileURL(file).href;
    const got = new Promise<{ code?: unknown; range: { start: { line: number; character: number } } }[]>((resolve) => {
      const sub: { dispose(): void } = connection.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: { code?: unknown; range: { start: { line: number; character: number } } }[] }): void => {
        if (p.uri === uri && p.diagnostics.some((d) => d.code === "RYE1008")) sub.dispose(), resolve(p.diagnostics);
      });
    });
    const text = DOCUMENTS[0]!(5000).replace('name="t"', 'name="deep"');
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "markdown", version: version++, text } });
    const diagnostics = await within(got, 30_000, "diagnostics of deep.md");
    const line = text.split("\n").findIndex((l) => l.includes("rye_execute"));
    // The bracket that opens level 129: after `rye_execute(item_id="x", parameters=` and 128 levels of `{"a": `.
    expect(diagnostics.find((d) => d.code === "RYE1008")!.range.start).toEqual({ line, character: '`rye_execute(item_id="x", parameters='.length + 128 * 6 });
    await stillServes();
  }, 60_000);
});
