import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { CODES } from "../src/diagnostics/codes.js";
import { readSpaces } from "../src/cli/read-spaces.js";
import { build, type SourceFile } from "../src/index.js";

// One fixture per diagnostic code: `<case>.md` and `<case>.expected.json` listing every
// diagnostic (code, line, column) the case must produce — no more, no fewer. A case whose name
// ends in `_knowledge` is compiled as a knowledge item, any other as a directive.
// A case that needs several items is a folder instead: `<case>/project/.ai/…` (and optionally
// `<case>/system/.ai/…`, a system space) with `<case>/expected.json`, whose entries also name the
// file (`source`, relative to the case folder).
const dir = fileURLToPath(new URL("./fixtures/diagnostics/", import.meta.url));
const cases = readdirSync(dir).filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3)).sort();
const projects = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const expectedOf = (name: string) => JSON.parse(readFileSync(projects.includes(name) ? join(dir, name, "expected.json") : `${dir}${name}.expected.json`, "utf8"));

// Builds hold the knowledge item of the built-in DirectiveInstruction hook, as a system space would,
// except in the fixture of RYE3008, the warning about its absence.
const INSTRUCTION: SourceFile = {
  kind: "knowledge",
  id: "rye/agent/core/DirectiveInstruction",
  path: "/system/.ai/knowledge/rye/agent/core/DirectiveInstruction.md",
  space: "system:9",
  text: "```yaml\nname: DirectiveInstruction\n```\n\nFollow the directive.\n",
};
const withInstruction = (name: string, sources: SourceFile[]) => (name.startsWith("rye3008") ? sources : [...sources, INSTRUCTION]);

/** Codes whose fixtures are not single `.md` files, with the test that asserts their code, line and column. */
const CLI_ONLY = new Set([
  "RYE1003", // test/cli/build.test.ts: a file on disk that is not UTF-8
  "RYE1004", // test/cli/build.test.ts: two files for one item id
  "RYE5001", // test/sign/check-sources.test.ts: needs a signed source and a trust store
  "RYE5002",
  "RYE5003",
  "RYE5004",
  "RYE7001", // test/agents/launch.test.ts: agent configuration TOML
  "RYE7002",
  "RYE7003",
  "RYE7004",
  "RYE1005", // test/matrix/bad-input.test.ts: project trees on disk (limits, symlinks, permissions, ids)
  "RYE1007",
  "RYE8001",
  "RYE8002",
  "RYE8003",
  "RYE8004",
  "RYE8005",
  // test/tools/diagnostics.test.ts: tool chains need several files, so each fixture is a small project in test/fixtures/tools/
  ...Object.keys(CODES).filter((c) => c.startsWith("RYE40")),
]);

describe("diagnostic fixtures", () => {
  test.each(cases)("%s", (name) => {
    const text = readFileSync(`${dir}${name}.md`, "utf8");
    const expected = JSON.parse(readFileSync(`${dir}${name}.expected.json`, "utf8"));
    const kind = name.endsWith("_knowledge") ? "knowledge" : "directive";
    const { diagnostics } = build(withInstruction(name, [{ kind, id: `fixtures/${name}`, path: `${name}.md`, text }]), "test");
    const actual = diagnostics.map((d) => ({ code: d.code, line: d.loc?.start.line, column: d.loc?.start.column }));
    expect(actual).toEqual(expected);
    for (const d of diagnostics) expect(d.severity).toBe(CODES[d.code as keyof typeof CODES][0]);
  });

  test.each(projects)("%s (project)", (name) => {
    const root = join(dir, name);
    const systems = existsSync(join(root, "system")) ? [join(root, "system")] : [];
    const { sources, diagnostics: read, hookConfig } = readSpaces({ project: join(root, "project"), user: join(root, "project"), systems });
    expect(read).toEqual([]);
    const { diagnostics } = build(withInstruction(name, sources), "test", { hookConfig });
    const display = (source: string) => relative(root, resolve(root, "project", source)).split("\\").join("/");
    const actual = diagnostics.map((d) => ({ code: d.code, source: d.loc && display(d.loc.source), line: d.loc?.start.line, column: d.loc?.start.column }));
    expect(actual).toEqual(expectedOf(name));
    for (const d of diagnostics) expect(d.severity).toBe(CODES[d.code as keyof typeof CODES][0]);
  });

  test("every code has a fixture", () => {
    const covered = new Set([...cases, ...projects].flatMap((c) => expectedOf(c).map((e: { code: string }) => e.code)));
    const missing = Object.keys(CODES).filter((c) => !covered.has(c) && !CLI_ONLY.has(c));
    expect(missing).toEqual([]);
  });
});
