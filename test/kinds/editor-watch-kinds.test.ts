// The watcher and the language server follow file-kinds.ts as `rye build` does: a file of no kind
// gets its RYE1011 there too (a new one included), and a file in a folder the read skips is no item.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Workspace } from "../../src/lsp/workspace.js";
import { WatchedSources } from "../../src/watch/watch-sources.js";
import { plainDirective, tempTree, testUserSpace } from "../helpers/cli.js";
import { startClient, type LspClient } from "../lsp/client.js";

describe("rye build --watch's reader", () => {
  test("a new file of no kind is reported (RYE1011), not ignored", () => {
    const dir = tempTree({ ".ai/directives/d.md": plainDirective("d") });
    const watched = new WatchedSources({ project: dir, user: testUserSpace(), systems: [] });
    expect(watched.read().diagnostics).toEqual([]);
    const notes = join(dir, ".ai", "knowledge", "notes.txt");
    mkdirSync(join(dir, ".ai", "knowledge"), { recursive: true });
    writeFileSync(notes, "not an item");
    watched.touch(notes);
    expect(watched.read().diagnostics.map((x) => [x.code, x.loc?.source])).toEqual([["RYE1011", ".ai/knowledge/notes.txt"]]);
  });

  test("a file in a skipped folder (tools/node_modules/) is no item", () => {
    const dir = tempTree({ ".ai/directives/d.md": plainDirective("d"), ".ai/tools/node_modules/.keep": "" });
    const watched = new WatchedSources({ project: dir, user: testUserSpace(), systems: [] });
    watched.read();
    const inside = join(dir, ".ai", "tools", "node_modules", "pkg.py");
    writeFileSync(inside, "x = 1\n");
    watched.touch(inside);
    expect(watched.read().sources.map((s) => s.path)).toEqual([".ai/directives/d.md"]);
  });
});

describe("rye lsp", () => {
  let dir: string;
  let client: LspClient;
  beforeAll(async () => {
    dir = tempTree({ ".ai/directives/d.md": plainDirective("d"), ".ai/knowledge/notes.txt": "not an item", ".ai/tools/node_modules/.keep": "" });
    client = await startClient(dir);
  });
  afterAll(async () => client?.close());

  test("publishes RYE1011 for a file of no kind, as rye build reports it", async () => {
    const list = await client.diagnosticsFor(join(dir, ".ai/knowledge/notes.txt"), (l) => l.length > 0);
    expect(list.map((x) => x.code)).toEqual(["RYE1011"]);
    expect(list[0]!.message).toMatch(/'\.txt' files are no item kind: knowledge items are \.md, \.yaml or \.yml files/);
  });

  test("an open buffer in a skipped folder is not taken for an item", () => {
    const ws = new Workspace(dir, { USER_SPACE: testUserSpace() });
    expect(ws.itemAt(join(dir, ".ai/tools/node_modules/pkg.py"))).toBeNull();
    expect(ws.itemAt(join(dir, ".ai/tools/t/ok.py"))).toMatchObject({ kind: "tool", id: "t/ok" });
  });
});
