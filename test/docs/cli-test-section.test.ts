// docs/cli.md's `rye test` section says what `rye test --help` says: the same usage lines, the same
// flags in its table, and exit codes the command really returns.
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const page = readFileSync(join(root, "docs", "cli.md"), "utf8");
const section = page.slice(page.indexOf("## Prompt tests (`rye test`)"));

async function rye(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  let out = "";
  const stream = { write: (s: string) => ((out += s), true) } as unknown as Io["stdout"];
  const code = await main(args, { stdout: stream, stderr: stream, cwd, env: { USER_SPACE: mkdtempSync(join(tmpdir(), "rye-user-")), NO_COLOR: "1" } });
  return { code, out };
}

const flags = (text: string) => new Set([...text.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]));

test("the section's usage block is the usage `rye test --help` prints, and its table has every flag of it", async () => {
  expect(section.length).toBeLessThan(page.length);
  const help = await rye(["test", "--help"], root);
  expect(help.code).toBe(0);
  const usage = help.out.slice(help.out.indexOf("Usage: rye test"), help.out.indexOf("\n\n", help.out.indexOf("Usage: rye test")));
  const block = /```text\n([\s\S]*?)\n```/.exec(section)![1]!;
  expect(block).toBe(usage);
  const table = section.split("\n").filter((l) => l.startsWith("| `"));
  expect(flags(table.join("\n"))).toEqual(flags(usage));
});

test("the exit codes the section names are the ones rye test returns", async () => {
  expect(section).toContain("Exit codes: 0 every case passed (or was skipped); 1 a case failed, no case was selected");
  expect(section).toContain("2 a usage error or a test file with errors");
  const dir = mkdtempSync(join(tmpdir(), "rye-cli-test-"));
  cpSync(join(root, ".ai"), join(dir, ".ai"), { recursive: true });
  expect((await rye(["test", "examples/greet"], dir)).code).toBe(0);
  expect((await rye(["test", "no/such/item"], dir)).code).toBe(1);
  expect((await rye(["test", "--reporter", "xml"], dir)).code).toBe(2);
}, 60_000);
