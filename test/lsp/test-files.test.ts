// Test files in the language server: the checks `rye test` makes before a run are published on the
// open file (located, with did-you-mean), completion offers what a case may say, and code lenses run
// one case or all of them against the sources compiled in memory. The server runs in this process,
// spoken to over a pair of streams as an editor speaks to it.
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createConnection } from "vscode-languageserver/node";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from "vscode-languageserver-protocol/node";
import { startServer } from "../../src/lsp/server.js";
import { testUserSpace } from "../helpers/cli.js";
import { projectWith } from "../testing/project.js";

type LspDiagnostic = { code?: string; message: string; range: { start: { line: number; character: number } } };

const GOOD = `cases:
  - name: greets
    inputs:
      who: Ada
    expect:
      prompt:
        contains: Say hi to Ada
  - name: expects a goodbye
    inputs:
      who: Ada
    expect:
      prompt:
        contains: Goodbye
  - name: refuses without who
    refuses:
      missing: [who]
`;

let root: string;
let client: ProtocolConnection;
const published = new Map<string, LspDiagnostic[]>();
const testRuns: unknown[] = [];
let waiters: (() => void)[] = [];
let version = 1;

const uriOf = (rel: string) => pathToFileURL(join(root, rel)).href;
const HI_TEST = ".ai/tests/directives/t/hi.test.yaml";

/** The diagnostics of `rel` once a publication passes `until`. */
async function diagnosticsFor(rel: string, until: (d: LspDiagnostic[]) => boolean): Promise<LspDiagnostic[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = published.get(uriOf(rel));
    if (list && until(list)) return list;
    if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${rel}: ${JSON.stringify(list)}`);
    await new Promise<void>((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, 200);
    });
  }
}

const open = (rel: string, text: string) => client.sendNotification("textDocument/didOpen", { textDocument: { uri: uriOf(rel), languageId: "yaml", version: version++, text } });
const edit = (rel: string, text: string) => client.sendNotification("textDocument/didChange", { textDocument: { uri: uriOf(rel), version: version++ }, contentChanges: [{ text }] });

/** The LSP position just after the first `needle` in `text` (or `delta` characters into it). */
function after(text: string, needle: string, delta = needle.length): { line: number; character: number } {
  const offset = text.indexOf(needle) + delta;
  if (offset < delta) throw new Error(`${needle} not in the text`);
  const lines = text.slice(0, offset).split("\n");
  return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
}

async function labelsAt(rel: string, text: string, needle: string): Promise<string[]> {
  await edit(rel, text);
  const items = (await client.sendRequest("textDocument/completion", { textDocument: { uri: uriOf(rel) }, position: after(text, needle) })) as { label: string }[] | null;
  return (items ?? []).map((i) => i.label);
}

beforeAll(async () => {
  process.env.USER_SPACE = testUserSpace();
  root = projectWith({ "directives/t/hi.test.yaml": GOOD });
  const up = new PassThrough();
  const down = new PassThrough();
  startServer(createConnection(new StreamMessageReader(up), new StreamMessageWriter(down)));
  client = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  client.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: LspDiagnostic[] }) => {
    published.set(p.uri, p.diagnostics);
    for (const w of waiters.splice(0)) w();
  });
  client.onNotification("rye/test", (p: unknown) => void testRuns.push(p));
  client.listen();
  await client.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await client.sendNotification("initialized", {});
}, 30_000);

afterAll(() => {
  waiters = [];
  client?.dispose();
});

describe("diagnostics in an open test file", () => {
  test("an undeclared input, an omitted required one and an unknown field are located, with did-you-mean; fixing them clears them", async () => {
    const text = `cases:
  - name: misspelt input
    inputs:
      whom: Ada
    expect:
      promt:
        contains: hi
`;
    await open(HI_TEST, text);
    const list = await diagnosticsFor(HI_TEST, (l) => l.length >= 3);
    const byCode = Object.fromEntries(list.map((d) => [d.code, d]));
    expect(Object.keys(byCode).sort()).toEqual(["RYE9103", "RYE9104", "RYE9105"]);
    expect(byCode.RYE9103!.range.start).toEqual({ line: 3, character: 6 });
    expect(byCode.RYE9103!.message).toContain("'t/hi' declares no input 'whom'. Did you mean 'who'?");
    expect(byCode.RYE9105!.range.start).toEqual({ line: 5, character: 6 });
    expect(byCode.RYE9105!.message).toMatch(/no field 'promt'.*Did you mean 'prompt'\?/s);
    expect(byCode.RYE9104!.message).toContain("omits the required input 'who'");
    await edit(HI_TEST, GOOD);
    expect(await diagnosticsFor(HI_TEST, (l) => l.length === 0)).toEqual([]);
  });

  test("a test file for an item the project lacks names the nearest id; a file that is no YAML map is RYE9101", async () => {
    const rel = ".ai/tests/directives/t/hii.test.yaml";
    await open(rel, GOOD);
    const [missing] = await diagnosticsFor(rel, (l) => l.length > 0);
    expect(missing).toMatchObject({ code: "RYE9102", range: { start: { line: 0, character: 0 } } });
    expect(missing!.message).toContain("Did you mean 't/hi'?");
    await edit(rel, "- just a list\n");
    expect((await diagnosticsFor(rel, (l) => l.some((d) => d.code === "RYE9101"))).map((d) => d.code)).toContain("RYE9101");
    await client.sendNotification("textDocument/didClose", { textDocument: { uri: uriOf(rel) } });
    expect(await diagnosticsFor(rel, (l) => l.length === 0)).toEqual([]);
  });
});

describe("completion in a test file", () => {
  const base = `cases:
  - name: c
    inputs:
      w
    expect:
      prompt:
        co
    refuses:
      missing:
        - w
`;
  test("offers case keys, the tested item's inputs, fields, checks and refusal kinds where each belongs", async () => {
    expect(await labelsAt(HI_TEST, "cases:\n  - na", "- na")).toEqual(expect.arrayContaining(["name", "inputs", "expect", "refuses", "model", "limit_overrides", "env", "skip", "only"]));
    expect(await labelsAt(HI_TEST, "ca", "ca")).toEqual(["cases"]);
    expect(await labelsAt(HI_TEST, base, "inputs:\n      w")).toEqual(["who", "times", "mood"]);
    const fields = await labelsAt(HI_TEST, base.replace("      prompt:\n        co\n", "      pr\n"), "expect:\n      pr");
    expect(fields).toEqual(["prompt", "body", "content", "raw", "actions", "system", "user", "context", "calls", "metadata"]);
    expect(await labelsAt(HI_TEST, base, "prompt:\n        co")).toEqual(["equals", "contains", "not_contains", "matches", "snapshot"]);
    expect(await labelsAt(HI_TEST, base.replace("      missing:\n        - w\n", "      mi\n"), "refuses:\n      mi")).toEqual(["missing", "type", "unknown", "error", "payload"]);
    expect(await labelsAt(HI_TEST, base, "missing:\n        - w")).toEqual(["who", "times", "mood"]);
    expect(await labelsAt(HI_TEST, "cases:\n  - name: c\n    inputs: { who: Ada, ti", "ti")).toEqual(["who", "times", "mood"]);
    expect(await labelsAt(HI_TEST, "cases:\n  - name: c\n    inputs: { who: A", "who: A")).toEqual([]);
  });

  test("offers knowledge ids in a check of the thread's context, and nothing in a case's name", async () => {
    const text = "cases:\n  - name: c\n    inputs: { who: Ada }\n    expect:\n      context:\n        contains:\n          - t/\n";
    expect(await labelsAt(HI_TEST, text, "- t/")).toEqual(["t/manners"]);
    expect(await labelsAt(HI_TEST, text, "name: c")).toEqual([]);
    await edit(HI_TEST, GOOD);
  });

  test("a directive's completion is still the directive's own (test files do not take it over)", async () => {
    const rel = ".ai/directives/t/hi.md";
    const { HI } = await import("../testing/project.js");
    await open(rel, HI);
    const items = (await client.sendRequest("textDocument/completion", { textDocument: { uri: uriOf(rel) }, position: after(HI, "{input:", 7) })) as { label: string }[];
    expect(items.map((i) => i.label)).toEqual(["who", "times", "mood"]);
  });
});

describe("code lenses that run cases", () => {
  type Run = { status: string; counts: { passed: number; failed: number; total: number }; cases: { name: string; status: string; line: number; failures: { field: string; message: string; line: number }[] }[]; problems: { code: string; line: number }[]; text: string };
  const run = (...args: unknown[]) => client.sendRequest("workspace/executeCommand", { command: "rye.test", arguments: [uriOf(HI_TEST), ...args] }) as Promise<Run>;

  test("a lens runs all cases at the top, and one per case on its name", async () => {
    await edit(HI_TEST, GOOD);
    const lenses = (await client.sendRequest("textDocument/codeLens", { textDocument: { uri: uriOf(HI_TEST) } })) as { range: { start: { line: number } }; command: { title: string; command: string; arguments: unknown[] } }[];
    expect(lenses.map((l) => [l.range.start.line, l.command.title, l.command.command, l.command.arguments.slice(1)])).toEqual([
      [0, "Run all cases", "rye.test", []],
      [1, "Run case", "rye.test", ["greets"]],
      [7, "Run case", "rye.test", ["expects a goodbye"]],
      [13, "Run case", "rye.test", ["refuses without who"]],
    ]);
    // A directive keeps its preview lens: both features answer lenses.
    const directive = (await client.sendRequest("textDocument/codeLens", { textDocument: { uri: uriOf(".ai/directives/t/hi.md") } })) as { command: { command: string } }[];
    expect(directive.map((l) => l.command.command)).toEqual(["rye.preview"]);
  });

  test("running all cases reports each, with the failure's text and line, and pushes the result", async () => {
    const before = testRuns.length;
    const result = await run();
    expect(result.status).toBe("failed");
    expect(result.counts).toMatchObject({ passed: 2, failed: 1, total: 3 });
    expect(result.cases.map((c) => [c.name, c.status])).toEqual([["greets", "passed"], ["expects a goodbye", "failed"], ["refuses without who", "passed"]]);
    const failure = result.cases[1]!.failures[0]!;
    expect(failure.field).toBe("prompt");
    expect(failure.message).toContain("Goodbye");
    expect(failure.line).toBe(12);
    expect(result.text).toMatch(/✗ .*expects a goodbye/);
    expect(testRuns.length).toBe(before + 1);
  }, 30_000);

  test("running one case runs only it; the buffer's unsaved text is what runs", async () => {
    expect(await run("greets")).toMatchObject({ status: "passed", counts: { passed: 1, failed: 0, total: 1 } });
    await edit(HI_TEST, GOOD.replace("contains: Say hi to Ada", "contains: Say hi to Bob"));
    const failed = await run("greets");
    expect(failed.status).toBe("failed");
    expect(failed.cases[0]!.failures[0]!.message).toContain("Say hi to Bob");
    await edit(HI_TEST, GOOD);
  }, 30_000);

  test("a file that does not check runs nothing and says why", async () => {
    await edit(HI_TEST, GOOD.replace("      who: Ada\n    expect:\n      prompt:\n        contains: Say", "      whom: Ada\n    expect:\n      prompt:\n        contains: Say"));
    const result = await run();
    expect(result.status).toBe("invalid");
    expect(result.cases).toEqual([]);
    expect(result.problems.map((p) => [p.code, p.line])).toContainEqual(["RYE9103", 3]);
    expect(result.text).toContain("No case ran");
    expect((await run("no such case")).status).toBe("invalid");
    await edit(HI_TEST, GOOD);
  }, 30_000);
});
