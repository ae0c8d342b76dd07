// A long-lived build (--watch) checks only the changed items and those whose analysis looked them up
// (its dependency index). Each change below affects items other than the one edited: a knowledge item
// in a directive's context, an extends parent, a called directive's inputs. After each, the watch's
// output must be byte for byte what a one-shot build of the same tree writes, its diagnostics the same,
// and only the affected items rebuilt.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { buildProject, type BuildMemo } from "../../src/builder/build-project.js";
import { spacesFrom } from "../../src/project/read-spaces.js";
import { WatchedSources } from "../../src/watch/watch-sources.js";
import { generateKeyPair, signingKeyFrom } from "../../src/sign/keys.js";
import { signItem } from "../../src/sign/sign-item.js";
import { outsideOf } from "../helpers/outside.js";

const base = mkdtempSync(join(tmpdir(), "rye-watch-deps-"));
const env = { USER_SPACE: join(outsideOf(base), "user"), RYE_SIGNING_KEY_DIR: join(base, "keys") };
const sink = { write: () => true, isTTY: false } as unknown as Io["stdout"];

const knowledge = (title: string, body: string) => `\`\`\`yaml\nname: ${title}\ntitle: ${title}\n\`\`\`\n\n${body}\n`;
const directive = (name: string, o: { extendsId?: string; inputs?: string; body?: string; context?: string } = {}) => `# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0"${o.extendsId ? ` extends="${o.extendsId}"` : ""}>
  <metadata>
    <description>${name} for the dependents tests.</description>
${o.context ?? ""}  </metadata>
${o.inputs ?? ""}</directive>
\`\`\`

<process>
${o.body ?? "  Do the thing."}
</process>
`;
const topic = '  <inputs>\n    <input name="topic" type="string" required="true">Topic</input>\n  </inputs>\n';
const START: Record<string, string> = {
  ".ai/knowledge/t/rules.md": knowledge("rules", "Rule one: be brief."),
  ".ai/directives/t/base.md": directive("base", { context: "    <context>\n      <system>t/rules</system>\n    </context>\n" }),
  ".ai/directives/t/child.md": directive("child", { extendsId: "t/base", inputs: topic, body: "  Write about {input:topic}." }),
  ".ai/directives/t/caller.md": directive("caller", { body: '  `rye_execute(item_type="directive", item_id="t/child", parameters={"topic": "rye"})`' }),
  ".ai/directives/t/alone.md": directive("alone"),
};

function write(dir: string, rel: string, text: string): string {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), text);
  return join(dir, rel);
}

/** Every file of out/ but the writer's own work folder, by relative path. */
function tree(out: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const e of readdirSync(out, { recursive: true, withFileTypes: true })) {
    const rel = join(e.parentPath, e.name).slice(out.length + 1);
    if (e.isFile() && !rel.startsWith(".rye")) files[rel] = readFileSync(join(out, rel), "utf8");
  }
  return files;
}

function build(project: string, extra: { memo?: BuildMemo; read?: () => ReturnType<WatchedSources["read"]> } = {}) {
  const spaces = spacesFrom(project, {}, project, env);
  const r = buildProject({ project, outDir: join(project, "out"), spaces, ...extra }, { stdout: sink, stderr: sink, cwd: project, env });
  return { ...r, diagnostics: r.diagnostics.map((d) => `${d.code} ${d.loc?.source ?? ""}:${d.loc?.start.line ?? ""} ${d.message}`) };
}

/** A one-shot build of a fresh copy of the project's sources: what the watch must equal. */
function oneShot(project: string) {
  const copy = mkdtempSync(join(tmpdir(), "rye-watch-deps-once-"));
  cpSync(join(project, ".ai"), join(copy, ".ai"), { recursive: true });
  const r = build(copy);
  return { diagnostics: r.diagnostics, out: existsSync(join(copy, "out")) ? tree(join(copy, "out")) : null };
}

describe("a watch rebuild after a change that affects other items", () => {
  const project = mkdtempSync(join(tmpdir(), "rye-watch-deps-p-"));
  for (const [rel, text] of Object.entries(START)) write(project, rel, text);
  const watched = new WatchedSources(spacesFrom(project, {}, project, env));
  const memo: BuildMemo = {};
  const rebuild = (rel: string, text: string) => {
    watched.touch(write(project, rel, text));
    return build(project, { memo, read: () => watched.read() });
  };
  const module = (id: string) => readFileSync(join(project, "out", "directives", `${id}.js`), "utf8");

  test("the first build, then a change nothing depends on: one of five items rebuilt, the rest carried over", () => {
    expect(build(project, { memo, read: () => watched.read() }).diagnostics).toEqual(oneShot(project).diagnostics);
    const r = rebuild(".ai/directives/t/alone.md", directive("alone", { body: "  Do the other thing." }));
    expect([r.rebuilt, r.reused]).toEqual([1, 4]);
    expect(tree(join(project, "out"))).toEqual(oneShot(project).out);
  });

  test("a knowledge item in a directive's context: the directive and the one extending it are rebuilt", () => {
    const before = module("t/child");
    const r = rebuild(".ai/knowledge/t/rules.md", knowledge("rules", "Rule one: be brief. Rule two: be kind."));
    expect([r.rebuilt, r.reused]).toEqual([3, 2]);
    // A thread's knowledge is imported from its own module: the child's module is unchanged, and points at the new text.
    expect(module("t/child")).toBe(before);
    expect(module("t/child")).toContain('from "../../knowledge/t/rules.js"');
    expect(readFileSync(join(project, "out", "knowledge", "t", "rules.js"), "utf8")).toContain("Rule two");
    const once = oneShot(project);
    expect(r.diagnostics).toEqual(once.diagnostics);
    expect(tree(join(project, "out"))).toEqual(once.out);
  });

  test("an extends parent: its child is rebuilt with the parent's new context", () => {
    write(project, ".ai/knowledge/t/extra.md", knowledge("extra", "Extra context."));
    watched.touch(join(project, ".ai/knowledge/t/extra.md"));
    const r = rebuild(".ai/directives/t/base.md", directive("base", { context: "    <context>\n      <system>t/rules</system>\n      <before>t/extra</before>\n    </context>\n" }));
    expect(module("t/child")).toContain('from "../../knowledge/t/extra.js"');
    expect(readFileSync(join(project, "out", "knowledge", "t", "extra.js"), "utf8")).toContain("Extra context.");
    expect(r.rebuilt).toBeLessThan(6);
    const once = oneShot(project);
    expect(r.diagnostics).toEqual(once.diagnostics);
    expect(tree(join(project, "out"))).toEqual(once.out);
  });

  test("a called directive's inputs: its unchanged caller is checked again, fails, and recovers", () => {
    const twoInputs = '  <inputs>\n    <input name="topic" type="string" required="true">Topic</input>\n    <input name="tone" type="string" required="true">Tone</input>\n  </inputs>\n';
    const failed = rebuild(".ai/directives/t/child.md", directive("child", { extendsId: "t/base", inputs: twoInputs, body: "  Write about {input:topic} in a {input:tone} tone." }));
    expect(failed.diagnostics.join("\n")).toMatch(/RYE6003 .*caller\.md.*missing required inputs: tone/);
    expect(failed.diagnostics).toEqual(oneShot(project).diagnostics);
    const fixed = rebuild(".ai/directives/t/caller.md", directive("caller", { body: '  `rye_execute(item_type="directive", item_id="t/child", parameters={"topic": "rye", "tone": "dry"})`' }));
    expect(fixed.diagnostics.filter((d) => d.startsWith("RYE6003"))).toEqual([]);
    const once = oneShot(project);
    expect(fixed.diagnostics).toEqual(once.diagnostics);
    expect(tree(join(project, "out"))).toEqual(once.out);
    expect(module("t/caller")).toContain("dry");
  });
});

// A rebuild after edits to existing files takes the warm path: it visits only the affected items and
// the items with diagnostics, and carries everything else over (grouping, tools, registry, manifest
// shards, the output record). Each change below exercises one thing that path patches rather than
// recomputes; a file added or removed takes the full path, and the warm path resumes after it.
describe("warm rebuilds: what the warm path patches equals what a full build computes", () => {
  const project = mkdtempSync(join(tmpdir(), "rye-watch-warm-"));
  const tool = (params: string) =>
    `__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rye/core/primitives/subprocess"\nCONFIG_SCHEMA = {"type": "object", "properties": {${params}}}\n\nprint("{}")\n`;
  const callsTool = '  `rye_execute(item_type="tool", item_id="w/echo", parameters={"value": "x", "extra": "y"})`';
  const callsChild = (param: string) => `  \`rye_execute(item_type="directive", item_id="w/child", parameters={"${param}": "rye"})\``;
  const key = signingKeyFrom(generateKeyPair().privatePem);
  const signed = signItem(knowledge("signed", "Signed text."), "knowledge", key, "2024-01-02T03:04:05Z");
  const files: Record<string, string> = {
    ".ai/tools/rye/core/primitives/subprocess.yaml": 'version: "1.0.0"\ntool_type: primitive\nexecutor_id: null\n',
    ".ai/tools/w/echo.py": tool('"value": {"type": "string"}'),
    ".ai/knowledge/w/style.md": knowledge("style", "Plain words."),
    ".ai/knowledge/w/signed.md": signed,
    ".ai/directives/w/child.md": directive("child", { inputs: topic, body: "  Write about {input:topic}.", context: "    <context>\n      <system>w/style</system>\n    </context>\n" }),
    ".ai/directives/w/caller.md": directive("caller", { body: callsChild("topic") }),
    // Passes a parameter the tool does not declare: a warning every build reports, whichever item changed.
    ".ai/directives/w/tooluser.md": directive("tooluser", { body: callsTool }),
    ".ai/directives/v/other.md": directive("other"),
  };
  for (const [rel, text] of Object.entries(files)) write(project, rel, text);
  const watched = new WatchedSources(spacesFrom(project, {}, project, env));
  const memo: BuildMemo = {};
  const rebuild = (touched: string[]) => {
    for (const rel of touched) watched.touch(join(project, rel));
    return build(project, { memo, read: () => watched.read() });
  };
  const edit = (rel: string, text: string) => (write(project, rel, text), rebuild([rel]));
  /** The watch's diagnostics and out/ equal a one-shot build's; returns the one-shot's diagnostics. */
  const same = (r: ReturnType<typeof build>) => {
    const once = oneShot(project);
    expect(r.diagnostics).toEqual(once.diagnostics);
    if (once.out) expect(tree(join(project, "out"))).toEqual(once.out);
    return once.diagnostics;
  };

  test("an edit elsewhere: the standing warning is still reported, one item rebuilt", () => {
    const first = rebuild([]);
    expect(first.diagnostics.filter((d) => d.startsWith("RYE6007"))).toHaveLength(1);
    same(first);
    const r = edit(".ai/directives/v/other.md", directive("other", { body: "  Something else." }));
    expect(r.rebuilt).toBe(1);
    expect(same(r).filter((d) => d.startsWith("RYE6007"))).toHaveLength(1);
  });

  test("knowledge a context uses: the directive embedding it is rebuilt with the new text", () => {
    const r = edit(".ai/knowledge/w/style.md", knowledge("style", "Short plain words."));
    expect(r.rebuilt).toBe(2);
    expect(readFileSync(join(project, "out", "knowledge", "w", "style.js"), "utf8")).toContain("Short plain words.");
    same(r);
  });

  test("a renamed input a caller uses: the caller fails, then its fix is built", () => {
    const renamed = '  <inputs>\n    <input name="subject" type="string" required="true">Subject</input>\n  </inputs>\n';
    const failed = edit(".ai/directives/w/child.md", directive("child", { inputs: renamed, body: "  Write about {input:subject}.", context: "    <context>\n      <system>w/style</system>\n    </context>\n" }));
    expect(failed.diagnostics.join("\n")).toMatch(/RYE600[34] .*caller\.md/);
    expect(failed.written).toBe(0);
    same(failed);
    const fixed = edit(".ai/directives/w/caller.md", directive("caller", { body: callsChild("subject") }));
    expect(fixed.diagnostics.filter((d) => /^RYE600[34]/.test(d))).toEqual([]);
    same(fixed);
    expect(readFileSync(join(project, "out", "directives", "w", "caller.js"), "utf8")).toContain("subject");
  });

  test("an edited tool: its module is rewritten and its caller checked against the new schema", () => {
    const before = readFileSync(join(project, "out", "tools", "w", "echo.js"), "utf8");
    const r = edit(".ai/tools/w/echo.py", tool('"text": {"type": "string"}'));
    expect(r.diagnostics.filter((d) => /^RYE6007 .*tooluser\.md/.test(d))).toHaveLength(2);
    expect(r.rebuilt).toBe(1);
    same(r);
    expect(readFileSync(join(project, "out", "tools", "w", "echo.js"), "utf8")).not.toBe(before);
  });

  test("an error introduced and fixed in one file: nothing written, then the output as a full build's", () => {
    const broken = edit(".ai/directives/v/other.md", directive("other", { body: "  Mind {input:missing}." }));
    expect(broken.diagnostics.some((d) => d.startsWith("RYE2001"))).toBe(true);
    expect(broken.written).toBe(0);
    same(broken);
    const fixed = edit(".ai/directives/v/other.md", directive("other", { body: "  Fixed now." }));
    expect(fixed.rebuilt).toBe(1);
    same(fixed);
  });

  test("a signed source edited after signing: its stale signature is reported, and no longer once re-signed", () => {
    const stale = edit(".ai/knowledge/w/signed.md", signed.replace("Signed text.", "Edited text."));
    expect(stale.diagnostics.some((d) => d.includes("signed.md"))).toBe(true);
    same(stale);
    const resigned = edit(".ai/knowledge/w/signed.md", signItem(knowledge("signed", "Edited text."), "knowledge", key, "2024-01-02T03:04:05Z"));
    expect(resigned.diagnostics.some((d) => d.includes("signed.md"))).toBe(false);
    same(resigned);
  });

  test("an item added, then deleted, then an edit: each equals a full build", () => {
    const added = edit(".ai/directives/v/new.md", directive("new", { body: callsChild("subject") }));
    expect(existsSync(join(project, "out", "directives", "v", "new.js"))).toBe(true);
    same(added);
    rmSync(join(project, ".ai/directives/v/new.md"));
    const removed = rebuild([".ai/directives/v/new.md"]);
    expect(existsSync(join(project, "out", "directives", "v", "new.js"))).toBe(false);
    same(removed);
    const after = edit(".ai/directives/v/other.md", directive("other", { body: "  After the removal." }));
    expect(after.rebuilt).toBe(1);
    same(after);
  });

  test("the last item of a folder deleted: its module and its manifest shard go, and nothing else", () => {
    rmSync(join(project, ".ai/directives/v/other.md"));
    const r = rebuild([".ai/directives/v/other.md"]);
    expect(existsSync(join(project, "out", "directives", "v", "other.js"))).toBe(false);
    same(r);
    const edited = edit(".ai/directives/w/caller.md", directive("caller", { body: `${callsChild("subject")}\n  Once more.` }));
    expect(edited.rebuilt).toBe(1);
    same(edited);
  });
});
