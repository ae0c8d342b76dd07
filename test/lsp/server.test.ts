import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startClient, type LspClient } from "./client.js";

const PARENT = `# Base

\`\`\`xml
<directive name="base" version="1.0.0">
  <metadata><description>The base of every review.</description></metadata>
</directive>
\`\`\`

Be kind.
`;

const CHILD = `# Review

\`\`\`xml
<directive name="review" version="1.0.0" extends="t/base">
  <metadata><description>Review a change.</description></metadata>
  <inputs>
    <input name="diff" type="string" required="true">The change to review</input>
    <input name="focus" type="string" required="false" default="tests">What to look at first</input>
  </inputs>
</directive>
\`\`\`

Review {input:diff}, looking at {input:focus} first.
`;

const CALLER = `# Caller

\`\`\`xml
<directive name="caller" version="1.0.0">
  <metadata><description>Calls review.</description>
    <permissions><execute><directive>t/review</directive></execute></permissions>
  </metadata>
</directive>
\`\`\`

Run \`rye_execute(item_type="directive", item_id="t/review", parameters={"diff": "x"})\`.
`;

let root: string;
let client: LspClient;
const file = (id: string) => join(root, ".ai", "directives", `${id}.md`);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "rye-lsp-"));
  mkdirSync(join(root, ".ai", "directives", "t"), { recursive: true });
  writeFileSync(file("t/base"), PARENT);
  writeFileSync(file("t/review"), CHILD);
  writeFileSync(file("t/caller"), CALLER);
  writeFileSync(join(root, ".ai", "directives", "t", "review.inputs.json"), JSON.stringify({ diff: "+ one line" }));
  client = await startClient(root);
}, 30_000);

afterAll(async () => client?.close());

const open = (id: string, text: string, version = 1) =>
  client.connection.sendNotification("textDocument/didOpen", { textDocument: { uri: client.uri(file(id)), languageId: "markdown", version, text } });
const change = (id: string, text: string, version: number) =>
  client.connection.sendNotification("textDocument/didChange", { textDocument: { uri: client.uri(file(id)), version }, contentChanges: [{ text }] });
const at = (text: string, needle: string, delta = 0) => {
  const offset = text.indexOf(needle) + delta;
  const before = text.slice(0, offset);
  return { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
};

describe("rye lsp over stdio", () => {
  test("publishes RYE2001 for a misspelt input in an unsaved buffer, and clears it when fixed", async () => {
    const broken = CHILD.replace("{input:focus}", "{input:focsu}");
    await open("t/review", broken);
    const diags = await client.diagnosticsFor(file("t/review"), (l) => l.some((d) => d.code === "RYE2001"));
    const d = diags.find((x) => x.code === "RYE2001")!;
    expect(d.message).toContain("focsu");
    expect(d.range).toEqual({ start: at(broken, "{input:focsu}"), end: at(broken, "{input:focsu}", "{input:focsu}".length) });
    await change("t/review", CHILD, 2);
    expect(await client.diagnosticsFor(file("t/review"), (l) => !l.some((x) => x.code === "RYE2001"))).toEqual([]);
  });

  test("completes input names after {input: with their type and description", async () => {
    const text = CHILD.replace("first.", "first {input:");
    await change("t/review", text, 3);
    const items = (await client.connection.sendRequest("textDocument/completion", { textDocument: { uri: client.uri(file("t/review")) }, position: at(text, "first {input:", "first {input:".length) })) as { label: string; detail: string; documentation: { value: string } }[];
    expect(items.map((i) => i.label)).toEqual(["diff", "focus"]);
    expect(items[1]!.detail).toBe("string");
    expect(items[1]!.documentation.value).toContain("What to look at first");
    await change("t/review", CHILD, 4);
  });

  test("completes ids in extends and parameter keys in calls", async () => {
    const text = CHILD.replace('extends="t/base"', 'extends="t/');
    const ids = (await client.connection.sendRequest("textDocument/completion", { textDocument: { uri: client.uri(file("t/review")) }, position: at(text, 'extends="t/', 'extends="t/'.length) })) as { label: string }[];
    expect(ids.map((i) => i.label).sort()).toEqual(["t/base", "t/caller", "t/review"]);
    const call = CALLER.replace('{"diff": "x"}', '{"');
    await open("t/caller", call);
    const keys = (await client.connection.sendRequest("textDocument/completion", { textDocument: { uri: client.uri(file("t/caller")) }, position: at(call, 'parameters={"', 'parameters={"'.length) })) as { label: string }[];
    expect(keys.map((k) => k.label)).toEqual(["diff", "focus"]);
    await change("t/caller", CALLER, 2);
  });

  test("hovers an input placeholder, an item id and a diagnostic code", async () => {
    const hover = (id: string, text: string, needle: string, delta = 1) =>
      client.connection.sendRequest("textDocument/hover", { textDocument: { uri: client.uri(file(id)) }, position: at(text, needle, delta) }) as Promise<{ contents: { value: string } }>;
    expect((await hover("t/review", CHILD, "{input:diff}", 8)).contents.value).toContain("The change to review");
    expect((await hover("t/review", CHILD, "t/base")).contents.value).toContain("The base of every review.");
    // On a diagnostic, the hover explains its code.
    const broken = CHILD.replace("{input:focus}", "{input:focsu}");
    await change("t/review", broken, 10);
    await client.diagnosticsFor(file("t/review"), (l) => l.some((d) => d.code === "RYE2001"));
    expect((await hover("t/review", broken, "{input:focsu}", 3)).contents.value).toContain("**RYE2001** (error): `{input:x}` names an input the directive does not declare");
    await change("t/review", CHILD, 11);
  });

  test("goes to an extends parent's file and to an input's declaration", async () => {
    const parent = (await client.connection.sendRequest("textDocument/definition", { textDocument: { uri: client.uri(file("t/review")) }, position: at(CHILD, "t/base", 2) })) as { uri: string };
    expect(parent.uri).toBe(client.uri(file("t/base")));
    const decl = (await client.connection.sendRequest("textDocument/definition", { textDocument: { uri: client.uri(file("t/review")) }, position: at(CHILD, "{input:focus}", 9) })) as { range: { start: unknown } };
    expect(decl.range.start).toEqual(at(CHILD, 'name="focus"', 6));
  });

  test("finds references of an input and renames it in the declaration, placeholders and callers", async () => {
    const refs = (await client.connection.sendRequest("textDocument/references", { textDocument: { uri: client.uri(file("t/review")) }, position: at(CHILD, "{input:diff}", 8), context: { includeDeclaration: true } })) as { uri: string }[];
    expect(refs.map((r) => r.uri).sort()).toEqual([client.uri(file("t/caller")), client.uri(file("t/review")), client.uri(file("t/review"))].sort());
    const edit = (await client.connection.sendRequest("textDocument/rename", { textDocument: { uri: client.uri(file("t/review")) }, position: at(CHILD, 'name="diff"', 7), newName: "patch" })) as { changes: Record<string, { newText: string }[]> };
    expect(Object.keys(edit.changes).sort()).toEqual([client.uri(file("t/caller")), client.uri(file("t/review"))].sort());
    expect(edit.changes[client.uri(file("t/review"))]!.length).toBe(2);
    expect(edit.changes[client.uri(file("t/caller"))]!.map((e) => e.newText)).toEqual(["patch"]);
  });

  test("previews the first user message for the sample inputs kept beside the directive", async () => {
    const lenses = (await client.connection.sendRequest("textDocument/codeLens", { textDocument: { uri: client.uri(file("t/review")) } })) as { command: { command: string } }[];
    expect(lenses.map((l) => l.command.command)).toEqual(["rye.preview"]);
    const result = (await client.connection.sendRequest("workspace/executeCommand", { command: "rye.preview", arguments: [client.uri(file("t/review"))] })) as { status: string; messages: { content: string }[] };
    expect(result).toMatchObject({ status: "success" });
    expect(result.messages[0]!.content).toContain("Review + one line, looking at tests first.");
  });

  test("sample inputs that are a link (to /dev/zero, a FIFO's stand-in for an endless read) are refused at once, and the server keeps answering", async () => {
    const { symlinkSync, rmSync, renameSync } = await import("node:fs");
    const samples = join(root, ".ai", "directives", "t", "review.inputs.json");
    renameSync(samples, `${samples}.kept`);
    symlinkSync("/dev/zero", samples);
    try {
      const result = (await client.connection.sendRequest("workspace/executeCommand", { command: "rye.preview", arguments: [client.uri(file("t/review"))] })) as { status: string; payload?: { error: string } };
      expect(result.status).toBe("invalid");
      expect(result.payload?.error).toMatch(/symbolic link/);
      const lenses = (await client.connection.sendRequest("textDocument/codeLens", { textDocument: { uri: client.uri(file("t/review")) } })) as unknown[];
      expect(lenses.length).toBe(1);
    } finally {
      rmSync(samples);
      renameSync(`${samples}.kept`, samples);
    }
  }, 20_000);
});
