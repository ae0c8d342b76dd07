import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PyFloat } from "../../src/runtime/pystr.js";
import { readBlockYaml as readBlock } from "../../src/parse/read-block-yaml.js";
import { PY_YAML, readYamlFully, readYamlTool } from "../../src/tools/read-yaml-tool.js";

const readBlockYaml = (text: string) => readBlock(text, PY_YAML);
import { SHARED_DIR, sharedRows } from "../helpers/shared.js";
import { editedText, filesUnder } from "../helpers/text-edits.js";

// Everything the quick reader handles, in the shape tool files take.
const TOOL = [
  "# rye:signed:2026-01-01T00:00:00Z:abc:def:0123456789abcdef",
  'version: "1.0.0"',
  "tool_type: runtime",
  "executor_id: rye/core/primitives/subprocess",
  "description: 'Runs it''s script: fast'   # a comment",
  "",
  "env_config:",
  "  interpreter:",
  "    candidates: [python3, \"py\\u00e9\", 'x y', 7, 1.5, -c]",
  "    empty: []",
  "    none: {}",
  '    schema: {type: string, "default": \'x\', n: 2, type: int, enum: [a, {b: [1]}], e: {}}',
  "  env:",
  '    PYTHONUNBUFFERED: "1"',
  "    PATH_HINT: ${RYE_PYTHON}",
  "requires:",
  "- net.call",
  "-   fs.read",
  "config:",
  "  args:",
  '    - "-c"',
  "    - |",
  "      import sys",
  "",
  "        indented: kept",
  "      # not a comment here",
  "    - |-",
  "      no newline at the end",
  "    - key: value",
  "      other: 2",
  "    -",
  "      nested: yes",
  "    - - inner",
  "      - 0x1F",
  "  timeout: 300",
  "  ratio: 0.5",
  "  off: Off",
  "  blank:",
  "  tilde: ~",
  "  url: http://example.com/a#b",
  "  colon: a:b",
  "last: true",
  "",
].join("\n");

// Written out by hand from PyYAML's safe_load of TOOL (YAML 1.1: `yes`/`Off` are booleans, 0x1F is 31).
const TOOL_DATA = {
  version: "1.0.0",
  tool_type: "runtime",
  executor_id: "rye/core/primitives/subprocess",
  description: "Runs it's script: fast",
  env_config: {
    interpreter: { candidates: ["python3", "pyé", "x y", 7, new PyFloat(1.5), "-c"], empty: [], none: {}, schema: { type: "int", default: "x", n: 2, enum: ["a", { b: [1] }], e: {} } },
    env: { PYTHONUNBUFFERED: "1", PATH_HINT: "${RYE_PYTHON}" },
  },
  requires: ["net.call", "fs.read"],
  config: {
    args: ["-c", "import sys\n\n  indented: kept\n# not a comment here\n", "no newline at the end", { key: "value", other: 2 }, { nested: true }, ["inner", 31]],
    timeout: 300,
    ratio: new PyFloat(0.5),
    false: false,
    blank: null,
    tilde: null,
    url: "http://example.com/a#b",
    colon: "a:b",
  },
  last: true,
};

/** A value's exact shape: key order, float-ness and types, for comparing two readings. */
function shape(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof PyFloat ? { float: String(v.value) } : v));
}

/** The quick reader either declines the text or agrees with the `yaml` package's full reading. */
function agrees(text: string): boolean {
  const quick = readBlockYaml(text);
  if (quick === undefined) return true;
  const full = readYamlFully(text);
  expect(full.error, text).toBeUndefined();
  expect(full.warnings).toEqual([]);
  expect(shape(quick), text).toBe(shape(full.data));
  // The locations the quick reader records itself: those of the top mapping's keys.
  const spans = readYamlTool(text).spans;
  if (quick && typeof quick === "object" && !Array.isArray(quick)) {
    for (const key of Object.keys(quick)) if (!/[.[]/.test(key)) expect(spans[key], `${key} in ${text}`).toEqual(full.spans[key]);
  }
  return true;
}

describe("readBlockYaml", () => {
  it("reads the block style tool files use as PyYAML does", () => {
    expect(shape(readBlockYaml(TOOL))).toBe(shape(TOOL_DATA));
    expect(agrees(TOOL)).toBe(true);
  });

  it.each([
    ["an anchor and alias", "a: &x 1\nb: *x\n"],
    ["a tag", "a: !!str 5\n"],
    ["a merge key", "a:\n  <<: {b: 1}\n"],
    ["a folded scalar", "a: >\n  folded\n  text\n"],
    ["a kept-trailing scalar", "a: |+\n  kept\n\n"],
    ["a multi-line plain scalar", "a: one\n  two\n"],
    ["a multi-line flow mapping", "a: {b: 1,\n  c: 2}\n"],
    ["a flow pair without a space", 'a: {"b":1}\n'],
    ["a flow key that is a collection", "a: {[b]: 1}\n"],
    ["a trailing comma", "a: [1, 2,]\n"],
    ["a multi-line quoted scalar", 'a: "one\n  two"\n'],
    ["a tab", "a:\t1\n"],
    ["a carriage return", "a: 1\r\nb: 2\r\n"],
    ["a second document", "a: 1\n---\nb: 2\n"],
    ["a quoted key", '"a": 1\n'],
    ["a compact nested mapping", "a: b: c\n"],
    ["bad indentation", "a:\n    b: 1\n  c: 2\n"],
    ["an empty document", "# nothing\n"],
    ["a scalar document", "just text\n"],
    ["an unknown escape", 'a: "\\q"\n'],
  ])("declines %s, which the yaml package then reads", (_what, text) => {
    expect(readBlockYaml(text)).toBeUndefined();
    expect(agrees(text)).toBe(true);
  });

  it.each([
    ["flow", `a: ${"[".repeat(20000)}${"]".repeat(20000)}\n`],
    ["block", `${Array.from({ length: 8000 }, (_, i) => `${" ".repeat(i)}k:`).join("\n")} 1\n`],
  ])("leaves %s nesting too deep for the stack to the yaml package, which reports it where it is", (_kind, text) => {
    expect(readBlockYaml(text)).toBeUndefined();
    const read = readYamlTool(text);
    expect(read.error?.message).toMatch(/nested deeper than 128 levels/);
    expect(read.error?.span.start.line).toBeGreaterThanOrEqual(1);
    expect(read.data).toEqual({});
  });

  it("locates top-level keys itself, and deeper paths through the full reading", () => {
    const read = readYamlTool(TOOL);
    expect(read.spans.executor_id).toEqual(readYamlFully(TOOL).spans.executor_id);
    expect(read.spans.executor_id).toMatchObject({ start: { line: 4, column: 1 }, end: { line: 4, column: 12 } });
    expect(read.spans["config.timeout"]?.start).toMatchObject({ line: 35, column: 3 });
    expect(read.spans["config.args[1]"]?.start).toMatchObject({ line: 22, column: 7 });
  });

  it("agrees with the yaml package on random edits of tool files (property)", () => {
    const tricky = [" ", "  ", "-", "- ", ":", ": ", "#", " #", "'", '"', "|", "|-", ">", "[", "]", ",", "{", "}", "\n", "\n  ", "a", "1", "&", "*", "!", "\\", "~", "<<"];
    fc.assert(
      fc.property(editedText(TOOL, tricky), agrees),
      { numRuns: 3000, seed: 17 },
    );
  });
});

describe("readBlockYaml on the corpus", () => {
  const all = filesUnder(join(SHARED_DIR, "corpus"), /\.ya?ml$/);
  const rows = sharedRows("corpus YAML files", all.length ? [all] : []);
  it.each(rows.map((r) => [r.length, r] as const))("agrees with the yaml package on all %i, and takes most of them", (_n, paths) => {
    let taken = 0;
    for (const path of paths) {
      const text = readFileSync(path, "utf8");
      agrees(text);
      if (readBlockYaml(text) !== undefined) taken++;
    }
    expect(taken / paths.length).toBeGreaterThan(0.8);
  });
});
