// A long-lived build (--watch) checks only the changed items and those whose analysis looked them up
// (its dependency index). Each change below affects items other than the one edited: a knowledge item
// in a directive's context, an extends parent, a called directive's inputs. After each, the watch's
// output must be byte for byte what a one-shot build of the same tree writes, its diagnostics the same,
// and only the affected items rebuilt.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { buildProject, type BuildMemo } from "../../src/builder/build-project.js";
import { spacesFrom } from "../../src/project/read-spaces.js";
import { WatchedSources } from "../../src/watch/watch-sources.js";

const base = mkdtempSync(join(tmpdir(), "rye-watch-deps-"));
const env = { USER_SPACE: join(base, "user"), RYE_SIGNING_KEY_DIR: join(base, "keys") };
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
