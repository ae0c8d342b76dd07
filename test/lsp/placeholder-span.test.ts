// Hover and go to definition work anywhere on a placeholder: on `{input:`, the name, a modifier or
// fallback, and the closing brace, not only on the name; and nowhere outside it.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tokenAt } from "../../src/lsp/token-at.js";
import { startClient, type LspClient } from "./client.js";

/** The input token at every offset from `at` to `at + length` of `text`, and just outside. */
function namesAcross(text: string, at: number, length: number): (string | null)[] {
  const out: (string | null)[] = [];
  for (let o = at; o <= at + length; o++) {
    const t = tokenAt(text, o);
    out.push(t?.kind === "input" ? t.name : null);
  }
  return out;
}

describe("tokenAt on a whole placeholder", () => {
  test.each([
    ["{input:reader}", "reader"],
    ["{input:reader?}", "reader"],
    ["{input:reader:a default}", "reader"],
    ["{input:reader|a busy colleague}", "reader"],
    ["{input:reader|}", "reader"],
    ["${inputs.reader}", "reader"],
  ])("every offset of %s names %s, with the name's own span", (placeholder, name) => {
    const text = `Write for ${placeholder} today.`;
    const at = text.indexOf(placeholder);
    // From the opening brace up to just after the closing one (where an editor's cursor also stands).
    expect(namesAcross(text, at, placeholder.length)).toEqual(Array(placeholder.length + 1).fill(name));
    const token = tokenAt(text, at + placeholder.length - 1)!;
    expect(text.slice(token.start, token.end)).toBe(name);
    expect(tokenAt(text, at - 1)).toBeNull();
    expect(tokenAt(text, at + placeholder.length + 1)).toBeNull();
  });

  test("adjacent placeholders: each offset belongs to the one under it", () => {
    const text = "{input:a|x}{input:b}";
    expect(namesAcross(text, 0, text.length)).toEqual([..."aaaaaaaaaaa", ..."bbbbbbbbbb"]);
  });

  test("a fallback holding an opener belongs to the first placeholder, as the compiler reads it", () => {
    const text = "say {input:a|{input:b} now";
    expect(namesAcross(text, 4, "{input:a|{input:b}".length).every((n) => n === "a")).toBe(true);
  });

  test("a fallback running over a line break", () => {
    const text = "say {input:a|first line\nsecond line} now";
    expect(tokenAt(text, text.indexOf("second"))).toMatchObject({ kind: "input", name: "a", start: 11, end: 12 });
    expect(tokenAt(text, text.indexOf(" now") + 2)).toBeNull();
  });

  test("an unclosed placeholder still names its input on the name, as it is typed", () => {
    const text = "say {input:rea";
    expect(tokenAt(text, text.length)).toMatchObject({ kind: "input", name: "rea" });
  });

  test("a placeholder inside a call's parameters is the input, a key beside it the parameter", () => {
    const text = 'Run `rye_execute(item_type="tool", item_id="t/count", parameters={"text": "{input:text|none}"})`';
    expect(tokenAt(text, text.indexOf("|none") + 2)).toMatchObject({ kind: "input", name: "text" });
    expect(tokenAt(text, text.indexOf('"text"') + 2)).toMatchObject({ kind: "call-param", name: "text" });
  });
});

const DIRECTIVE = `# Summarize

\`\`\`xml
<directive name="summarize" version="1.0.0">
  <metadata><description>Summarize a text.</description></metadata>
  <inputs>
    <input name="text" type="string" required="true">The text to summarize</input>
    <input name="reader" type="string" required="false">Who the summary is for</input>
  </inputs>
</directive>
\`\`\`

Summarize {input:text} for {input:reader|a busy colleague}.
`;

describe("over stdio", () => {
  let root: string;
  let client: LspClient;
  const file = () => join(root, ".ai", "directives", "t", "summarize.md");
  const position = (offset: number) => {
    const before = DIRECTIVE.slice(0, offset);
    return { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
  };
  const placeholder = "{input:reader|a busy colleague}";
  const base = DIRECTIVE.indexOf(placeholder);
  // The opening brace, inside `{input:`, the name, the bar, the fallback, the closing brace.
  const spots = [0, 3, 9, 13, 20, placeholder.length - 1];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "rye-lsp-span-"));
    mkdirSync(join(root, ".ai", "directives", "t"), { recursive: true });
    writeFileSync(file(), DIRECTIVE);
    client = await startClient(root);
    await client.connection.sendNotification("textDocument/didOpen", { textDocument: { uri: client.uri(file()), languageId: "markdown", version: 1, text: DIRECTIVE } });
  }, 30_000);
  afterAll(async () => client?.close());

  test.each(spots)("hover at offset %i of the placeholder describes the input", async (delta) => {
    const hover = (await client.connection.sendRequest("textDocument/hover", { textDocument: { uri: client.uri(file()) }, position: position(base + delta) })) as { contents: { value: string } } | null;
    expect(hover?.contents.value).toContain("Who the summary is for");
  });

  test.each(spots)("definition at offset %i of the placeholder is the input's declaration", async (delta) => {
    const def = (await client.connection.sendRequest("textDocument/definition", { textDocument: { uri: client.uri(file()) }, position: position(base + delta) })) as { uri: string; range: { start: unknown; end: unknown } };
    const decl = DIRECTIVE.indexOf('name="reader"') + 'name="'.length;
    expect(def.uri).toBe(client.uri(file()));
    expect(def.range).toEqual({ start: position(decl), end: position(decl + "reader".length) });
  });

  test("outside the placeholder, hover has nothing to say about the input", async () => {
    const hover = (await client.connection.sendRequest("textDocument/hover", { textDocument: { uri: client.uri(file()) }, position: position(base - 2) })) as { contents: { value: string } } | null;
    expect(hover?.contents.value ?? "").not.toContain("Who the summary is for");
  });
});
