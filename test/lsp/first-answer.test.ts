// The first answer of `rye lsp` is for the file the editor opened: before the whole project is
// checked, the opened directive is checked alone (with what it looks up) and published first, with
// exactly the diagnostics the whole check then gives it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { plainDirective, tempTree } from "../helpers/cli.js";
import { startClient } from "./client.js";

const withInputs = (name: string, body: string) => `# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0">
  <metadata>
    <description>${name} for the first-answer test.</description>
  </metadata>
  <inputs>
    <input name="topic" type="string" required="true">What to write about.</input>
  </inputs>
</directive>
\`\`\`

<process>
  ${body}
</process>
`;

describe("rye lsp's first answer", () => {
  test("is the opened directive's, equal to what the whole check gives it", async () => {
    const files: Record<string, string> = {};
    // Files that sort before the opened one and carry diagnostics of their own.
    for (let i = 0; i < 20; i++) files[`.ai/directives/a/a_${String(i).padStart(2, "0")}.md`] = withInputs(`a_${String(i).padStart(2, "0")}`, "Write about {input:topik}.");
    files[".ai/directives/a/parent.md"] = withInputs("parent", "Write about {input:topic}.");
    files[".ai/directives/z/opened.md"] = withInputs("opened", "Write about {input:topic} and {input:tpoic}.").replace('version="1.0.0">', 'version="1.0.0" extends="a/parent">');
    files[".ai/directives/z/plain.md"] = plainDirective("plain");
    const root = tempTree(files);
    const client = await startClient(root);
    // This handler replaces the client's own (one handler per notification), so it keeps everything itself.
    const order: string[] = [];
    const lists = new Map<string, unknown[][]>();
    let arrived = () => {};
    client.connection.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: unknown[] }) => {
      order.push(p.uri);
      lists.set(p.uri, [...(lists.get(p.uri) ?? []), p.diagnostics]);
      arrived();
    });
    const opened = join(root, ".ai/directives/z/opened.md");
    const other = pathToFileURL(join(root, ".ai/directives/a/a_00.md")).href;
    await client.connection.sendNotification("textDocument/didOpen", { textDocument: { uri: client.uri(opened), languageId: "markdown", version: 1, text: readFileSync(opened, "utf8") } });
    // Until the whole check has published the other files too.
    const deadline = Date.now() + 30_000;
    while (!lists.has(other) && Date.now() < deadline) await new Promise<void>((resolve) => ((arrived = resolve), setTimeout(resolve, 200)));
    const mine = lists.get(pathToFileURL(opened).href) ?? [];
    expect(order[0]).toBe(pathToFileURL(opened).href);
    expect(lists.get(other)?.at(-1)?.length).toBeGreaterThan(0);
    expect(mine[0]).toEqual(mine.at(-1));
    expect(mine[0]!.map((d) => (d as { code?: unknown }).code)).toContain("RYE2001");
    await client.close();
  }, 60_000);
});
