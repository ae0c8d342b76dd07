import { describe, expect, it } from "vitest";
import { buildExecutionConfig, toolParams } from "../../src/runtime/exec/execution-config.js";
import { dryRunResponse, interpretProcessResult, toolErrorResponse, toolSuccessResponse } from "../../src/runtime/exec/tool-response.js";

const paths = { project_path: "/p", user_space: "/u", system_space: "/s", tool_path: "/p/.ai/tools/t.py" };

// rye-reference §2.3 (param set, params_json, body stripping, bash quirk) and §5 (JSON stdout).
describe("buildExecutionConfig", () => {
  it("serialises tool parameters as json.dumps does, without context and config keys", () => {
    const params = { b: [1, "é"], a: { x: null }, tool_dir: "/p/.ai/tools", cwd: "/w", timeout: 5, __sinks: ["s"], anchor_path: "/a" };
    const config = buildExecutionConfig({ input_data: "{params_json}" }, {}, params, paths, { shellQuote: false });
    expect(config.params_json).toBe('{"b": [1, "\\u00e9"], "a": {"x": null}}');
    expect(config.input_data).toBe(config.params_json);
    expect(config).toMatchObject({ cwd: "/w", timeout: 5, tool_path: paths.tool_path, project_path: "/p", __sinks: ["s"] });
  });

  it("keeps tool parameters named command/args out of the config: bash's {command} is /bin/bash", () => {
    const runtime = { command: "/bin/bash", args: ["-c", "{command}", "{tool_path}", "{project_path}"] };
    const config = buildExecutionConfig(runtime, {}, { command: "echo hi", args: ["x"] }, paths, { shellQuote: true });
    expect(config.command).toBe("/bin/bash");
    expect(config.args).toEqual(["-c", "/bin/bash", paths.tool_path, "/p"]);
    expect(config.params_json).toBe('{"command": "echo hi", "args": ["x"]}');
  });

  it("expands env then params, typed for whole placeholders", () => {
    const config = buildExecutionConfig({ command: "${PY}", timeout: "{t}", t: 30, args: ["--n={t}"] }, { PY: "/py" }, {}, paths, { shellQuote: false });
    expect(config).toMatchObject({ command: "/py", timeout: 30, args: ["--n=30"], env: { PY: "/py" } });
  });

  it("drops body fields left as a lone placeholder and re-injects __ keys untemplated", () => {
    const config = buildExecutionConfig({ body: { model: "{model}", tools: "{tools}", max: " {max_tokens} " }, model: "m" }, {}, { __raw: "{model}" }, paths, { shellQuote: false });
    expect(config.body).toEqual({ model: "m" });
    expect(config.__raw).toBe("{model}");
  });

  it("merges fixed_params: caller collisions dropped, or caller params nested under params_key", () => {
    expect(toolParams({ a: 1, b: 2 }, { fixed_params: { b: 9, c: 3 } })).toEqual({ a: 1, b: 9, c: 3 });
    expect(toolParams({ a: 1 }, { fixed_params: { server: "x" }, params_key: "params" })).toEqual({ server: "x", params: { a: 1 } });
  });
});

describe("interpretProcessResult", () => {
  const ok = { success: true, stderr: "", return_code: 0 };
  it("parses JSON stdout as data, else returns the raw streams", () => {
    expect(interpretProcessResult({ ...ok, stdout: '{"x": 1}\n' })).toEqual({ success: true, data: { x: 1 }, error: null });
    expect(interpretProcessResult({ ...ok, stdout: "plain" })).toEqual({ success: true, data: { stdout: "plain", stderr: "", return_code: 0 }, error: null });
    expect(interpretProcessResult({ ...ok, stdout: "{}" }).data).toEqual({ stdout: "{}", stderr: "", return_code: 0 });
    expect(interpretProcessResult({ ...ok, stdout: "[1, 2]" })).toEqual({ success: true, data: [1, 2], error: null });
  });

  it("fails on a falsy success field, taking error, then stderr, then ''", () => {
    expect(interpretProcessResult({ ...ok, stdout: '{"success": false, "error": "bad"}' })).toMatchObject({ success: false, error: "bad" });
    expect(interpretProcessResult({ ...ok, stdout: '{"success": 0, "stderr": "err"}' })).toMatchObject({ success: false, error: "err" });
    expect(interpretProcessResult({ ...ok, stdout: '{"success": false}' })).toMatchObject({ success: false, error: "" });
  });

  it("reports a failed process with its stderr", () => {
    expect(interpretProcessResult({ success: false, stdout: "", stderr: "boom", return_code: 2 })).toEqual({
      success: false,
      data: { stdout: "", stderr: "boom", return_code: 2 },
      error: "boom",
    });
  });
});

describe("responses", () => {
  const chain = [{ item_id: "t", space: "project", tool_type: "python", executor_id: null, integrity: null }];
  it("have the seed's shapes", () => {
    expect(toolSuccessResponse("t", { a: 1 }, chain, 5)).toEqual({ status: "success", type: "tool", item_id: "t", data: { a: 1 }, chain, metadata: { duration_ms: 5 } });
    expect(toolErrorResponse("t", "e", chain, 5)).toEqual({ status: "error", error: "e", item_id: "t", chain, metadata: { duration_ms: 5 } });
    expect(toolErrorResponse("t", "e", [], 5, { x: 1 })).toMatchObject({ data: { x: 1 } });
    expect(dryRunResponse("t", chain, 0)).toEqual({ status: "validation_passed", message: "Tool chain validation passed (dry run)", item_id: "t", chain, validated_pairs: 0 });
  });
});
