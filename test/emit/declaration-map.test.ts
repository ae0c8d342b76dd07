// Go to definition from code that uses the output lands in the `.md`: out/index.d.ts carries a
// declaration map, which TypeScript's language service follows (as editors do through tsserver)
// from a directive id, an input or an output of the registry to where the directive declares it.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { outsideOf } from "../helpers/outside.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { buildProject, type BuildMemo } from "../../src/builder/build-project.js";
import { blockMappings, LineMappings } from "../../src/emit/declaration-map.js";
import { emitIndex } from "../../src/emit/emit-index.js";
import { spacesFrom } from "../../src/project/read-spaces.js";
import { WatchedSources } from "../../src/watch/watch-sources.js";
import { languageService, STRICT, ts } from "../helpers/strict-tsc.js";
import { exampleSources, source } from "../helpers/compile.js";
import { compileDirectives } from "../../src/compile/compile-directives.js";
import { emitDirective } from "../../src/emit/emit-directive.js";

const base = mkdtempSync(join(tmpdir(), "rye-decl-map-"));
const env = { USER_SPACE: join(outsideOf(base), "user"), RYE_SIGNING_KEY_DIR: join(base, "keys") };
const sink = { write: () => true, isTTY: false } as unknown as Io["stdout"];

const REVIEW = `# Review

\`\`\`xml
<directive name="review" version="1.0.0">
  <metadata>
    <description>Review a change</description>
  </metadata>
  <inputs>
    <input name="diff" type="string" required="true">The change, as a unified diff</input>
    <input name="focus" type="string" required="false" default="bugs"/>
  </inputs>
  <outputs>
    <output name="verdict" type="string" required="true">approve or reject</output>
  </outputs>
</directive>
\`\`\`

Review {input:diff} for {input:focus}.
`;
const PLAIN = `# Plain

\`\`\`xml
<directive name="plain" version="1.0.0">
  <metadata><description>Nothing to pass</description></metadata>
</directive>
\`\`\`

Say hello.
`;

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(base, "p-"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

function buildInto(dir: string, outDir = join(dir, "out"), extra: { allowUnsigned?: boolean; memo?: BuildMemo; read?: () => ReturnType<WatchedSources["read"]> } = {}) {
  const r = buildProject({ project: dir, outDir, spaces: spacesFrom(dir, {}, dir, env), jobs: 1, ...extra }, { stdout: sink, stderr: sink, cwd: dir, env });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
}

const CONSUMER = `import { directives, type DirectiveId, type DirectiveOutputs } from "./out/index.js";
import review from "./out/directives/t/review.js";
directives["t/review"].render({ diff: "d" });
review.render({ diff: "e", focus: "style" });
const verdict: DirectiveOutputs["t/review"] = { verdict: "approve" };
const id: DirectiveId = "t/plain";
directives["t/plain"].render({});
export { verdict, id };
`;

/** Where go to definition at the first `needle` of the consumer lands, after declaration maps: `file:line:column text`. */
function definitions(dir: string, code = CONSUMER) {
  const consumer = join(dir, "consumer.ts");
  writeFileSync(consumer, code);
  const service = languageService(consumer, dir);
  // What tsserver does with each definition it answers (getMappedLocation).
  const mapper = (service as unknown as { getSourceMapper(): { tryGetSourcePosition(l: { fileName: string; pos: number }): { fileName: string; pos: number } | undefined } }).getSourceMapper();
  return (needle: string): string => {
    const [def] = service.getDefinitionAtPosition(consumer, code.indexOf(needle) + 1) ?? [];
    if (!def) return "none";
    const at = mapper.tryGetSourcePosition({ fileName: def.fileName, pos: def.textSpan.start }) ?? { fileName: def.fileName, pos: def.textSpan.start };
    const text = readFileSync(at.fileName, "utf8");
    const before = text.slice(0, at.pos).split("\n");
    return `${at.fileName.slice(dir.length + 1)}:${before.length}:${before.at(-1)!.length + 1} ${text.slice(at.pos).split("\n")[0]}`;
  };
}

const SOURCES = { ".ai/directives/t/review.md": REVIEW, ".ai/directives/t/plain.md": PLAIN };

describe("declaration maps: go to definition lands in the .md", () => {
  for (const signed of [true, false]) {
    test(`from the registry and from a module, to the directive, its inputs and its outputs (${signed ? "signed" : "unsigned"} output)`, () => {
      const dir = project(SOURCES);
      buildInto(dir, join(dir, "out"), { allowUnsigned: !signed });
      // Declarations carry no signature line either way (the manifest binds them); the registry module does when signed.
      expect(readFileSync(join(dir, "out", "index.d.ts"), "utf8").startsWith("// rye:signed:")).toBe(false);
      expect(readFileSync(join(dir, "out", "index.js"), "utf8").startsWith("// rye:signed:")).toBe(signed);
      const at = definitions(dir);
      expect(at('"t/review"]')).toBe('.ai/directives/t/review.md:4:1 <directive name="review" version="1.0.0">');
      expect(at('diff: "d"')).toBe('.ai/directives/t/review.md:9:12 name="diff" type="string" required="true">The change, as a unified diff</input>');
      expect(at('diff: "e"')).toBe('.ai/directives/t/review.md:9:12 name="diff" type="string" required="true">The change, as a unified diff</input>');
      expect(at('focus: "style"')).toBe('.ai/directives/t/review.md:10:12 name="focus" type="string" required="false" default="bugs"/>');
      expect(at('verdict: "approve"')).toBe('.ai/directives/t/review.md:13:13 name="verdict" type="string" required="true">approve or reject</output>');
      expect(at('"t/plain"]')).toBe('.ai/directives/t/plain.md:4:1 <directive name="plain" version="1.0.0">');
    });
  }

  test("a definition the map does not name stays in the declarations, not on the next mapped line", () => {
    const dir = project(SOURCES);
    buildInto(dir);
    const at = definitions(dir);
    expect(at("DirectiveId =")).toMatch(/^out\/index\.d\.ts:\d+:\d+ DirectiveId = keyof typeof directives;$/);
    expect(at("directives[\"t/review\"]")).toMatch(/^out\/index\.d\.ts:\d+:\d+ directives: \{$/);
  });

  test("a rebuild follows the declarations as they move in the .md", () => {
    const dir = project(SOURCES);
    const watched = new WatchedSources(spacesFrom(dir, {}, dir, env));
    const memo: BuildMemo = {};
    buildInto(dir, join(dir, "out"), { memo, read: () => watched.read() });
    const file = join(dir, ".ai/directives/t/review.md");
    writeFileSync(file, REVIEW.replace("  <inputs>\n", "  <inputs>\n\n\n"));
    watched.touch(file);
    buildInto(dir, join(dir, "out"), { memo, read: () => watched.read() });
    const at = definitions(dir);
    expect(at('diff: "d"')).toBe('.ai/directives/t/review.md:11:12 name="diff" type="string" required="true">The change, as a unified diff</input>');
    expect(at('verdict: "approve"')).toBe('.ai/directives/t/review.md:15:13 name="verdict" type="string" required="true">approve or reject</output>');
  });

  test("hostile ids reach the map as data: quotes, a comment's end, spaces and non-ASCII stay inside its base64", () => {
    const id = `t/we"ird */ na'me ü\u{1F600}`;
    const dir = project({ [`.ai/directives/${id}.md`]: PLAIN.replace('name="plain"', `name="we&quot;ird */ na'me ü\u{1F600}"`) });
    buildInto(dir);
    const dts = readFileSync(join(dir, "out", "index.d.ts"), "utf8");
    expect(mapOf(dts).sources).toEqual([`.ai/directives/${id}.md`]);
    // The map line is the comment marker and base64: nothing a parser could read as code.
    expect(dts.trimEnd().split("\n").at(-1)).toMatch(/^\/\/# sourceMappingURL=data:application\/json;charset=utf-8;base64,[A-Za-z0-9+/=]+$/);
    const consumer = join(dir, "consumer.ts");
    writeFileSync(consumer, `import { directives } from "./out/index.js";\ndirectives[${JSON.stringify(id)}].render({});\n`);
    const program = ts.createProgram([consumer], STRICT);
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
    expect(definitions(dir, `import { directives } from "./out/index.js";\ndirectives[${JSON.stringify(id)}].render({});\n`)(JSON.stringify(id))).toBe(
      `.ai/directives/${id}.md:4:1 <directive name="we&quot;ird */ na'me ü\u{1F600}" version="1.0.0">`,
    );
  });

  test("an output folder outside the project is refused (RYE8005); one nested deeper gets a map to the sources", () => {
    const dir = project(SOURCES);
    const outside = mkdtempSync(join(base, "out-"));
    const refused = buildProject({ project: dir, outDir: outside, spaces: spacesFrom(dir, {}, dir, env), jobs: 1 }, { stdout: sink, stderr: sink, cwd: dir, env });
    expect(refused.diagnostics.map((d) => d.code)).toEqual(["RYE8005"]);
    const nested = join(dir, "build", "rye");
    buildInto(dir, nested);
    const map = mapOf(readFileSync(join(nested, "index.d.ts"), "utf8"));
    expect(map.sourceRoot).toBe("../../");
    expect(map.sources).toEqual([".ai/directives/t/plain.md", ".ai/directives/t/review.md"]);
  });
});

function mapOf(dts: string): { sourceRoot: string; sources: string[]; mappings: string } {
  const url = /\n\/\/# sourceMappingURL=data:application\/json;charset=utf-8;base64,([A-Za-z0-9+/=]+)\n$/.exec(dts);
  expect(url).not.toBeNull();
  return JSON.parse(Buffer.from(url![1]!, "base64").toString("utf8"));
}

describe("the registry's map", () => {
  // TypeScript's own decoder, as it reads the map.
  const decode = (mappings: string) => [...(ts as unknown as { decodeMappings(m: string): Iterable<Record<string, number | undefined>> }).decodeMappings(mappings)];

  test("maps every line that declares a directive, an input or an output, from its first column to that declaration, and no other line", () => {
    const sources = [...exampleSources(), source("t/review", REVIEW), source("t/plain", PLAIN)];
    const { analyses } = compileDirectives(sources, null);
    expect(analyses.length).toBeGreaterThan(5);
    const entries = new Map(analyses.map((a) => [a.id, emitDirective(a, "test").registry]));
    const dts = emitIndex([...entries.keys()], "test", entries, { sourceRoot: "../" }).dts;
    const map = mapOf(dts);
    const lines = dts.split("\n");
    const text = new Map(sources.map((s) => [s.path, s.text.split("\n")]));
    const mapped = new Set<number>();
    for (const m of decode(map.mappings)) {
      if (m.sourceIndex === undefined) continue;
      mapped.add(m.generatedLine!);
      expect(m.generatedCharacter).toBe(0);
      const declared = text.get(map.sources[m.sourceIndex]!)![m.sourceLine!]!.slice(m.sourceCharacter);
      expect(declared, lines[m.generatedLine!]).toMatch(/^(?:<directive |name=)/);
    }
    const start = lines.indexOf("export interface DirectiveTypes {") + 1;
    const end = lines.indexOf("}", start);
    lines.forEach((line, i) => expect(mapped.has(i), line).toBe(i >= start && i < end && /^(?:"|[A-Za-z_$])/.test(line)));
    expect(mapped.size).toBeGreaterThan(analyses.length * 2);
  });

  test("lines: a marked one maps its first column; others end with a mapping to nothing, but those that declare nothing", () => {
    const w = new LineMappings();
    w.nothing();
    w.text("header\n");
    const block = blockMappings("/** doc */\nname: string;\n/** doc */\ntitle?: string;\n}];", [null, [10, 4], null, [3, 700], null]);
    expect(block.startsWith("1:10:4:3:700:")).toBe(true);
    expect(w.block(block, 0)).toBe(true);
    expect(w.block("", 1)).toBe(false);
    w.text("type X = 1;");
    const nowhere = { sourceIndex: undefined, sourceLine: undefined, sourceCharacter: undefined, nameIndex: undefined };
    expect(decode(w.toString())).toEqual([
      { generatedLine: 1, generatedCharacter: 6, ...nowhere },
      { generatedLine: 4, generatedCharacter: 0, sourceIndex: 0, sourceLine: 10, sourceCharacter: 4, nameIndex: undefined },
      { generatedLine: 4, generatedCharacter: 13, ...nowhere },
      { generatedLine: 6, generatedCharacter: 0, sourceIndex: 0, sourceLine: 3, sourceCharacter: 700, nameIndex: undefined },
      { generatedLine: 6, generatedCharacter: 15, ...nowhere },
      { generatedLine: 8, generatedCharacter: 11, ...nowhere },
    ]);
  });
});
