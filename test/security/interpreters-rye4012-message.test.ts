import { describe, expect, it } from "vitest";
import { build, type SourceFile } from "../../src/index.js";

// RYE4012 reports four kinds of refusal; its message names the one that happened (a position in a
// shell script, a script that runs program text the build never sees, a launcher's own position, a
// code reader's stdin) and never claims a shell -c script where there is none.

const tool = (config: string): SourceFile[] => [
  { kind: "tool", id: "rye/core/primitives/execute", path: ".ai/tools/rye/core/primitives/execute.yaml", ext: ".yaml", space: "project", text: "tool_type: primitive\nexecutor_id: null\n" },
  { kind: "tool", id: "rt/t", path: ".ai/tools/rt/t.yaml", ext: ".yaml", space: "project", text: `tool_type: runtime\nexecutor_id: rye/core/primitives/execute\nconfig:\n${config}` },
  { kind: "tool", id: "demo/t", path: ".ai/tools/demo/t.py", ext: ".py", space: "project", text: '__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rt/t"\nCONFIG_SCHEMA = {"type": "object", "properties": {"x": {"type": "string"}}}\n' },
];

const rye4012 = (config: string) => build(tool(config), "test").diagnostics.filter((d) => d.code === "RYE4012");

describe("RYE4012 names what it refuses", () => {
  const rows: [string, string, RegExp][] = [
    ["a shell script position", '  command: /bin/sh\n  args: ["-c", "let n={x}"]\n', /^Placeholder '\{x\}' sits as an argument of let, which reads it as code, a name or arithmetic in the shell script/],
    ["a script running unseen program text", '  command: /bin/sh\n  args: ["-c", "echo {x}; sh s.sh"]\n', /^Placeholder '\{x\}' is a value of a shell script that runs program text the build never sees: `sh s.sh` runs a shell/],
    ["a script writing a value into a file", '  command: /bin/sh\n  args: ["-c", "echo {x} > s.sh; sh s.sh"]\n', /^Placeholder '\{x\}' is a value the shell script writes into a file: `echo … > s.sh` sends its output into a file/],
    ["a value after such a script", '  command: /bin/sh\n  args: ["-c", "echo \\"$1\\" > s.sh; sh s.sh", "sh", "{x}"]\n', /^Placeholder '\{x\}' is an argument of a shell script that carries it into a program the build never sees/],
    ["a launcher's own position", '  command: /usr/bin/env\n  args: ["BASH_ENV={x}", "bash", "-c", "echo hi"]\n', /^Placeholder '\{x\}' stands where the program could read it as code or as an option \(rye cannot follow this launch/],
    ["a code reader's stdin", '  command: /bin/sh\n  args: []\n  input_data: "echo {x}"\n', /^Placeholder '\{x\}' in input_data reaches the stdin of sh, which reads its script from stdin/],
  ];
  for (const [what, config, message] of rows) {
    it(what, () => {
      const found = rye4012(config);
      expect(found.map((d) => d.message), what).toHaveLength(1);
      expect(found[0]!.message).toMatch(message);
      expect(found[0]!.message).not.toMatch(/In this shell -c script/);
      expect(found[0]!.message).toMatch(/A caller's or the environment's value goes only where rye proves the program reading it takes it as data/);
      expect(found[0]!.loc?.source).toBe(".ai/tools/rt/t.yaml");
    });
  }
});
