// The language server reads the project's config as `rye build` does: the user space and system
// spaces it names are where parents and knowledge are found, and the config file's own problems are
// published on it.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startClient, type LspClient } from "./client.js";

const directive = (name: string, extra: string, body: string) => `# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0"${extra}>
  <metadata><description>${name}.</description></metadata>
  <inputs><input name="unused" type="string" required="false">Never used</input></inputs>
</directive>
\`\`\`

${body}
`;

let root: string;
let client: LspClient;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "rye-lsp-config-"));
  // The parent lives only in the space the config names, not in the project or the default user space.
  mkdirSync(join(root, "team", ".ai", "directives", "t"), { recursive: true });
  writeFileSync(join(root, "team", ".ai", "directives", "t", "base.md"), directive("base", "", "Be kind."));
  mkdirSync(join(root, ".ai", "directives", "t"), { recursive: true });
  writeFileSync(join(root, ".ai", "directives", "t", "child.md"), directive("child", ' extends="t/base"', "Review it."));
  writeFileSync(join(root, ".ai", "directives", "t", "orphan.md"), directive("orphan", ' extends="t/nowhere"', "Review it."));
  writeFileSync(join(root, "rye.config.json"), `{\n  "system": ["team"],\n  "outt": "build"\n}\n`);
  client = await startClient(root);
}, 30_000);

afterAll(async () => client?.close());

test("a parent found only in a system space the config names is no error", async () => {
  // Both get RYE2002 (an unused input), which shows they were checked; only the orphan's parent is missing.
  await client.diagnosticsFor(join(root, ".ai", "directives", "t", "orphan.md"), (l) => l.some((d) => d.code === "RYE3004"));
  const child = await client.diagnosticsFor(join(root, ".ai", "directives", "t", "child.md"), (l) => l.some((d) => d.code === "RYE2002"));
  expect(child.map((d) => d.code)).not.toContain("RYE3004");
});

test("an unknown setting is RYE9001 on the config file, with a suggestion", async () => {
  const diags = await client.diagnosticsFor(join(root, "rye.config.json"), (l) => l.some((d) => d.code === "RYE9001"));
  const d = diags.find((x) => x.code === "RYE9001")!;
  expect(d.message).toContain("outt");
  expect(d.message).toContain("out");
  expect(d.range).toMatchObject({ start: { line: 2 } });
});
