import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execa as realExeca } from "execa";
import type { Execa } from "../../src/runtime/exec/run-process.js";
import { describe, expect, it } from "vitest";
import { readProject } from "../../src/project/read-project.js";
import { PyFloat } from "../../src/runtime/pystr.js";
import { problemsOf, STRICT, ts } from "../helpers/strict-tsc.js";
import { compileToDir } from "../helpers/compile.js";

const hasPython = spawnSync("python3", ["--version"]).status === 0;
const repo = fileURLToPath(new URL("../../", import.meta.url));

// The example project's tools plus one whose metadata holds a Python float and odd strings.
const FLOATY = {
  kind: "tool" as const,
  id: "test/floaty",
  path: ".ai/tools/test/floaty.py",
  ext: ".py",
  text: `__tool_type__ = "python"
__executor_id__ = "rye/core/runtimes/python/script"
__tool_description__ = "quotes \\" backticks \` and \${x} and */ stay data"
CONFIG = {"ratio": 1.0, "timeout": 5}
CONFIG_SCHEMA = {"type": "object", "properties": {"n": {"type": "integer", "description": "a */ b"}}, "required": ["n"]}
`,
};

const execa = realExeca as unknown as Execa;
const { dir, result } = compileToDir([...readProject(repo).sources, FLOATY], { emitTs: true });

const CONSUMER = `
import { tools } from "./tools.js";
import wordCount, { execute, plan, type Params } from "./tools/examples/word_count.js";
import type { ToolResponse } from "./runtime/exec/run-tool.js";

const p: Params = { text: "a b", unique: true };
const r: Promise<ToolResponse> = tools["examples/word_count"].execute({ text: "x" }, { dryRun: true });
const ids: string[] = plan.chain.map((c) => c.item_id);
wordCount.execute(p);
tools["test/floaty"].execute({ n: 1 });

// @ts-expect-error text is required
execute({ unique: true });
// @ts-expect-error text is a string
execute({ text: 1 });
// @ts-expect-error n is required
tools["test/floaty"].execute();
// @ts-expect-error an unknown tool id
tools["examples/nope"];
export { r, ids };
`;

describe("emitted tool modules", () => {
  it("are emitted for tools with a runnable chain, never for primitives", () => {
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.tools).toEqual(["examples/word_count", "rye/core/runtimes/python/script", "rye/file-system/read", "test/floaty"]);
    // Declarations and code beside each other; the TypeScript sources under ts/ (see README "What out/ holds").
    expect([...result.files.keys()].filter((f) => f.startsWith("tools/")).length).toBe(8);
    expect([...result.files.keys()].filter((f) => f.startsWith("ts/tools/")).length).toBe(4);
  });

  it("type-check under strict tsc with Params from CONFIG_SCHEMA, and misuse is a type error", () => {
    writeFileSync(join(dir, "consumer.ts"), CONSUMER);
    // The consumer sees the declarations; ts/index.ts and ts/tools.ts pull in every module's source, strictly checked too.
    const program = ts.createProgram([join(dir, "consumer.ts"), join(dir, "ts", "index.ts"), join(dir, "ts", "tools.ts")], STRICT);
    const problems = problemsOf(program, dir);
    expect(problems).toEqual([]);
  }, 60_000);

  it("keep Python floats and user strings as data", async () => {
    const mod = await import(pathToFileURL(join(dir, "tools/test/floaty.js")).href);
    expect(mod.plan.config.ratio).toBeInstanceOf(PyFloat);
    expect(mod.plan.config.ratio.value).toBe(1);
    expect(mod.metadata.description).toBe('quotes " backticks ` and ${x} and */ stay data');
    expect(mod.plan.files.map((f: { path: string }) => f.path)).toEqual([
      ".ai/tools/test/floaty.py",
      ".ai/tools/rye/core/runtimes/python/script.yaml",
      ".ai/tools/rye/core/primitives/subprocess.yaml",
    ]);
  });

  it.skipIf(!hasPython)("run from a plain import, with project-relative paths resolved against projectPath", async () => {
    const mod = await import(pathToFileURL(join(dir, "tools/examples/word_count.js")).href);
    const dry = await mod.execute({ text: "a" }, { projectPath: repo, dryRun: true });
    expect(dry).toMatchObject({ status: "validation_passed", validated_pairs: 2 });
    // This output directory has no node_modules beside it, so the host passes its execa.
    const ran = await mod.execute({ text: "one two three" }, { projectPath: repo, execa });
    expect(ran).toMatchObject({ status: "success", data: { success: true, count: 3 } });
    const elsewhere = await mod.execute({ text: "a" }, { projectPath: dir, execa });
    expect(elsewhere.status).toBe("error");
    expect(elsewhere.error).toMatch(/^Chain element not found: examples\/word_count/);
  });
});
