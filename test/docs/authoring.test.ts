import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { build, type SourceFile } from "../../src/index.js";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { blocksOf, codeBlocks } from "./code-blocks.js";

const docs = fileURLToPath(new URL("../../docs/", import.meta.url));
const blocks = [...codeBlocks(docs), ...blocksOf(fileURLToPath(new URL("../../README.md", import.meta.url)), "README.md")];

// Every directive and knowledge block of a page is one project: pages build their examples on each other.
// Blocks tagged `diagnostic=RYE…` are failing examples (docs/diagnostics.md), checked by their own test.
const examples = blocks.filter((b) => (b.attrs.directive || b.attrs.knowledge) && !b.attrs.diagnostic);
const pages = [...new Set(examples.map((b) => b.file))];

function sourcesOf(page: string): SourceFile[] {
  return examples
    .filter((b) => b.file === page)
    .map((b) => {
      const kind = b.attrs.directive ? "directive" : "knowledge";
      const id = b.attrs.directive ?? b.attrs.knowledge!;
      return { kind, id, path: `.ai/${kind === "directive" ? "directives" : "knowledge"}/${id}.md`, text: b.text } as SourceFile;
    });
}

describe.each(pages)("docs/%s examples", (page) => {
  test("every directive and knowledge block compiles with no warning or error", () => {
    const { diagnostics, compiled } = build(sourcesOf(page), "test");
    // RYE3008 only says the page's examples are not a whole project (no DirectiveInstruction item).
    expect(diagnostics.filter((d) => d.severity !== "info" && d.code !== "RYE3008")).toEqual([]);
    expect(compiled.sort()).toEqual(sourcesOf(page).filter((s) => s.kind === "directive").map((s) => s.id).sort());
  });

  test("every `rye preview` shown prints what the page says", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-docs-"));
    for (const s of sourcesOf(page)) {
      mkdirSync(dirname(join(dir, s.path)), { recursive: true });
      writeFileSync(join(dir, s.path), s.text);
    }
    const shown = blocks.filter((b) => b.file === page && b.lang === "text" && /npx rye-build preview /.test(b.before));
    for (const b of shown) {
      const m = /`npx rye-build preview (\S+) --inputs '([^']*)'`/.exec(b.before)!;
      let out = "";
      const stream = { write: (s: string) => ((out += s), true) } as unknown as Io["stdout"];
      const code = await main(["preview", m[1]!, "--inputs", m[2]!], { stdout: stream, stderr: stream, cwd: dir, env: { USER_SPACE: mkdtempSync(join(tmpdir(), "rye-user-")) } });
      expect({ line: b.line, code, out }).toEqual({ line: b.line, code: 0, out: b.text });
    }
  });
});
