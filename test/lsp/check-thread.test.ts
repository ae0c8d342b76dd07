// The language server checks on a thread of its own (src/lsp/checks/): a document whose check takes
// seconds does not hold up other requests, a check that is superseded never publishes, a check
// past its time limit or one that throws is a located RYE1010 and the server goes on serving.
// Every assertion here fails when checks run on the server's main thread.
import { renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempTree } from "../helpers/cli.js";
import { startClient, type LspClient } from "./client.js";

type Published = { uri: string; version?: number; diagnostics: { code?: unknown; message: string }[] };

const directive = (name: string, body: string) =>
  `# ${name}\n\n\`\`\`xml\n<directive name="${name}" version="1.0.0">\n  <metadata><description>${name} for the checker thread test.</description></metadata>\n  <inputs><input name="topic" type="string" required="true">What to write about.</input></inputs>\n</directive>\n\`\`\`\n\n${body}\n`;
// About 1 MB, under the file size limit: seconds of checking (70,000 placeholders to resolve).
const slow = (name: string, extra: string) => directive(name, `${"{input:topic} ".repeat(70_000)}${extra}`);

/** Every publication of the server, with when it arrived; `wait` resolves when one passes `until`. */
function recorder(client: LspClient) {
  const seen: (Published & { at: number })[] = [];
  let wake = () => {};
  client.connection.onNotification("textDocument/publishDiagnostics", (p: Published) => {
    seen.push({ ...p, at: performance.now() });
    wake();
  });
  const wait = async (until: (p: Published) => boolean, ms = 60_000) => {
    const deadline = performance.now() + ms;
    for (;;) {
      const found = seen.find(until);
      if (found) return found;
      if (performance.now() > deadline) throw new Error(`no such publication within ${ms} ms: ${JSON.stringify(seen.map((p) => [p.uri, p.version, p.diagnostics.map((d) => d.code)]))}`);
      await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, 200)));
    }
  };
  return { seen, wait };
}

const open = (client: LspClient, file: string, text: string, version = 1) =>
  client.connection.sendNotification("textDocument/didOpen", { textDocument: { uri: client.uri(file), languageId: "markdown", version, text } });
const change = (client: LspClient, file: string, text: string, version: number) =>
  client.connection.sendNotification("textDocument/didChange", { textDocument: { uri: client.uri(file), version }, contentChanges: [{ text }] });
const hover = (client: LspClient, file: string) =>
  client.connection.sendRequest("textDocument/hover", { textDocument: { uri: client.uri(file) }, position: { line: 9, character: 15 } }) as Promise<{ contents: { value: string } } | null>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mentions = (p: Published, word: string) => p.diagnostics.some((d) => d.message.includes(word));

async function project() {
  const root = tempTree({ ".ai/directives/t/anchor.md": directive("anchor", "Write about {input:topic}.") });
  const client = await startClient(root);
  const log = recorder(client);
  const anchor = join(root, ".ai/directives/t/anchor.md");
  // The server is up and has checked the project once: the checker's thread is running.
  await open(client, anchor, directive("anchor", "Write about {input:topic}."));
  await log.wait((p) => p.uri === client.uri(anchor));
  return { root, client, log, anchor };
}

describe("rye lsp's checker thread", () => {
  test("answers a hover while a slow document is being checked, and publishes that document's diagnostics after", async () => {
    const { root, client, log, anchor } = await project();
    const heavy = join(root, ".ai/directives/t/heavy.md");
    await open(client, heavy, slow("heavy", "{input:not_declared}"));
    // Long enough for the check to have started, far shorter than the check.
    await sleep(150);
    const answer = await hover(client, anchor);
    const answeredAt = performance.now();
    expect(answer?.contents.value).toContain("topic");
    const published = await log.wait((p) => p.uri === client.uri(heavy) && mentions(p, "not_declared"));
    expect(published.at).toBeGreaterThan(answeredAt);
    expect(published.diagnostics.map((d) => d.code)).toEqual(["RYE2001"]);
    await client.close();
  }, 120_000);

  test("never publishes the diagnostics of a version after a newer one was sent", async () => {
    const { root, client, log } = await project();
    const file = join(root, ".ai/directives/t/edited.md");
    await open(client, file, slow("edited", "{input:first_version}"), 1);
    await sleep(150);
    await change(client, file, directive("edited", "Write about {input:second_version}."), 2);
    const sentAt = performance.now();
    const newest = await log.wait((p) => p.uri === client.uri(file) && mentions(p, "second_version"));
    expect(newest.version).toBe(2);
    // The first version's check finished while the second was waiting: its answer must not show.
    await sleep(1000);
    const after = log.seen.filter((p) => p.uri === client.uri(file) && p.at >= sentAt);
    expect(after.length).toBeGreaterThan(0);
    for (const p of after) {
      expect(mentions(p, "first_version")).toBe(false);
      expect(p.version).toBe(2);
    }
    await client.close();
  }, 120_000);

  test("a check past its time limit is RYE1010 at the file, and the server goes on with a new thread", async () => {
    const root = tempTree({ ".ai/directives/t/anchor.md": directive("anchor", "Write about {input:topic}.") });
    const client = await startClient(root, { RYE_LSP_CHECK_TIMEOUT_MS: "1000" });
    const log = recorder(client);
    const anchor = join(root, ".ai/directives/t/anchor.md");
    await open(client, anchor, directive("anchor", "Write about {input:topic}."));
    await log.wait((p) => p.uri === client.uri(anchor));
    // Three slow documents opened together are one check of several seconds.
    const files = ["a", "b", "c"].map((n) => join(root, `.ai/directives/t/${n}.md`));
    for (const [i, file] of files.entries()) await open(client, file, slow(["a", "b", "c"][i]!, ""));
    const stopped = await log.wait((p) => p.uri === client.uri(files[0]!) && p.diagnostics.some((d) => d.code === "RYE1010"));
    expect(stopped.diagnostics[0]!.message).toMatch(/1000 ms without finishing an item/);
    expect((await hover(client, anchor))?.contents.value).toContain("topic");
    // Made small again, each is checked by the new thread.
    for (const [i, file] of files.entries()) await change(client, file, directive(["a", "b", "c"][i]!, "Write about {input:tpoic}."), 2);
    for (const file of files) await log.wait((p) => p.uri === client.uri(file) && p.diagnostics.some((d) => d.code === "RYE2001"));
    await client.close();
  }, 120_000);

  test("a check that throws (the project folder gone) is RYE1010 at the open files, and the server goes on", async () => {
    const { root, client, log, anchor } = await project();
    renameSync(join(root, ".ai"), join(root, ".ai-moved"));
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: client.uri(anchor), type: 3 }] });
    const failed = await log.wait((p) => p.uri === client.uri(anchor) && p.diagnostics.some((d) => d.code === "RYE1010"));
    expect(failed.diagnostics[0]!.message).toMatch(/no \.ai\/ folder/);
    expect((await hover(client, anchor))?.contents.value).toContain("topic");
    // The folder back: the next check reads it again and publishes as before.
    renameSync(join(root, ".ai-moved"), join(root, ".ai"));
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: client.uri(anchor), type: 1 }] });
    await change(client, anchor, directive("anchor", "Write about {input:tpoic}."), 2);
    await log.wait((p) => p.uri === client.uri(anchor) && p.diagnostics.some((d) => d.code === "RYE2001"));
    await client.close();
  }, 120_000);
});
