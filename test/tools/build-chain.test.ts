import { describe, expect, it } from "vitest";
import { planFromJson, planToJson } from "../../src/runtime/exec/plan.js";
import { PyFloat } from "../../src/runtime/pystr.js";
import { buildChain, planChain, searchOrder, validateChain } from "../../src/tools/build-chain.js";
import { memoryFinder } from "./finders.js";

const PRIMITIVE = `tool_type: primitive\nexecutor_id: null\nconfig:\n  timeout: 300\n  command: prim\n`;
const RUNTIME = [
  "tool_type: runtime",
  "executor_id: rye/core/primitives/execute",
  "env_config:",
  "  env: {A: runtime}",
  "anchor: {enabled: true, mode: auto, markers_any: [__init__.py], lib: lib}",
  "verify_deps: {enabled: true, scope: anchor}",
  "config_resolve: {path: execution/execution.yaml}",
  "execution_params: [cwd]",
  "config:",
  "  command: \"${RYE_PYTHON}\"",
  "  args: [\"{tool_path}\"]",
  "  timeout: 60",
].join("\n");
const TOOL = `__tool_type__ = "python"\n__executor_id__ = "rt/python"\nCONFIG = {"timeout": 5}\nENV_CONFIG = {"env": {"A": "tool"}}\n`;

describe("searchOrder", () => {
  it("follows the current element's space", () => {
    const systems = ["system:core", "system:std"] as const;
    expect(searchOrder("project", systems)).toEqual(["project", "user", "system:core", "system:std"]);
    expect(searchOrder("user", systems)).toEqual(["user", "system:core", "system:std"]);
    expect(searchOrder("system:std", systems)).toEqual(["system:core", "system:std"]);
  });
});

describe("buildChain", () => {
  it("follows executor ids from the tool to the primitive, each lookup from the previous space", () => {
    const finder = memoryFinder({
      project: { "my/tool.py": TOOL },
      user: { "rt/python.yaml": RUNTIME },
      "system:core": { "rye/core/primitives/execute.yaml": PRIMITIVE },
    });
    const { chain, issues } = buildChain("my/tool", finder);
    expect(issues).toEqual([]);
    expect(chain.map((e) => [e.item_id, e.space, e.ext])).toEqual([
      ["my/tool", "project", ".py"],
      ["rt/python", "user", ".yaml"],
      ["rye/core/primitives/execute", "system:core", ".yaml"],
    ]);
    expect(finder.lookups).toEqual([
      "project:my/tool",
      "project:rt/python",
      "user:rt/python",
      "user:rye/core/primitives/execute",
      "system:core:rye/core/primitives/execute",
    ]);
  });

  it("never looks in project space from a user or system element", () => {
    const finder = memoryFinder({
      project: { "rt/python.yaml": RUNTIME, "rye/core/primitives/execute.yaml": PRIMITIVE },
      "system:core": { "tool.py": TOOL },
    });
    const { chain, issues } = buildChain("tool", finder);
    expect(chain.map((e) => e.item_id)).toEqual(["tool"]);
    expect(issues).toEqual([{ code: "executor_not_found", severity: "error", message: "Executor not found: rt/python", itemId: "rt/python" }]);
  });

  it("reports a missing first element as Tool not found", () => {
    const { chain, issues } = buildChain("nope", memoryFinder({}));
    expect(chain).toEqual([]);
    expect(issues.map((i) => [i.code, i.message])).toEqual([["tool_not_found", "Tool not found: nope"]]);
  });

  it("detects cycles", () => {
    const finder = memoryFinder({ project: { "a.yaml": "executor_id: b\n", "b.yaml": "executor_id: a\n" } });
    const { chain, issues } = buildChain("a", finder);
    expect(chain.map((e) => e.item_id)).toEqual(["a", "b"]);
    expect(issues.map((i) => i.message)).toEqual(["Circular dependency detected: a"]);
  });

  it("allows 10 elements and stops at the 11th", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 11; i++) files[`t${i}.yaml`] = i === 9 ? "executor_id: null\n" : `executor_id: t${i + 1}\n`;
    expect(buildChain("t0", memoryFinder({ project: files })).chain).toHaveLength(10);
    files["t9.yaml"] = "executor_id: t10\n";
    const { chain, issues } = buildChain("t0", memoryFinder({ project: files }));
    expect(chain).toHaveLength(10);
    expect(issues.map((i) => [i.code, i.message])).toEqual([
      ["chain_too_deep", "Chain too deep (max 10): t0. Possible circular dependency or excessive nesting."],
    ]);
  });

  it("ends the chain at any falsy executor id, and at an element without metadata", () => {
    expect(buildChain("x", memoryFinder({ project: { "x.yaml": "executor_id: ''\n" } })).chain).toHaveLength(1);
    const sh = buildChain("x", memoryFinder({ project: { "x.sh": "echo\n" } }));
    expect(sh.chain).toHaveLength(1);
    expect(sh.issues[0]).toMatchObject({ code: "metadata_problem", severity: "warning" });
  });

  it("records integrity when asked", () => {
    const finder = memoryFinder({ project: { "p.yaml": PRIMITIVE } });
    expect(buildChain("p", finder, { integrity: (text) => `len:${text.length}` }).chain[0]!.integrity).toBe(`len:${PRIMITIVE.length}`);
  });
});

describe("validateChain", () => {
  it("counts pairs and accepts project → user → system", () => {
    const chain = [
      { item_id: "t", space: "project" },
      { item_id: "r", space: "user" },
      { item_id: "p", space: "system:core" },
    ];
    expect(validateChain(chain)).toEqual({ valid: true, issues: [], warnings: [], validated_pairs: 2 });
    expect(validateChain([chain[0]!])).toEqual({ valid: true, issues: [], warnings: [], validated_pairs: 0 });
  });

  it("rejects a lower space depending on a higher one, and system delegating to mutable spaces", () => {
    const result = validateChain([
      { item_id: "t", space: "user" },
      { item_id: "r", space: "project" },
      { item_id: "s", space: "system:core" },
      { item_id: "p", space: "user" },
    ]);
    expect(result.valid).toBe(false);
    expect(result.validated_pairs).toBe(3);
    expect(result.issues).toEqual([
      "Tool 't' from user space cannot depend on 'r' from project space. Lower precedence spaces cannot depend on higher precedence spaces.",
      "Tool 's' from system:core space cannot depend on 'p' from user space. Lower precedence spaces cannot depend on higher precedence spaces.",
      "Invalid chain: system tool 's' cannot delegate to mutable user tool 'p'",
    ]);
  });
});

describe("planChain", () => {
  const finder = memoryFinder({
    project: { "my/tool.py": TOOL },
    user: { "rt/python.yaml": RUNTIME },
    "system:core": { "rye/core/primitives/execute.yaml": PRIMITIVE },
  });
  const { chain } = buildChain("my/tool", finder);
  const plan = planChain(chain, { project_path: "/proj" });

  it("merges config from the primitive toward the tool", () => {
    expect(plan.config).toEqual({ timeout: 5, command: "${RYE_PYTHON}", args: ["{tool_path}"] });
  });

  it("lists env_configs primitive first and takes anchor settings from the first element that has them", () => {
    expect(plan.env_configs).toEqual([
      { item_id: "rt/python", env_config: { env: { A: "runtime" } } },
      { item_id: "my/tool", env_config: { env: { A: "tool" } } },
    ]);
    expect(plan.anchor).toEqual({ enabled: true, mode: "auto", markers_any: ["__init__.py"], lib: "lib" });
    expect(plan.verify_deps).toEqual({ enabled: true, scope: "anchor" });
    expect(plan.config_resolve).toEqual([{ index: 1, item_id: "rt/python", spec: { path: "execution/execution.yaml" }, execution_params: ["cwd"] }]);
  });

  it("derives the path context and carries validation and the chain dicts", () => {
    expect(plan.context).toEqual({
      tool_path: "/project/.ai/tools/my/tool.py",
      tool_dir: "/project/.ai/tools/my",
      tool_parent: "/project/.ai/tools",
      anchor_path: "/project/.ai/tools/my",
      runtime_lib: "/user/.ai/tools/rt/lib",
      project_path: "/proj",
    });
    expect(plan.validation).toEqual({ valid: true, issues: [], validated_pairs: 2 });
    expect(plan.root).toEqual({ item_id: "rye/core/primitives/execute", executor_id: null });
    expect(plan.chain[1]).toEqual({ item_id: "rt/python", space: "user", tool_type: "runtime", executor_id: "rye/core/primitives/execute", integrity: null });
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });

  it("round-trips through JSON text keeping floats", () => {
    const floaty = planChain(buildChain("f", memoryFinder({ project: { "f.yaml": "executor_id: null\nconfig: {timeout: 1.0, n: 1}\n" } })).chain);
    const back = planFromJson(planToJson(floaty));
    expect(back).toEqual(floaty);
    expect(back.config.timeout).toBeInstanceOf(PyFloat);
  });
});
