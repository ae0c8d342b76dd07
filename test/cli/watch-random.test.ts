import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, test } from "vitest";
import { oneShotWithOutput, outputTree, startWatch, testEnv, writeTree } from "./watch-cli.js";

// 50 seeded random changes to a small project under `rye build --watch --json`; after each one settles,
// the watch's last report must equal a one-shot build of a copy of the same tree (no cache, no output),
// and when that build succeeds, out/ must hold exactly the bytes it wrote (manifest shards included).
// The steps depend only on the seed and on the tree they act on, so a failure names a replayable step.
const SEED = 0x15_0a7c;
const STEPS = 50;

/** mulberry32: a small, well-known 32-bit PRNG, enough for choosing steps. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]! };
}

/**
 * A directive; `broken` uses an undeclared input (RYE2001); `extendsId`, `calls`, `context` (the
 * knowledge k/rules) and `tool` (a call to t/echo, checked against its schema) make dependents.
 */
function directive(name: string, o: { broken?: boolean; extendsId?: string; calls?: string; note?: string; context?: boolean; tool?: boolean } = {}) {
  const call = o.calls ? `\n  \`rye_execute(item_type="directive", item_id="${o.calls}", parameters={"topic": "x"})\`` : "";
  const tool = o.tool ? '\n  `rye_execute(item_type="tool", item_id="t/echo", parameters={"value": "x"})`' : "";
  const context = o.context ? "    <context>\n      <system>k/rules</system>\n    </context>\n" : "";
  return `# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0"${o.extendsId ? ` extends="${o.extendsId}"` : ""}>
  <metadata>
    <description>${name}: ${o.note ?? "first version"}.</description>
${context}  </metadata>
  <inputs>
    <input name="topic" type="string" required="true">Topic</input>
  </inputs>
</directive>
\`\`\`

<process>
  Write about {input:topic}.${o.broken ? " Mind {input:missing}." : ""}${call}${tool}
</process>
`;
}

/** The tool directives may call; `param` is the one parameter its schema declares. */
const echoTool = (param: string) =>
  `__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rye/core/primitives/subprocess"\nCONFIG_SCHEMA = {"type": "object", "properties": {"${param}": {"type": "string"}}}\n`;

const START: Record<string, string> = {
  ".ai/knowledge/k/rules.md": "```yaml\nname: rules\ntitle: rules\n```\n\nBe brief.\n",
  ".ai/tools/rye/core/primitives/subprocess.yaml": 'version: "1.0.0"\ntool_type: primitive\nexecutor_id: null\n',
  ".ai/tools/t/echo.py": echoTool("value"),
  ".ai/directives/a/base.md": directive("base"),
  ".ai/directives/a/child.md": directive("child", { extendsId: "a/base" }),
  ".ai/directives/b/caller.md": directive("caller", { calls: "a/child" }),
  ".ai/directives/b/alone.md": directive("alone"),
};

type Rng = ReturnType<typeof random>;

/** Every directive file, sorted, as paths relative to .ai/directives. */
function directives(ai: string): string[] {
  const root = join(ai, "directives");
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) => p.endsWith(".md")).sort();
}

function folders(ai: string): string[] {
  const root = join(ai, "directives");
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((e) => e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort();
}

/** Writes in place, or as editors save: a temporary file renamed over the old one. */
function save(path: string, text: string, byRename: boolean): string {
  if (!byRename) {
    writeFileSync(path, text);
    return "in place";
  }
  const tmp = join(dirname(path), `.${Date.now().toString(36)}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, path);
  return "by rename";
}

/** Applies one random step to the project and says what it did. */
function step(ai: string, rng: Rng, i: number): string {
  const dir = join(ai, "directives");
  const files = directives(ai);
  const ids = files.map((f) => f.slice(0, -3));
  const nameOf = (f: string) => f.slice(f.lastIndexOf("/") + 1, -3);
  const textFor = (f: string, broken: boolean) =>
    directive(nameOf(f), {
      broken,
      note: `version ${i}`,
      extendsId: rng.next() < 0.3 ? rng.pick([...ids, "a/base", "gone/base"]) : undefined,
      calls: rng.next() < 0.3 ? rng.pick([...ids, "a/child"]) : undefined,
      context: rng.next() < 0.3,
      tool: rng.next() < 0.2,
    });
  const isBroken = (f: string) => readFileSync(join(dir, f), "utf8").includes("{input:missing}");
  const kind = files.length < 3 ? "create" : rng.pick(["edit", "save-by-rename", "create", "delete", "rename-folder", "break", "fix", "burst", "edit-knowledge", "edit-tool"] as const);
  switch (kind) {
    case "edit-knowledge":
      // The knowledge directives take as context: every such directive embeds its new text.
      writeFileSync(join(ai, "knowledge", "k", "rules.md"), `\`\`\`yaml\nname: rules\ntitle: rules\n\`\`\`\n\nBe brief, version ${i}.\n`);
      return "edit-knowledge k/rules";
    case "edit-tool": {
      // The tool's declared parameter: its callers' `value` is then declared or not (RYE6007).
      const param = rng.pick(["value", "text"]);
      writeFileSync(join(ai, "tools", "t", "echo.py"), echoTool(param));
      return `edit-tool t/echo (declares ${param})`;
    }
    case "edit":
    case "save-by-rename": {
      const f = rng.pick(files);
      return `${kind} ${f}: ${save(join(dir, f), textFor(f, isBroken(f)), kind === "save-by-rename")}`;
    }
    case "break":
    case "fix": {
      const pool = files.filter((f) => isBroken(f) === (kind === "fix"));
      const f = rng.pick(pool.length > 0 ? pool : files);
      return `${kind} ${f}: ${save(join(dir, f), textFor(f, kind === "break"), rng.next() < 0.5)}`;
    }
    case "create": {
      const folder = rng.next() < 0.3 ? `n${i}` : rng.pick(folders(ai).length > 0 ? folders(ai) : ["a"]);
      const f = `${folder}/d${i}.md`;
      mkdirSync(join(dir, folder), { recursive: true });
      writeFileSync(join(dir, f), textFor(f, rng.next() < 0.25));
      return `create ${f}`;
    }
    case "delete": {
      const f = rng.pick(files);
      rmSync(join(dir, f));
      return `delete ${f}`;
    }
    case "rename-folder": {
      const from = rng.pick(folders(ai));
      const to = rng.next() < 0.5 && !existsSync(join(dir, "a")) ? "a" : `r${i}`;
      if (to.startsWith(`${from}/`) || existsSync(join(dir, to))) return `rename-folder skipped (${from} → ${to})`;
      renameSync(join(dir, from), join(dir, to));
      return `rename-folder ${from} → ${to}`;
    }
    case "burst": {
      // Several changes with no pause between them: the watch must end on the final tree.
      return `burst [${[0, 1, 2].map((k) => step(ai, rng, i * 10 + k)).join("; ")}]`;
    }
  }
}

test(`--watch reports what a one-shot build reports after each of ${STEPS} seeded random changes`, async () => {
  const project = writeTree(mkdtempSync(join(tmpdir(), "rye-watch-random-")), START);
  const ai = join(project, ".ai");
  const env = testEnv();
  const rng = random(SEED);
  const w = startWatch(project, env, ["--json"]);
  const history: string[] = [];
  try {
    let n = await w.settle(0);
    for (let i = 1; i <= STEPS; i++) {
      const did = step(ai, rng, i);
      history.push(`${i}. ${did}`);
      // A skipped step changes nothing, so no cycle follows; the comparison below still holds.
      if (!did.includes("skipped")) n = await w.settle(n);
      const { time, ...watched } = JSON.parse(w.lines().at(-1)!) as Record<string, unknown>;
      expect(Date.parse(time as string)).not.toBeNaN();
      const once = await oneShotWithOutput(project, env);
      expect(watched, `after step ${i} of seed ${SEED}:\n${history.join("\n")}`).toEqual(once.report);
      if (once.out) expect(outputTree(join(project, "out")), `output after step ${i} of seed ${SEED}`).toEqual(once.out);
    }
  } finally {
    await w.stop();
  }
  // The run did what it claims to cover.
  for (const kind of ["edit", "save-by-rename", "create", "delete", "rename-folder ", "break", "fix", "burst", "by rename", "in place", "edit-knowledge", "edit-tool"]) {
    expect(history.join("\n"), kind).toContain(kind);
  }
}, 120_000);
