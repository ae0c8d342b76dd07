import { describe, expect, it } from "vitest";
import { PyFloat } from "../../src/runtime/pystr.js";
import { readYamlTool } from "../../src/tools/read-yaml-tool.js";

// Expected values are PyYAML `safe_load` results (YAML 1.1 resolution), as the original parser uses.
describe("readYamlTool", () => {
  it("resolves plain scalars with YAML 1.1 rules", () => {
    const src = [
      "int: 42",
      "neg: -7",
      "octal: 0777",
      "hex: 0x1F",
      "under: 1_000",
      "sexa: 1:30",
      "float: 1.0",
      "exp_no_dot: 1e5",
      "exp_no_sign: 1.5e3",
      "exp_signed: 1.5e+3",
      "inf: .inf",
      "yes: yes",
      "off: Off",
      "tilde: ~",
      "empty:",
      "quoted: '42'",
      "dquoted: \"true\"",
      "tagged: !!str 5",
      "version: \"1.0.0\"",
    ].join("\n");
    expect(readYamlTool(src).data).toEqual({
      int: 42,
      neg: -7,
      octal: 511,
      hex: 31,
      under: 1000,
      sexa: 90,
      float: new PyFloat(1),
      exp_no_dot: "1e5",
      exp_no_sign: "1.5e3",
      exp_signed: new PyFloat(1500),
      inf: new PyFloat(Infinity),
      // A `yes` key is the boolean True, which json.dumps names "true".
      true: true,
      false: false,
      tilde: null,
      empty: null,
      quoted: "42",
      dquoted: "true",
      tagged: "5",
      version: "1.0.0",
    });
  });

  it("applies merge keys and anchors, explicit keys winning", () => {
    const src = "base: &b {a: 1, b: 2}\nother: &o {b: 3, c: 4}\nm:\n  <<: [*b, *o]\n  a: 9\nalias: *b\n";
    const data = readYamlTool(src).data as Record<string, unknown>;
    expect(data.m).toEqual({ a: 9, b: 2, c: 4 });
    expect(data.alias).toEqual({ a: 1, b: 2 });
  });

  it("keeps the last of duplicate keys, in first-seen position", () => {
    const data = readYamlTool("a: 1\nb: 2\na: 3\n").data as Record<string, unknown>;
    expect(data).toEqual({ a: 3, b: 2 });
    expect(Object.keys(data)).toEqual(["a", "b"]);
  });

  it("gives {} for empty, falsy or invalid documents", () => {
    expect(readYamlTool("").data).toEqual({});
    expect(readYamlTool("# only a comment\n").data).toEqual({});
    expect(readYamlTool("[]").data).toEqual({});
    expect(readYamlTool("- a\n- b\n").data).toEqual(["a", "b"]);
    const bad = readYamlTool("a: [1\nb: 2\n");
    expect(bad.data).toEqual({});
    expect(bad.error?.span.start.line).toBeGreaterThan(0);
    expect(readYamlTool("a: 1\n---\nb: 2\n").error?.message).toMatch(/multiple documents/);
  });

  it("records the line and column of keys and items", () => {
    const src = "version: \"1.0\"\nconfig:\n  args:\n    - \"{tool_path}\"\n    - \"--x\"\n";
    const { spans } = readYamlTool(src);
    expect(spans.version?.start).toMatchObject({ line: 1, column: 1 });
    expect(spans["config.args"]?.start).toMatchObject({ line: 3, column: 3 });
    expect(spans["config.args[1]"]?.start).toMatchObject({ line: 5, column: 7 });
  });
});
