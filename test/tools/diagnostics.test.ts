import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { CODES } from "../../src/diagnostics/codes.js";
import { build, type SourceFile } from "../../src/index.js";

// One small project per tool diagnostic: `<case>/<space>/<item id>.<ext>` with spaces `project`,
// `user` and `system`, and `<case>/expected.json` listing every diagnostic (code, file, line, column)
// the build must report — no more, no fewer.
const dir = fileURLToPath(new URL("../fixtures/tools/", import.meta.url));
const cases = readdirSync(dir).sort();
const SPACES: Record<string, string> = { project: "project", user: "user", system: "system:0" };

function walk(root: string): string[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(root, e.name)) : [join(root, e.name)]));
}

/** The case's files as build sources: project paths relative to the project, other spaces under `<space>/`. */
export function fixtureSources(name: string): SourceFile[] {
  const sources: SourceFile[] = [];
  for (const [folder, space] of Object.entries(SPACES)) {
    const root = join(dir, name, folder);
    if (!existsSync(root)) continue;
    for (const file of walk(root).sort()) {
      const ext = extname(file);
      const id = relative(root, file).slice(0, -ext.length);
      const path = `${space === "project" ? "" : `${folder}/`}.ai/tools/${id}${ext}`;
      sources.push({ kind: "tool", id, path, ext, space, text: readFileSync(file, "utf8") });
    }
  }
  return sources;
}

describe("tool diagnostic fixtures", () => {
  test.each(cases)("%s", (name) => {
    const expected = JSON.parse(readFileSync(join(dir, name, "expected.json"), "utf8"));
    const { diagnostics } = build(fixtureSources(name), "test");
    const actual = diagnostics.map((d) => ({ code: d.code, source: d.loc?.source, line: d.loc?.start.line, column: d.loc?.start.column }));
    expect(actual).toEqual(expected);
    for (const d of diagnostics) expect(d.severity).toBe(CODES[d.code as keyof typeof CODES][0]);
  });

  test("every RYE40xx code has a fixture", () => {
    const covered = new Set(cases.flatMap((c) => JSON.parse(readFileSync(join(dir, c, "expected.json"), "utf8")).map((e: { code: string }) => e.code)));
    expect(Object.keys(CODES).filter((c) => c.startsWith("RYE40") && !covered.has(c))).toEqual([]);
  });
});
