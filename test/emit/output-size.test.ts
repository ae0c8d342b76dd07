// The size of what a build emits, on a generated project with the real corpus's sizes and features:
// each item's text is stored once per module, the TypeScript sources only when asked for, and the
// emitted files stay within a fixed multiple of their sources. A size assertion, never a speed one.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { template } from "../../src/emit/escape.js";
import { build, type BuildResult, type SourceFile } from "../../src/index.js";
import { readProject } from "../../src/project/read-project.js";

type Generate = (dir: string, count: number, seed?: number) => number;
const COUNT = 60;
let sources: SourceFile[] = [];
let result: BuildResult;

beforeAll(async () => {
  const { generateCorpus } = (await import(pathToFileURL(join(import.meta.dirname, "..", "..", "scripts", "gen-corpus.mjs")).href)) as { generateCorpus: Generate };
  const dir = mkdtempSync(join(tmpdir(), "rye-size-"));
  generateCorpus(dir, COUNT, 7);
  sources = readProject(dir).sources.filter((s) => s.kind !== "tool");
  result = build(sources, "test");
});

const bytes = (s: string) => Buffer.byteLength(s, "utf8");
/** Occurrences of `needle` in `hay`, not overlapping. */
const count = (hay: string, needle: string) => hay.split(needle).length - 1;
/** A line of the source as it appears inside the template literal of a module's text. */
const inLiteral = (line: string) => template(line).slice(1, -1);

describe("emitted output size", () => {
  it("builds every generated item without errors", () => {
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.compiled.length).toBe(COUNT);
  });

  it("stores each line of a directive's text once in its module, and none of its body in the declarations", () => {
    for (const src of sources.filter((s) => s.kind === "directive")) {
      const js = result.files.get(`directives/${src.id}.js`)!;
      const dts = result.files.get(`directives/${src.id}.d.ts`)!;
      // Long prose lines of the body: they were repeated in raw, content, body and the prompt.
      const body = src.text.slice(src.text.lastIndexOf("```") + 3);
      const lines = body.split("\n").map((l) => l.trim()).filter((l) => l.length > 80 && !l.includes("{") && !l.includes("`"));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(count(js, inLiteral(line)), `${src.id}: ${line}`).toBe(1);
        expect(dts.includes(line)).toBe(false);
      }
    }
  });

  it("emits the TypeScript sources under ts/ only when asked, with the same text as the module", () => {
    expect([...result.files.keys()].filter((f) => f.startsWith("ts/"))).toEqual([]);
    const withTs = build(sources, "test", { emitTs: true });
    const src = sources.find((s) => s.kind === "directive")!;
    const ts = withTs.files.get(`ts/directives/${src.id}.ts`)!;
    expect(ts).toContain("export function render(inputs: Inputs");
    const line = src.text.split("\n").find((l) => l.trim().length > 80 && !l.includes("{"))!.trim();
    expect(count(ts, inLiteral(line))).toBe(1);
    expect(withTs.files.get("ts/index.ts")).toBeDefined();
    // Everything else is the same file for file.
    for (const [path, text] of result.files) expect(withTs.files.get(path), path).toBe(text);
  });

  // The target is 2× for the whole signed output (`npm run bench`, row "output size"). The item's
  // text alone takes 1× (stored once, as the source is), the registry's declarations spell out every
  // input and output with its description for editors (0.2×), and the code around the text is what
  // remains: the module's render(), its metadata and plans in compact form, and one call of the
  // runtime's factory for everything else. Repeating the knowledge a thread is given, the return
  // instruction or the inputs' docs in each module, or the text in a TypeScript source, exceeds it.
  it("emits everything but the runtime within 2.1× the bytes of the sources (unsigned)", () => {
    const inBytes = sources.reduce((a, s) => a + bytes(s.text), 0);
    const all = [...result.files].reduce((a, [, t]) => a + bytes(t), 0);
    const withTs = [...build(sources, "test", { emitTs: true }).files].reduce((a, [, t]) => a + bytes(t), 0);
    expect(all / inBytes).toBeLessThanOrEqual(2.1);
    expect(withTs / inBytes).toBeGreaterThan(2.1);
  });

  it("writes each knowledge item's text in its own module only", () => {
    const knowledge = sources.filter((s) => s.kind === "knowledge");
    expect(knowledge.length).toBeGreaterThan(0);
    // Threads of some directives are given knowledge: they import it.
    expect([...result.files].filter(([p, t]) => p.startsWith("directives/") && /from "(\.\.\/)+knowledge\//.test(t)).length).toBeGreaterThan(0);
    for (const k of knowledge) {
      const line = k.text.split("\n").find((l) => l.trim().length > 80 && !l.includes("`") && !l.includes("\\"));
      if (!line) continue;
      const holders = [...result.files].filter(([p, t]) => p.endsWith(".js") && t.includes(inLiteral(line.trim())));
      expect(holders.map(([p]) => p), k.id).toEqual([`knowledge/${k.id}.js`]);
    }
  });
});
