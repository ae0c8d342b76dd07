// Decision #25: every recursive input has a limit. Random structures of random depth (up to 10,000)
// in every recursive syntax a project holds go through the real CLI; each build either compiles and
// its output imports (verified, under rye-build/register), or fails with exactly the located
// diagnostic of that syntax's limit and exit 1. Never a stack overflow, an internal error, or exit 0
// with output that does not load. The expected outcome is worked out here from the documented limits.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BIN, REPO, tempDir } from "./helpers.js";

const GREET = '# greet\n\n```xml\n<directive name="greet" version="1.0.0">\n  <metadata><description>Greets.</description></metadata>\n</directive>\n```\n\nHello.\n';
const directive = (metadata: string, body: string) => `# t\n\n\`\`\`xml\n<directive name="t" version="1.0.0">\n  <metadata><description>d</description></metadata>\n${metadata}</directive>\n\`\`\`\n\n${body}\n`;

/** A random nesting of `depth` dicts and lists (`shape` picks each level), holding `leaf`. */
function nested(depth: number, shape: number, dict: (v: string) => string, list: (v: string) => string, leaf: string): string {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = (shape >> i % 31) & 1 ? list(v) : dict(v);
  return v;
}

interface Case {
  /** Files of the project, by path. */
  files: Record<string, string>;
  /** The error expected (code, line, column), or null for a build that must compile. */
  error: { code: string; line: number; column: number } | null;
}

type Syntax = (depth: number, shape: number) => Case;

const callLine = (value: string) => `Run \`rye_execute(item_type="tool", item_id="t", parameters=${value})\` now.`;
/** Column of the bracket that opens level 129 (the first past the limit) in `line`. */
const bracketPast = (line: string, limit: number, from = 0) => {
  let depth = 0;
  for (let i = from; i < line.length; i++) {
    if (line[i] === "{" || line[i] === "[") if (++depth > limit) return i + 1;
  }
  return -1;
};

const SYNTAXES: Record<string, Syntax> = {
  // Backtick call parameters: 128 levels of dicts and lists (RYE1008), the parameters dict being the first.
  "backtick call": (depth, shape) => {
    const value = `{"p": ${nested(depth - 1, shape, (v) => `{"a": ${v}}`, (v) => `[${v}]`, '"x"')}}`;
    const body = callLine(value);
    const files = { ".ai/directives/t.md": directive("", body), ".ai/tools/t.py": '__tool_type__ = "python"\n__executor_id__ = None\n' };
    return { files, error: depth > 128 ? { code: "RYE1008", line: 9, column: bracketPast(body, 128) } : null };
  },
  // Knowledge YAML: 128 collections, the top mapping counting as one (RYE1009).
  "knowledge YAML (flow)": (depth, shape) => {
    const line = `extra: ${nested(depth, shape, (v) => `{a: ${v}}`, (v) => `[${v}]`, "1")}`;
    const text = `\`\`\`yaml\nname: k\n${line}\n\`\`\`\n\n# K\n`;
    return { files: { ".ai/knowledge/k.md": text }, error: 1 + depth > 128 ? { code: "RYE1009", line: 3, column: bracketPast(line, 127) } : null };
  },
  "knowledge YAML (block)": (depth) => {
    const d = Math.min(depth, 1400);
    const lines = Array.from({ length: d }, (_, i) => `${" ".repeat(i + 1)}-`);
    const text = `\`\`\`yaml\nname: k\nextra:\n${lines.join("\n")} 1\n\`\`\`\n`;
    // The sequence opened by the 128th dash is level 129 (the top mapping is level 1).
    return { files: { ".ai/knowledge/k.md": text }, error: 1 + d > 128 ? { code: "RYE1009", line: 3 + 128, column: 129 } : null };
  },
  // Metadata XML: 256 elements, <directive> being the first (RYE1006).
  "metadata XML": (depth) => {
    const notes = `  ${"<n>".repeat(depth)}x${"</n>".repeat(depth)}\n`;
    return { files: { ".ai/directives/t.md": directive(notes, "Body.") }, error: 1 + depth > 256 ? { code: "RYE1006", line: 6, column: 3 + 3 * 255 } : null };
  },
};

/** Tool literals: past their limit the metadata is refused or ignored (RYE4004, RYE4005), never a crash. */
const TOOL_SYNTAXES: Record<string, (depth: number, shape: number) => Record<string, string>> = {
  "Python literal": (depth, shape) => ({ ".ai/tools/t.py": `__tool_type__ = "python"\n__executor_id__ = None\nCONFIG_SCHEMA = ${nested(depth, shape, (v) => `{"a": ${v}}`, (v) => `[${v}]`, "1")}\n` }),
  "JS object literal": (depth, shape) => ({ ".ai/tools/t.js": `export const __tool_type__ = "javascript";\nexport const __executor_id__ = null;\nexport const CONFIG_SCHEMA = ${nested(depth, shape, (v) => `{a: ${v}}`, (v) => `[${v}]`, "1")};\n` }),
  "tool YAML": (depth, shape) => ({ ".ai/tools/t.yaml": `version: "1.0.0"\ntool_type: primitive\nexecutor_id: null\nconfig_schema: ${nested(depth, shape, (v) => `{a: ${v}}`, (v) => `[${v}]`, "1")}\n` }),
};

let root: string;
let n = 0;
beforeAll(() => {
  root = tempDir("rye-nesting-");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project holding `files`, greet and `fillers` more directives, with rye-build installed. */
function project(files: Record<string, string>, fillers = 0): string {
  const dir = join(root, `p${n++}`);
  for (const [path, text] of Object.entries({ ".ai/directives/greet.md": GREET, ...files })) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (let i = 0; i < fillers; i++) writeFileSync(join(dir, `.ai/directives/f${i}.md`), GREET.replace('name="greet"', `name="f${i}"`));
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(REPO, join(dir, "node_modules", "rye-build"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "type": "module", "private": true }\n');
  // Imports every module of out/ through the verifying loader.
  writeFileSync(join(dir, "load.mjs"), `import { readdirSync } from "node:fs";\nimport { join } from "node:path";\nconst walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? (e.name === "runtime" ? [] : walk(join(d, e.name))) : e.name.endsWith(".js") ? [join(d, e.name)] : []);\nlet n = 0;\nfor (const f of walk("out")) { await import("./" + f); n++; }\nconsole.log("loaded " + n);\n`);
  return dir;
}

const env = () => ({ PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" });
function build(dir: string) {
  const r = spawnSync(process.execPath, [BIN, "build", "--jobs", "2"], { cwd: dir, env: env(), encoding: "utf8", timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}
function load(dir: string) {
  return spawnSync(process.execPath, ["--import", "rye-build/register", "load.mjs"], { cwd: dir, env: env(), encoding: "utf8", timeout: 60_000 });
}

/** What no build may ever print: a crash, or a limit met by the stack instead of a check. */
const CRASH = /Maximum call stack|RangeError|RYE1010|RYE8006|at .*\.js:\d+:\d+\)/;

function check(dir: string, error: Case["error"]): void {
  const r = build(dir);
  expect(r.out).not.toMatch(CRASH);
  if (error === null) {
    expect(r.status, r.out).toBe(0);
    const loaded = load(dir);
    expect(loaded.status, loaded.stderr).toBe(0);
    expect(loaded.stdout).toMatch(/loaded \d+/);
  } else {
    expect(r.status).toBe(1);
    const errors = [...r.out.matchAll(/^(\S+):(\d+):(\d+) - error (RYE\d+)/gm)].map((m) => ({ code: m[4], line: Number(m[2]), column: Number(m[3]) }));
    expect(errors).toEqual([error]);
  }
}

const depthArb = fc.oneof(fc.integer({ min: 1, max: 160 }), fc.integer({ min: 120, max: 300 }), fc.integer({ min: 1, max: 10_000 }));

describe("nesting in every recursive syntax, through the CLI", () => {
  test.each(Object.keys(SYNTAXES))("%s: compiles and imports within the limit, exactly its located error past it (property)", (name) => {
    fc.assert(
      fc.property(depthArb, fc.nat(), (depth, shape) => {
        const c = SYNTAXES[name]!(depth, shape);
        check(project(c.files), c.error);
      }),
      { numRuns: 6, seed: 25, endOnFailure: true },
    );
  }, 300_000);

  test.each(Object.keys(TOOL_SYNTAXES))("%s: a tool nested at random depth never crashes; output that is written imports (property)", (name) => {
    fc.assert(
      fc.property(depthArb, fc.nat(), (depth, shape) => {
        const dir = project(TOOL_SYNTAXES[name]!(depth, shape));
        const r = build(dir);
        expect(r.out).not.toMatch(CRASH);
        expect([0, 1]).toContain(r.status);
        if (r.status === 0) expect(load(dir).status).toBe(0);
        else expect([...r.out.matchAll(/ - error (RYE\d+)/g)].map((m) => m[1])).toEqual(["RYE4004"]);
        // Real tools nest a handful of levels: those always compile.
        if (depth <= 50) expect(r.status).toBe(0);
      }),
      { numRuns: 5, seed: 25, endOnFailure: true },
    );
  }, 300_000);

  test("on two threads (600 items): a call nested 5,000 deep is RYE1008 every time, never exit 0", () => {
    for (let run = 0; run < 3; run++) {
      const c = SYNTAXES["backtick call"]!(5000, 0x2aaaaaaa);
      check(project(c.files, 600), c.error);
    }
  }, 300_000);

  test("on two threads (600 items): a call nested 128 deep compiles and its module imports", () => {
    const c = SYNTAXES["backtick call"]!(128, 0x15555555);
    expect(c.error).toBeNull();
    check(project(c.files, 600), null);
  }, 300_000);
});
