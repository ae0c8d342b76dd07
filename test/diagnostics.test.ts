import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { CODES } from "../src/diagnostics/codes.js";
import type { Io } from "../src/cli/io.js";
import { main } from "../src/cli/main.js";
import { readSpaces } from "../src/project/read-spaces.js";
import { build, type Diagnostic, type SourceFile } from "../src/index.js";

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
const INSTRUCTION_PATH = ".ai/knowledge/rye/agent/core/DirectiveInstruction.md";
const withInstruction = (name: string, sources: SourceFile[]) => (name.startsWith("rye3008") ? sources : [...sources, INSTRUCTION]);

/** Codes whose fixtures are not single `.md` files, with the test that asserts their code, line and column. */
const CLI_ONLY = new Set([
  "RYE1003", // test/cli/build.test.ts: a file on disk that is not UTF-8
  "RYE1004", // test/cli/build.test.ts: two files for one item id
  "RYE1011", // test/kinds/unknown-kinds.test.ts: files on disk of no kind their folder reads
  "RYE5001", // test/sign/check-sources.test.ts: needs a signed source and a trust store
  "RYE5002",
  "RYE5003",
  "RYE5004",
  "RYE7001", // test/agents/launch.test.ts: agent configuration TOML
  "RYE7002",
  "RYE7003",
  "RYE7004",
  "RYE7005",
  "RYE1005", // test/matrix/bad-input.test.ts: project trees on disk (limits, symlinks, permissions, ids)
  "RYE1007",
  "RYE1010", // test/security/bounded-crash.test.ts: an internal error (a stack overflow) in a build thread, injected
  "RYE8001",
  "RYE8002",
  "RYE8003",
  "RYE8004",
  "RYE8005",
  "RYE8006", // test/output/write-failures.test.ts: a full disk (a tiny tmpfs, or an injected write) and permissions
  "RYE9001", // test/project/config.test.ts: rye.config.json and package.json settings
  "RYE9002",
  // test/testing/check-cases.test.ts: test files under .ai/tests/, checked by rye test (code, line and column)
  "RYE9101",
  "RYE9102",
  "RYE9103",
  "RYE9104",
  "RYE9105",
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

/** A directive source from its metadata lines and body. */
function directive(id: string, metadata: string, body: string, attrs = ""): SourceFile {
  const name = id.slice(id.lastIndexOf("/") + 1);
  const text = `# ${name}\n\n\`\`\`xml\n<directive name="${name}" version="1.0.0"${attrs}>\n  <metadata>\n    <description>D.</description>\n${metadata}  </metadata>\n</directive>\n\`\`\`\n\n${body}\n`;
  return { kind: "directive", id, path: `.ai/directives/${id}.md`, text };
}
const knowledge = (id: string, text = "```yaml\nname: k\n```\n\nK.\n"): SourceFile => ({ kind: "knowledge", id, path: `.ai/knowledge/${id}.md`, text });
const tool = (id: string, schema: string): SourceFile => ({ kind: "tool", id, path: `.ai/tools/${id}.py`, ext: ".py", text: `__tool_type__ = "python"\nCONFIG_SCHEMA = ${schema}\n` });
const messages = (sources: SourceFile[], code: string) =>
  build(withInstruction("", sources), "test").diagnostics.filter((d) => d.code === code).map((d) => d.message);
const spanOf = (sources: SourceFile[], code: string) => {
  const d = build(withInstruction("", sources), "test").diagnostics.find((x) => x.code === code)!;
  const text = sources.find((s) => s.path === d.loc!.source)!.text;
  return text.slice(d.loc!.start.offset, d.loc!.end.offset);
};

describe("name errors suggest the nearest name", () => {
  test("RYE6004: an unknown parameter of a called directive", () => {
    const callee = directive("a/summary", '  </metadata>\n  <inputs>\n    <input name="highlight" type="string" required="false">H</input>\n  </inputs>\n  <metadata>\n', "{input:highlight}");
    const caller = directive("a/caller", "", '`rye_execute(item_type="directive", item_id="a/summary", parameters={"highlights": "x", "zzz": 1})`');
    expect(messages([callee, caller], "RYE6004")).toEqual([
      "Call to directive 'a/summary' passes unknown parameter 'highlights'. Did you mean 'highlight'? Valid inputs: highlight.",
      "Call to directive 'a/summary' passes unknown parameter 'zzz'. Valid inputs: highlight.",
    ]);
    expect(spanOf([callee, caller], "RYE6004")).toBe('"highlights"');
  });

  test("RYE2008 and RYE2009: permission tags and input types", () => {
    const perm = directive("a/perm", "    <permissions>\n      <fetsh>*</fetsh>\n    </permissions>\n", "Body.");
    expect(messages([perm], "RYE2008")[0]).toMatch(/^Unknown tag <fetsh> inside <permissions>\. Did you mean <fetch>\?/);
    const typed = directive("a/typed", '  </metadata>\n  <inputs>\n    <input name="n" type="int" required="true">N</input>\n  </inputs>\n  <metadata>\n', "{input:n}");
    expect(messages([typed], "RYE2009")[0]).toMatch(/Did you mean 'integer'\?/);
  });

  test("RYE3004, RYE3005 and RYE6002: item ids, and no suggestion when nothing is near", () => {
    const base = directive("app/base", "", "Base.");
    const child = directive("app/child", "    <context>\n      <before>app/style-guide</before>\n      <after>zz/qq</after>\n    </context>\n", '`rye_load(item_type="knowledge", item_id="app/style_guide")`', ' extends="app/bsae"');
    const sources = [base, child, knowledge("app/style_guide")];
    expect(messages(sources, "RYE3004")).toEqual(["Directive 'app/bsae' (extends) was not found in the project, user or system space. Did you mean 'app/base'?"]);
    expect(spanOf(sources, "RYE3004")).toBe("app/bsae");
    expect(messages(sources, "RYE3005")).toEqual([
      "Knowledge item 'app/style-guide' (before) was not found in the project, user or system space. Did you mean 'app/style_guide'?",
      "Knowledge item 'zz/qq' (after) was not found in the project, user or system space.",
    ]);
    const call = directive("app/call", "", '`rye_execute(item_type="tool", item_id="rye/file-system/raed")` `rye_execute(item_type="tool", item_id="other/read")`');
    const tools = [tool("rye/file-system/read", "{}")];
    expect(messages([call, ...tools], "RYE6002")).toEqual([
      "tool 'rye/file-system/raed' is not found in the project, user or system space. Did you mean 'rye/file-system/read'?",
      // Same final name in another folder: the usual mistake when an id is written from memory.
      "tool 'other/read' is not found in the project, user or system space. Did you mean 'rye/file-system/read'?",
    ]);
  });

  test("RYE6006 and RYE6007: a tool call checked against CONFIG_SCHEMA", () => {
    const schema = '{"type": "object", "properties": {"diff": {"type": "string"}, "base": {"type": "string"}}, "required": ["diff"]}';
    const none = directive("team/review", "", '`rye_execute(item_type="tool", item_id="team/changed_files", parameters={})`');
    expect(messages([none, tool("team/changed_files", schema)], "RYE6006")).toEqual(["Call to tool 'team/changed_files' is missing required parameters: diff (its CONFIG_SCHEMA requires them)."]);
    expect(spanOf([none, tool("team/changed_files", schema)], "RYE6006")).toBe("{}");
    // A typo of the required name is one mistake: RYE6007 with its did-you-mean, no RYE6006 beside it.
    const call = directive("team/review", "", '`rye_execute(item_type="tool", item_id="team/changed_files", parameters={"dif": "x"})`');
    const sources = [call, tool("team/changed_files", schema)];
    expect(messages(sources, "RYE6006")).toEqual([]);
    expect(messages(sources, "RYE6007")).toEqual([
      "Call to tool 'team/changed_files' passes 'dif', which its CONFIG_SCHEMA does not declare. Did you mean 'diff'? Declared parameters: diff, base.",
    ]);
    expect(spanOf(sources, "RYE6007")).toBe('"dif"');
    // A schema without properties or required names checks nothing.
    expect(build(withInstruction("", [call, tool("team/changed_files", "{}")]), "test").diagnostics).toEqual([]);
  });

  test("RYE6001 underlines the token where the call stops parsing", () => {
    const call = directive("a/broken", "", '`rye_execute(item_type="tool", item_id=some_variable, parameters={})`');
    expect(spanOf([call], "RYE6001")).toBe("some_variable");
  });
});

describe("messages agree with locations", () => {
  test("RYE3002 names no line counted from the fence", () => {
    const k = knowledge("k", "```yaml\nname: k\ntitle: @reserved\n```\n\nBody.\n");
    const [d] = build([k], "test").diagnostics;
    expect(d).toMatchObject({ code: "RYE3002", loc: { start: { line: 3, column: 8 } } });
    expect(d!.message).not.toMatch(/line \d/);
    expect(d!.message).toMatch(/^Invalid YAML in the metadata fence: .*reserved character @$/);
  });

  test("RYE3008 says how to add the missing knowledge item, once per build", () => {
    const ds = build([directive("a/one", "", "One."), directive("a/two", "", "Two.")], "test").diagnostics;
    expect(ds.map((d) => d.code)).toEqual(["RYE3008"]);
    expect(ds[0]!.message).toContain("Add .ai/knowledge/rye/agent/core/DirectiveInstruction.md");
    // A build whose hooks come from hook_conditions.yaml does not use the built-in hook.
    const configured = build([directive("a/one", "", "One.")], "test", { hookConfig: { path: "hook_conditions.yaml", text: "context_hooks: []\n" } });
    expect(configured.diagnostics).toEqual([]);
  });
});

describe("a build that reuses its cache reports what a fresh build reports", () => {
  const USER = mkdtempSync(join(tmpdir(), "rye-user-"));
  async function report(dir: string) {
    let stdout = "";
    const sink = { write: (t: string) => ((stdout += t), true), isTTY: false } as unknown as Io["stdout"];
    const quiet = { write: () => true, isTTY: false } as unknown as Io["stderr"];
    await main(["build", "--project", dir, "--json", "--allow-unsigned"], { stdout: sink, stderr: quiet, cwd: dir, env: { USER_SPACE: USER } });
    return (JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics.map((d) => `${d.code} ${d.loc?.source}:${d.loc?.start.line}:${d.loc?.start.column} ${d.message}`);
  }
  const write = (dir: string, files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
  };
  const schema = (name: string) => `__tool_type__ = "python"\nCONFIG_SCHEMA = {"properties": {"${name}": {"type": "string"}}}\n`;

  // Only a build without errors saves its cache, so these are warnings.
  test("when a called tool's schema changes, and when an id near a missing one appears", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-cache-"));
    const body = '`rye_execute(item_type="tool", item_id="team/changed_files", parameters={"dif": "x"})` `rye_execute(item_type="directive", item_id="app/bsae")`';
    const child = directive("app/child", "", body);
    write(dir, { [child.path]: child.text, ".ai/tools/team/changed_files.py": schema("diff"), [INSTRUCTION_PATH]: INSTRUCTION.text });
    const missing = "RYE6002 .ai/directives/app/child.md:11:132 directive 'app/bsae' is not found in the project, user or system space.";
    expect(await report(dir)).toEqual([
      "RYE6007 .ai/directives/app/child.md:11:74 Call to tool 'team/changed_files' passes 'dif', which its CONFIG_SCHEMA does not declare. Did you mean 'diff'? Declared parameters: diff.",
      missing,
    ]);
    write(dir, { ".ai/tools/team/changed_files.py": schema("dif") });
    expect(await report(dir)).toEqual([missing]);
    write(dir, { ".ai/directives/app/base.md": directive("app/base", "", "Base.").text });
    const again = await report(dir);
    expect(again).toEqual([`${missing} Did you mean 'app/base'?`]);
    const fresh = mkdtempSync(join(tmpdir(), "rye-fresh-"));
    cpSync(join(dir, ".ai"), join(fresh, ".ai"), { recursive: true });
    expect(await report(fresh)).toEqual(again);
  });
});
