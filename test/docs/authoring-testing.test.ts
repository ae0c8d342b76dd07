// The "Testing prompts" section of docs/authoring.md, followed as a new user would in a fresh
// project: `rye init`, the page's `docs/greet` directive, the test file at the place the page names,
// and the command it shows, whose output must be the one the page prints. Then the claims the
// section makes about failures: a failing check exits 1 and names its line, a misspelt input is a
// located error with did-you-mean and no case runs (exit 2).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { blocksOf, type CodeBlock } from "./code-blocks.js";

const page = fileURLToPath(new URL("../../docs/authoring.md", import.meta.url));
const blocks = blocksOf(page, "authoring.md");
const sectionStart = readFileSync(page, "utf8").split("\n").indexOf("## Testing prompts") + 1;
const inSection = (b: CodeBlock) => b.line > sectionStart;

const directive = blocks.find((b) => b.attrs.directive === "docs/greet")!;
const testFile = blocks.find((b) => inSection(b) && b.lang === "yaml" && b.attrs.file)!;
const command = blocks.find((b) => inSection(b) && b.lang === "sh")!;
const shown = blocks.find((b) => inSection(b) && b.lang === "text" && b.line > command.line)!;

let dir: string;
const env = { USER_SPACE: mkdtempSync(join(tmpdir(), "rye-user-")), NO_COLOR: "1" };

async function rye(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const stdout = { write: (s: string) => ((out += s), true) } as unknown as Io["stdout"];
  const stderr = { write: (s: string) => ((err += s), true) } as unknown as Io["stderr"];
  const code = await main(args, { stdout, stderr, cwd: dir, env });
  return { code, out, err };
}

/** The page's command line as arguments of the CLI (`npx rye-build test docs/greet` → `test docs/greet`). */
const argsOf = (line: string) => line.trim().replace(/^npx rye-build /, "").split(/\s+/);

const writeTestFile = (text: string) => writeFileSync(join(dir, testFile.attrs.file!), text);

beforeAll(async () => {
  expect({ sectionStart: sectionStart > 0, testFile: !!testFile, command: !!command, shown: !!shown, directive: !!directive }).toEqual({ sectionStart: true, testFile: true, command: true, shown: true, directive: true });
  dir = mkdtempSync(join(tmpdir(), "rye-docs-testing-"));
  expect((await rye(["init", dir])).code).toBe(0);
  const file = join(dir, ".ai", "directives", "docs", "greet.md");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, directive.text);
  // The page names the test file's place; it must be where the project's tests live.
  expect(testFile.attrs.file).toBe(".ai/tests/directives/docs/greet.test.yaml");
  mkdirSync(dirname(join(dir, testFile.attrs.file!)), { recursive: true });
}, 60_000);

describe("docs/authoring.md, Testing prompts, in a fresh project", () => {
  test("the page's command prints what the page shows and exits 0", async () => {
    writeTestFile(testFile.text);
    expect(command.text.trim().split("\n")).toHaveLength(1);
    const run = await rye(argsOf(command.text));
    // A case's time is printed when it took a millisecond or more; the page shows none.
    expect({ code: run.code, out: run.out.replace(/ \(\d+ ms\)/g, "") }).toEqual({ code: 0, out: shown.text.endsWith("\n") ? shown.text : `${shown.text}\n` });
  }, 60_000);

  test("a check that does not hold fails its case, names its line, and exits 1", async () => {
    const text = testFile.text.replace("contains: Good morning Ada!", "contains: Good evening Ada!");
    expect(text).not.toBe(testFile.text);
    writeTestFile(text);
    const run = await rye(argsOf(command.text));
    expect(run.code).toBe(1);
    const line = text.split("\n").findIndex((l) => l.includes("Good evening")) + 1;
    expect(run.out).toContain("✗ directive docs/greet › uses the greeting it is given");
    expect(run.out).toContain(`${testFile.attrs.file}:${line}:`);
    expect(run.out).toContain("Tests: 2 passed, 1 failed (3)");
  }, 60_000);

  test("a misspelt input, and the required one it leaves out, are located errors and no case runs (exit 2)", async () => {
    writeTestFile(testFile.text.replace("      name: Ada\n", "      nmae: Ada\n"));
    const run = await rye(argsOf(command.text));
    expect(run.code).toBe(2);
    expect(run.err).toContain("error RYE9103: 'docs/greet' declares no input 'nmae'. Did you mean 'name'?");
    expect(run.err).toContain("error RYE9104");
    expect(run.out).not.toContain("✓");
  }, 60_000);

  test("the refusal case holds only while the directive requires the name", async () => {
    writeTestFile(testFile.text);
    const file = join(dir, ".ai", "directives", "docs", "greet.md");
    writeFileSync(file, directive.text.replace('name="name" type="string" required="true"', 'name="name" type="string" required="false"'));
    try {
      const run = await rye(argsOf(command.text));
      expect(run.code).toBe(1);
      expect(run.out).toContain("✗ directive docs/greet › refuses a call without a name");
    } finally {
      writeFileSync(file, directive.text);
    }
  }, 60_000);
});
