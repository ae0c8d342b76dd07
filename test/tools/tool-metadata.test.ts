import { describe, expect, it } from "vitest";
import { normalizeToolMetadata, readToolMetadata } from "../../src/tools/tool-metadata.js";

// Field mapping of `_extract_metadata_from_parsed` (rye-reference §1.8).
describe("normalizeToolMetadata", () => {
  it("maps dunder and UPPER keys of code parsers", () => {
    const { metadata } = normalizeToolMetadata({
      raw: "…",
      __version__: "1.0.0",
      __tool_type__: "python",
      __executor_id__: "rye/core/runtimes/python/script",
      __category__: "rye/bash",
      __tool_description__: "Execute shell commands",
      CONFIG_SCHEMA: { type: "object" },
      ENV_CONFIG: { env: { A: "1" } },
      CONFIG: { timeout: 5 },
      CONFIG_RESOLVE: { path: "x.yaml" },
      __execution_owner__: "engine",
      __native_async__: true,
      __native_resume__: false,
      __all__: ["ignored"],
    });
    expect(metadata).toEqual({
      version: "1.0.0",
      tool_type: "python",
      executor_id: "rye/core/runtimes/python/script",
      category: "rye/bash",
      description: "Execute shell commands",
      config_schema: { type: "object" },
      env_config: { env: { A: "1" } },
      config: { timeout: 5 },
      config_resolve: { path: "x.yaml" },
      execution_owner: "engine",
      native_async: true,
      native_resume: false,
    });
  });

  it("maps bare keys under a YAML parser's data", () => {
    const data = {
      version: "1.0.0",
      tool_type: "runtime",
      executor_id: "rye/core/primitives/execute",
      category: "rye/core/runtimes/python",
      description: "Python script runtime",
      env_config: { env: {} },
      config: { command: "${RYE_PYTHON}" },
      config_schema: { type: "object" },
      anchor: { enabled: true },
      verify_deps: { enabled: true },
      config_resolve: { path: "execution/execution.yaml", mode: "deep_merge" },
      execution_params: ["cwd"],
    };
    expect(normalizeToolMetadata({ data, content: "" }).metadata).toEqual(data);
  });

  it("distinguishes an explicit null executor from an absent one", () => {
    expect(normalizeToolMetadata({ data: { executor_id: null } }).metadata).toEqual({ executor_id: null });
    expect("executor_id" in normalizeToolMetadata({ data: { tool_type: "primitive" } }).metadata).toBe(false);
  });

  it("checks the top-level dict before data, and the dunder spelling before the bare one", () => {
    const { metadata, from } = normalizeToolMetadata({ version: "top-bare", __version__: "top-dunder", data: { __version__: "data" } });
    expect(metadata.version).toBe("top-dunder");
    expect(from.version).toBe("__version__");
    expect(normalizeToolMetadata({ version: "top-bare", data: { __version__: "data" } }).metadata.version).toBe("top-bare");
    // A Python tool's own `data = {...}` variable is searched too, as in the original.
    expect(normalizeToolMetadata({ raw: "", data: { executor_id: "x" } }).metadata.executor_id).toBe("x");
  });

  it("prefers __tool_description__, then tool_description, then a YAML description", () => {
    expect(normalizeToolMetadata({ tool_description: "td", description: "d" }).metadata.description).toBe("td");
    expect(normalizeToolMetadata({ data: { description: "d" } }).metadata.description).toBe("d");
  });
});

describe("readToolMetadata", () => {
  it("routes by extension and locates each field", () => {
    const py = readToolMetadata(`__version__ = "1"\n__executor_id__ = "rt/python"\n`, ".py");
    expect(py.parser).toBe("python/ast");
    expect(py.metadata).toEqual({ version: "1", executor_id: "rt/python" });
    expect(py.spans.executor_id?.start).toMatchObject({ line: 2, column: 19 });

    const yml = readToolMetadata(`tool_type: runtime\nexecutor_id: null\n`, ".yaml");
    expect(yml.metadata).toEqual({ tool_type: "runtime", executor_id: null });
    expect(yml.spans.executor_id?.start).toMatchObject({ line: 2, column: 1 });

    const js = readToolMetadata(`export const __executor_id__ = "rt/node";\n`, ".mjs");
    expect(js.metadata).toEqual({ executor_id: "rt/node" });
  });

  it("warns where the original silently drops a metadata assignment", () => {
    const r = readToolMetadata(`__version__ = "1"\n__executor_id__ = RUNTIME\nHELPER = make()\n`, ".py");
    expect(r.metadata).toEqual({ version: "1" });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ severity: "warning", span: { start: { line: 2 } } });
    expect(r.problems[0]!.message).toMatch(/__executor_id__ is ignored/);
  });

  it("uses no metadata from a file the original cannot parse", () => {
    const r = readToolMetadata(`__executor_id__ = "x"\nbroken = "\n`, ".py");
    expect(r.metadata).toEqual({});
    expect(r.problems[0]).toMatchObject({ severity: "error", span: { start: { line: 2 } } });
  });

  it("reads nothing from extensions without a parser, and says where", () => {
    const r = readToolMetadata(`#!/bin/sh\necho hi\n`, ".sh");
    expect(r.parser).toBeUndefined();
    expect(r.metadata).toEqual({});
    expect(r.problems[0]!.message).toMatch(/No metadata parser for '\.sh'/);
    expect(r.problems[0]!.span?.start).toMatchObject({ line: 1, column: 1 });
  });
});

// A hostile tool file nested thousands deep once overflowed the stack in the scope checks, and the
// build reported it as a failure to write its output. Such a file is now unreadable metadata.
describe("readToolMetadata on deeply nested metadata", () => {
  const deep = (open: string, close: string, n: number) => open.repeat(n) + close.repeat(n);
  it("YAML: an error at the file, and no metadata", () => {
    const read = readToolMetadata(`executor_id: rye/core/primitives/subprocess\nconfig:\n  args: [${deep("[", "]", 3000)}]\n`, ".yaml");
    expect(read.metadata).toEqual({});
    expect(read.problems).toEqual([expect.objectContaining({ severity: "error", message: expect.stringMatching(/nested (more than 100|deeper than 128) levels/) })]);
  });

  it("Python: the assignment is not a literal (CPython: too many nested parentheses), and is ignored", () => {
    const read = readToolMetadata(`__executor_id__ = "rye/core/primitives/subprocess"\nCONFIG = {"args": [${deep("[", "]", 3000)}]}\n`, ".py");
    expect(read.metadata.executor_id).toBe("rye/core/primitives/subprocess");
    expect(read.metadata.config).toBeUndefined();
    expect(read.problems.map((p) => p.message).join()).toMatch(/too many nested parentheses/);
  });

  it("JavaScript: the export is not a data literal, and is ignored", () => {
    const read = readToolMetadata(`export const __executor_id__ = "rye/core/primitives/subprocess";\nexport const CONFIG = { args: [${deep("[", "]", 3000)}] };\n`, ".js");
    expect(read.metadata.executor_id).toBe("rye/core/primitives/subprocess");
    expect(read.metadata.config).toBeUndefined();
    expect(read.problems.map((p) => p.message).join()).toMatch(/nested more than 200 levels deep/);
  });

  it("reads metadata nested a hundred levels", () => {
    const read = readToolMetadata(`executor_id: x\nconfig:\n  args: ${deep("[", "]", 97)}\n`, ".yaml");
    expect(read.problems).toEqual([]);
    expect(read.metadata.executor_id).toBe("x");
  });
});
