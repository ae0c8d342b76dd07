// File and folder names are source bytes too: they reach headers, ids, import specifiers and doc
// comments of the emitted code. Whatever they hold, the output imports and renders, or the build
// refuses the name with a located RYE8003; nothing in a name ever runs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { build, type SourceFile } from "../../src/index.js";
import { readProject } from "../../src/project/read-project.js";
import { runtimeFiles } from "../../src/output/runtime-files.js";

/** Writes a marker file in the working directory and sets a global: either means code from a name ran. */
const PAYLOAD = 'globalThis.__ryePwned=1;process.getBuiltinModule("fs").writeFileSync("rye-pwned","x");';
const MARKER = "rye-pwned";

const ATOMS = [
  "a", "b", "é", "日本", "😀", " ", "\n", "\r", "\u2028", "\u2029", "\u0085", "\t", "\u202e",
  "*/", "/*", "/", "?", "#", "%", "%41", "%2e", "%2F", "'", '"', "`", "${", "}", "\\", ".", ";", PAYLOAD,
];

const directiveText = (label: string) => `# t

\`\`\`xml
<directive name="t" version="1.0.0">
  <metadata><description>d</description></metadata>
  <inputs><input name="x" type="string" required="true">X</input></inputs>
</directive>
\`\`\`

${label} {input:x}
`;

const knowledgeText = (label: string) => `\`\`\`yaml
name: k
title: K
entry_type: reference
version: "1.0.0"
\`\`\`

${label}
`;

/**
 * The spec for a usable id: '/'-separated, no empty, '.' or '..' part, no backslash, control character,
 * line terminator, or `%`, `?`, `#` (README, "Diagnostics").
 */
function usable(id: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[\\\u0000-\u001f\u007f-\u009f\u2028\u2029%?#]/.test(id) && id.split("/").every((p) => p !== "" && p !== "." && p !== "..");
}

/** A name as the file system will hold it: no empty, '.' or '..' segment, none too long. */
function onDisk(name: string): string | null {
  const segments = name.split("/").filter((s) => s !== "" && s !== "." && s !== "..");
  if (segments.length === 0 || segments.some((s) => Buffer.byteLength(s) > 200)) return null;
  return segments.join("/");
}

interface Run {
  bodies: Record<string, string>;
  knowledge: Record<string, string>;
  pwned: string;
}

/** Imports out/index.js and the given knowledge modules in a fresh node whose working directory is `out`. */
function importAll(out: string, knowledgeIds: readonly string[]): Run {
  const script = `
import { pathToFileURL } from "node:url";
import { join } from "node:path";
const [out, ids] = [process.argv[1], JSON.parse(process.argv[2])];
const { directives } = await import(pathToFileURL(join(out, "index.js")).href);
const bodies = {};
for (const [id, m] of Object.entries(directives)) bodies[id] = m.render({ x: "v" }).body;
const knowledge = {};
for (const id of ids) knowledge[id] = (await import(pathToFileURL(join(out, "knowledge", id + ".js")).href)).content;
process.stdout.write(JSON.stringify({ bodies, knowledge, pwned: typeof globalThis.__ryePwned }));
`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script, out, JSON.stringify(knowledgeIds)], { cwd: out, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`out/ does not import: ${r.stderr}`);
  return JSON.parse(r.stdout) as Run;
}

function writeTree(root: string, files: Map<string, string>): void {
  for (const [rel, text] of files) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** Builds the files as a project on disk (readProject, then the pure build) and imports the output. */
function buildAndImport(project: string, sources: readonly SourceFile[]) {
  const result = build(sources, "test");
  const out = join(project, "out");
  writeTree(out, new Map([...result.files, ...runtimeFiles()]));
  const knowledgeIds = sources.filter((s) => s.kind === "knowledge").map((s) => s.id);
  return { result, out, run: importAll(out, knowledgeIds) };
}

describe("hostile file and folder names", () => {
  test("compile to modules that import and render, or are a located RYE8003; nothing in a name runs", () => {
    const name = fc.array(fc.constantFrom(...ATOMS), { minLength: 1, maxLength: 6 }).map((atoms) => onDisk(atoms.join("")));
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 3 }), fc.boolean(), (names, withKnowledge) => {
        const ids = names.filter((n): n is string => n !== null);
        fc.pre(ids.length > 0);
        const project = mkdtempSync(join(tmpdir(), "rye-names-"));
        const tree = new Map<string, string>();
        for (const [i, id] of ids.entries()) {
          tree.set(`.ai/directives/${id}.md`, directiveText(`D${i}`));
          if (withKnowledge) tree.set(`.ai/knowledge/${id}.md`, knowledgeText(`K${i}`));
        }
        try {
          writeTree(project, tree);
        } catch {
          fc.pre(false); // one name is a file and a folder at once: not a case the file system can hold
        }
        const read = readProject(project);
        // Every refused name is an RYE8003 at line 1, column 1 of its own file; every other name is read.
        for (const d of read.diagnostics) {
          expect(d.code).toBe("RYE8003");
          expect(tree.has(d.loc!.source), d.loc!.source).toBe(true);
          expect(d.loc!.start).toMatchObject({ line: 1, column: 1 });
        }
        for (const [path] of tree) {
          const id = path.replace(/^\.ai\/(directives|knowledge)\//, "").slice(0, -3);
          const refused = read.diagnostics.some((d) => d.loc?.source === path);
          expect(refused, JSON.stringify(id)).toBe(!usable(id));
          expect(read.sources.some((s) => s.path === path)).toBe(usable(id));
        }
        const { result, out, run } = buildAndImport(project, read.sources);
        expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        const expected = Object.fromEntries(ids.map((id, i) => [id, `D${i} v`]).filter(([id]) => usable(id!)));
        expect(run.bodies).toEqual(expected);
        if (withKnowledge) expect(Object.keys(run.knowledge).sort()).toEqual(Object.keys(expected).sort());
        for (const [id, content] of Object.entries(run.knowledge)) expect(content.trim()).toBe(`K${ids.indexOf(id)}`);
        expect(run.pwned).toBe("undefined");
        expect(existsSync(join(out, MARKER))).toBe(false);
      }),
      { numRuns: 40 },
    );
  }, 240_000);

  test("ids the file reader would refuse, given to the pure build, still cannot escape into code", () => {
    // build() takes ids as given: the emitted code must be safe for any string, not just for usable
    // ids. (Not a backslash: Node refuses to import a file whose name holds one, encoded or not.)
    const id = fc.array(fc.constantFrom(...ATOMS.filter((a) => a !== "\\")), { minLength: 1, maxLength: 5 }).map((a) => a.join(""));
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 1, maxLength: 3 }), (ids) => {
        // Each id names a path under directives/: no empty, '.' or '..' segment (what RYE8003 guards besides characters).
        fc.pre(ids.every((i) => i.split("/").every((p) => p !== "" && p !== "." && p !== ".." && Buffer.byteLength(p) < 200)));
        const project = mkdtempSync(join(tmpdir(), "rye-ids-"));
        const sources: SourceFile[] = ids.map((id, i) => ({ kind: "directive", id, path: `.ai/directives/${id}.md`, text: directiveText(`D${i}`) }));
        const { result, out, run } = buildAndImport(project, sources);
        expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        // The module of each id is found under the id's own name, whatever it holds.
        expect(run.bodies).toEqual(Object.fromEntries(ids.map((id, i) => [id, `D${i} v`])));
        expect(run.pwned).toBe("undefined");
        expect(existsSync(join(out, MARKER))).toBe(false);
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});

describe("a folder name holding U+2028, then a segment that opens a block comment", () => {
  // `.ai/directives/a<U+2028><payload>/*x/d.md`: in an unescaped `// @generated … from <path>` header,
  // U+2028 ends the comment, the payload is code, and `/*x/d.md…` opens a comment that the module's
  // first JSDoc closes, so the module still parses and the payload runs on import.
  const folder = `a\u2028${PAYLOAD}`;
  const id = `${folder}/*x/d`;
  const path = `.ai/directives/${id}.md`;

  test("is refused with RYE8003 at the file, and the rest of the project builds and imports", () => {
    const project = mkdtempSync(join(tmpdir(), "rye-ls-"));
    writeTree(project, new Map([[path, directiveText("evil")], [".ai/directives/ok.md", directiveText("fine")]]));
    const read = readProject(project);
    expect(read.diagnostics.map((d) => [d.code, d.loc?.source, d.loc?.start.line, d.loc?.start.column])).toEqual([["RYE8003", path, 1, 1]]);
    expect(read.diagnostics[0]!.message).toContain("line terminators");
    const { run, out } = buildAndImport(project, read.sources);
    expect(run.bodies).toEqual({ ok: "fine v" });
    expect(run.pwned).toBe("undefined");
    expect(existsSync(join(out, MARKER))).toBe(false);
  });

  test("given to the pure build as is, the header shows the path escaped and importing runs nothing", () => {
    const project = mkdtempSync(join(tmpdir(), "rye-ls-pure-"));
    const { result, out, run } = buildAndImport(project, [{ kind: "directive", id, path, text: directiveText("evil") }]);
    const js = result.files.get(`directives/${id}.js`)!;
    const header = js.slice(0, js.indexOf("\n") + 1);
    expect(header).toBe(`// @generated by rye build from .ai/directives/a\\u2028${PAYLOAD}/*x/d.md: do not edit.\n`);
    expect(js).not.toMatch(/[\r\u2028\u2029]/);
    expect(run.bodies).toEqual({ [id]: "evil v" });
    expect(run.pwned).toBe("undefined");
    expect(existsSync(join(out, MARKER))).toBe(false);
    // The payload is live: with the header written raw, as before the escaper covered it, it runs
    // once anything later in the module (a doc comment, the item's own text) closes the comment.
    writeFileSync(join(out, "directives", `${id}.js`), js.replace(header, `// @generated by rye build from ${path}: do not edit.\n/** */\n`));
    expect(readFileSync(join(out, "directives", `${id}.js`), "utf8")).toContain("\u2028");
    spawnSync(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(`./index.js`)}).catch(() => {});`], { cwd: out });
    expect(existsSync(join(out, MARKER))).toBe(true);
  });
});

describe("names that URLs read differently from paths", () => {
  const names = ["p%41x", "pAx", "q?r", "s#t", "u v", "ünï", "100%"];

  test("%, ? and # are a located RYE8003; spaces and non-ASCII build", () => {
    const project = mkdtempSync(join(tmpdir(), "rye-pct-"));
    writeTree(project, new Map(names.map((n) => [`.ai/directives/${n}.md`, directiveText(n)])));
    const read = readProject(project);
    expect(read.diagnostics.map((d) => [d.code, d.loc?.source, d.loc?.start.line]).sort()).toEqual(
      ["p%41x", "q?r", "s#t", "100%"].map((n) => ["RYE8003", `.ai/directives/${n}.md`, 1]).sort(),
    );
    const { run } = buildAndImport(project, read.sources);
    expect(run.bodies).toEqual({ pAx: "pAx v", "u v": "u v v", ünï: "ünï v" });
  });

  test("given to the pure build, p%41x and pAx are two items, each imported from its own module", () => {
    const project = mkdtempSync(join(tmpdir(), "rye-pct-pure-"));
    const { result, run } = buildAndImport(project, names.map((n) => ({ kind: "directive", id: n, path: `.ai/directives/${n}.md`, text: directiveText(n) })));
    expect(result.files.get("index.js")).toContain('from "./directives/p%2541x.js"');
    expect(run.bodies).toEqual(Object.fromEntries(names.map((n) => [n, `${n} v`])));
  });
});
