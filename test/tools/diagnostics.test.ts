import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { CODES } from "../../src/diagnostics/codes.js";
import { readProject } from "../../src/project/read-project.js";
import { build, type SourceFile } from "../../src/index.js";
import { compileToDir } from "../helpers/compile.js";

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

describe("tool names and parameters", () => {
  const yaml = (id: string, text: string): SourceFile => ({ kind: "tool", id, path: `.ai/tools/${id}.yaml`, ext: ".yaml", space: "project", text });

  test("RYE4001 suggests the executor id nearest to a misspelt one", () => {
    const sources = [
      yaml("rye/core/primitives/execute", "tool_type: primitive\nexecutor_id: null\n"),
      yaml("rye/core/runtimes/python/script", "tool_type: runtime\nexecutor_id: rye/core/primitives/execute\nconfig:\n  command: python3\n"),
      yaml("demo/tool", "tool_type: python\nexecutor_id: rye/core/runtimes/pyhton/script\n"),
    ];
    const [d] = build(sources, "test").diagnostics;
    expect(d).toMatchObject({ code: "RYE4001", loc: { source: ".ai/tools/demo/tool.yaml", start: { line: 2, column: 14 } } });
    expect(d!.message).toMatch(/Did you mean 'rye\/core\/runtimes\/python\/script'\?$/);
  });

  test("a compiled tool refuses parameters that leave out what its CONFIG_SCHEMA requires, before anything runs", async () => {
    const repo = fileURLToPath(new URL("../../", import.meta.url));
    const { dir } = compileToDir(readProject(repo).sources);
    const mod = await import(pathToFileURL(join(dir, "tools/examples/word_count.js")).href);
    const ran: unknown[] = [];
    const execa = (...args: unknown[]) => {
      ran.push(args);
      throw new Error("nothing may run");
    };
    const refused = await mod.execute({ txt: "a b" }, { projectPath: repo, execa });
    expect(refused).toMatchObject({
      status: "error",
      item_id: "examples/word_count",
      error: "Invalid parameters for tool 'examples/word_count': missing required 'text'. 'txt' was given: did you mean 'text'?",
      validation: { missing: ["text"], unknown: ["txt"], required: ["text"], properties: ["text", "unique"] },
    });
    expect(refused.chain.map((c: { item_id: string }) => c.item_id)).toEqual(["examples/word_count", "rye/core/runtimes/python/script", "rye/core/primitives/subprocess"]);
    expect((await mod.execute(undefined, { projectPath: repo, execa })).error).toBe("Invalid parameters for tool 'examples/word_count': missing required 'text'.");
    expect((await mod.execute([], { projectPath: repo, execa })).error).toMatch(/expected an object of parameters/);
    expect(ran).toEqual([]);
    // A dry run validates the chain only, as the original's does.
    expect(await mod.execute({}, { projectPath: repo, dryRun: true })).toMatchObject({ status: "validation_passed" });
  });
});
