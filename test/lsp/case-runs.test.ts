// `rye.test` through the real `rye lsp` (the built server): each run happens in a worker thread of
// its own, and a second run after an edit sees the edit, not the modules of the first run.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { HI, hiCase, projectWith } from "../testing/project.js";
import { startClient, type LspClient } from "./client.js";

const TEST = ".ai/tests/directives/t/hi.test.yaml";
const DIRECTIVE = ".ai/directives/t/hi.md";
let root: string;
let client: LspClient;

beforeAll(async () => {
  root = projectWith({ "directives/t/hi.test.yaml": hiCase("inputs: {who: Ada}\nexpect:\n  prompt:\n    contains: Say hi to Ada", "greets") });
  client = await startClient(root);
}, 30_000);

afterAll(async () => {
  await client?.close();
});

type Run = { status: string; counts: { passed: number; failed: number }; cases: { name: string; status: string }[] };
const run = () => client.connection.sendRequest("workspace/executeCommand", { command: "rye.test", arguments: [client.uri(join(root, TEST))] }) as Promise<Run>;

test("a run passes, and after the directive changes on disk the next run compiles the change", async () => {
  const first = await run();
  expect(first.status).toBe("passed");
  expect(first.cases.map((c) => [c.name, c.status])).toEqual([["greets", "passed"]]);
  writeFileSync(join(root, DIRECTIVE), HI.replace("Say hi to", "Wave at"));
  await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: client.uri(join(root, DIRECTIVE)), type: 2 }] });
  let second = await run();
  for (let i = 0; i < 20 && second.status === "passed"; i++) {
    await new Promise((r) => setTimeout(r, 100));
    second = await run();
  }
  expect(second.status).toBe("failed");
  expect(second.counts).toMatchObject({ passed: 0, failed: 1 });
}, 60_000);
