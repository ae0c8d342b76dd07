// The mistakes corpus: typical authoring mistakes, one per folder of test/fixtures/mistakes/, each
// written as a new user would from docs/authoring.md (its README names the mistake). Each gives
// exactly one diagnostic, at the code, line and column expected.json names; the fix stored there
// is applied, and the build is then clean. Where the message suggests a name or a text (`hint`),
// the fix is that suggestion: the advice printed is the advice tested.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { build, type SourceFile } from "../../src/index.js";

const ROOT = fileURLToPath(new URL("../fixtures/mistakes/", import.meta.url));
const cases = readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith("_")).map((e) => e.name).sort();
/** The tool many cases call (hello/word_count and its runtime chain), stored once in _shared/. */
const SHARED = join(ROOT, "_shared");

interface Expected {
  file: string;
  code: string;
  line: number;
  column: number;
  fix: { file: string; from: string; to: string }[];
  hint?: string;
}

const INSTRUCTION: SourceFile = {
  kind: "knowledge",
  id: "rye/agent/core/DirectiveInstruction",
  path: "/system/.ai/knowledge/rye/agent/core/DirectiveInstruction.md",
  space: "system:0",
  text: "```yaml\nname: DirectiveInstruction\n```\n\nFollow the directive.\n",
};
const FOLDERS = { directives: "directive", knowledge: "knowledge", tools: "tool" } as const;

/** Every item of a case's `.ai/`, as `rye build` reads a project, with the shared tools (for a case that calls hello/word… by any spelling) that it does not hold itself. */
function readCase(dir: string): Map<string, SourceFile> {
  const own = readTree(dir);
  if (![...own.values()].some((s) => /hello\/word/.test(s.text))) return own;
  for (const [path, src] of readTree(SHARED)) if (!own.has(path)) own.set(path, src);
  return own;
}

function readTree(dir: string): Map<string, SourceFile> {
  const out = new Map<string, SourceFile>();
  for (const [folder, kind] of Object.entries(FOLDERS)) {
    const base = join(dir, ".ai", folder);
    if (!existsSync(base)) continue;
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
    for (const file of walk(base)) {
      const path = relative(dir, file).split("\\").join("/");
      const ext = file.slice(file.lastIndexOf("."));
      const id = relative(base, file).split("\\").join("/").slice(0, -ext.length);
      out.set(path, { kind, id, path, ext, text: readFileSync(file, "utf8") });
    }
  }
  return out;
}

const reported = (sources: Map<string, SourceFile>) =>
  build([...sources.values(), INSTRUCTION], "test").diagnostics.filter((d) => d.severity !== "info");

describe("the mistakes corpus", () => {
  test("holds at least 40 mistakes, each with its README", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const name of cases) expect(readFileSync(join(ROOT, name, "README.md"), "utf8")).toMatch(/^# \S+\n\n\S.*\n$/);
  });

  test.each(cases)("%s: one located diagnostic, and its fix builds clean", (name) => {
    const dir = join(ROOT, name);
    const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Expected;
    const sources = readCase(dir);
    const found = reported(sources);
    expect(found.map((d) => ({ code: d.code, file: d.loc?.source, line: d.loc?.start.line, column: d.loc?.start.column }))).toEqual([
      { code: expected.code, file: expected.file, line: expected.line, column: expected.column },
    ]);
    if (expected.hint !== undefined) {
      expect(found[0]!.message).toContain(expected.hint);
      const suggested = expected.hint.replace(/^'|'$/g, "");
      expect(expected.fix.some((f) => f.to.includes(suggested)), `the fix applies the suggestion ${expected.hint}`).toBe(true);
    }
    for (const edit of expected.fix) {
      const item = sources.get(edit.file)!;
      expect(item.text.split(edit.from)).toHaveLength(2);
      sources.set(edit.file, { ...item, text: item.text.replace(edit.from, () => edit.to) });
    }
    expect(reported(sources).map((d) => `${d.code} ${d.loc?.source}:${d.loc?.start.line} ${d.message}`)).toEqual([]);
  });
});
