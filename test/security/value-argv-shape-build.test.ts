import { describe, expect, it } from "vitest";
import { build, type SourceFile } from "../../src/index.js";

// The build half of "what runs is the tool's": the run refuses a non-list `args`, and a caller's
// value choosing the program or the working directory; the build reports each as RYE4012 at the
// runtime's line, and leaves the tool's own list, command and cwd alone.

/** A runtime whose config holds `fields` (YAML lines), and a tool on it declaring `declared`. */
function sources(fields: string, declared: string[], toolConfig = ""): SourceFile[] {
  const props = declared.map((k) => `"${k}": {"type": "string"}`).join(", ");
  return [
    { kind: "tool", id: "rye/core/primitives/execute", path: ".ai/tools/rye/core/primitives/execute.yaml", ext: ".yaml", space: "project", text: "tool_type: primitive\nexecutor_id: null\n" },
    { kind: "tool", id: "rt/x", path: ".ai/tools/rt/x.yaml", ext: ".yaml", space: "project", text: `tool_type: runtime\nexecutor_id: rye/core/primitives/execute\nconfig:\n${fields}` },
    { kind: "tool", id: "demo/x", path: ".ai/tools/demo/x.py", ext: ".py", space: "project", text: `__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rt/x"\nCONFIG_SCHEMA = {"type": "object", "properties": {${props}}}\n${toolConfig}` },
  ];
}

const refusals = (fields: string, declared: string[], toolConfig = "") =>
  build(sources(fields, declared, toolConfig), "test").diagnostics.filter((d) => d.code === "RYE4012");

describe("the build reports what the run refuses about what runs (RYE4012)", () => {
  const ROWS: [string, string, string[], string, RegExp][] = [
    ["a declared list as the whole args", '  command: git\n  args: "{git_args}"\n', ["git_args"], "", /args is "\{git_args\}", not a list/i],
    ["a chain list as the whole args", '  command: bash\n  args: "{bash_args}"\n', ["name"], 'CONFIG = {"bash_args": ["-c", "echo Hello {name}"]}\n', /args is "\{bash_args\}", not a list/i],
    ["a declared command", '  command: "{prog}"\n  args: ["-c", "true"]\n', ["prog"], "", /'\{prog\}' would let a caller's value choose the program/],
    ["a command through a config key to a declared name", '  command: "{runner}"\n  runner: "{bin}"\n  args: []\n', ["bin"], "", /'\{bin\}' would let a caller's value choose the program/],
    ["a caller's cwd", '  command: git\n  args: ["status"]\n  cwd: "{folder}"\n', ["folder"], "", /'\{folder\}' would let a caller's value choose the working directory/],
  ];
  for (const [name, fields, declared, toolConfig, message] of ROWS) {
    it(`refuses ${name}, at the runtime's file`, () => {
      const found = refusals(fields, declared, toolConfig);
      expect(found.map((d) => d.message), name).toContainEqual(expect.stringMatching(message));
      expect(found.some((d) => d.loc?.source === ".ai/tools/rt/x.yaml")).toBe(true);
    });
  }

  it("the tool's own list, command, cwd from rye's paths and environment pass", () => {
    expect(refusals('  command: "{prog}"\n  prog: git\n  args: ["status", "--", "{folder}"]\n  cwd: "{anchor_path}"\n', ["folder"])).toEqual([]);
    expect(refusals('  command: "${RYE_GIT:-git}"\n  args: ["status"]\n  cwd: "{project_path}/sub"\n', [])).toEqual([]);
  });
});
