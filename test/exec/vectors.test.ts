import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePyJson } from "../../src/runtime/py-json.js";
import { expandEnvVars } from "../../src/runtime/exec/expand-env.js";
import { resolveEnv } from "../../src/runtime/exec/resolve-env.js";
import { templateConfig, templateParams, templateString } from "../../src/runtime/exec/substitute-params.js";
import { templateEnvVars, templateExecStages } from "../../src/runtime/exec/template-exec.js";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import { ENV_VAR_PATTERN } from "../../src/runtime/exec/expand-env.js";
import { sharedRows, hasShared, SHARED_DIR, SHARED_SKIP_REASON, type Vector } from "../helpers/shared.js";

// Vectors are read with the Python-aware JSON reader so `1.0` stays a float (env-x025).
const vectors: Vector[] = hasShared
  ? (parsePyJson(readFileSync(resolve(SHARED_DIR, "vectors/rye-vectors.json"), "utf8")) as Vector[])
  : [];
const current = (system: string) => vectors.filter((v) => v.system === system && v.era === "current");
const fn = (v: Vector) => v.function.split("::").slice(1).join("::");

/** Runs a vector against the function of ours that ports the original `function` it names. */
function run(v: Vector): unknown {
  const name = fn(v);
  // The original's pass-1 quoting (only values holding its metacharacters), kept exact for the vectors.
  // The execution path does not rely on it: see "the same values through a real shell" below.
  if (name === "PrimitiveExecutor._template_config") return templateConfig(v.input, v.env, { shellQuote: true });
  if (name === "PrimitiveExecutor._template_string") return templateString(v.template, v.params);
  if (name === "ExecutePrimitive._template_env_vars") return templateEnvVars(v.template, v.env);
  if (name === "ExecutePrimitive._template_params") return templateParams(v.template, v.params);
  if (name === "EnvResolver._expand_variables") return expandEnvVars(v.template, v.env);
  if (name.startsWith("EnvResolver.resolve")) {
    return resolveEnv(v.input, v.tool_env, { osEnv: v.env, projectPath: "/nonexistent-project", dotenv: v.dotenv, includeDotenv: v.include_dotenv });
  }
  if (name.startsWith("ExecutePrimitive.execute")) {
    const { command, args, cwd, input_data } = templateExecStages(v.input, v.params, v.env);
    return { command, args, cwd, input_data };
  }
  throw new Error(`no port mapped for ${v.function}`);
}

function check(v: Vector): void {
  if (v.expected_is_exception) {
    let thrown: unknown;
    try {
      run(v);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect({ error: (thrown as Error).name, message: (thrown as Error).message }).toEqual(v.expected);
    return;
  }
  expect(run(v)).toEqual(v.expected);
}

describe.skipIf(!hasShared)(`env vectors (current era)${hasShared ? "" : ` — skipped: ${SHARED_SKIP_REASON}`}`, () => {
  it("has the 70 public vectors, each mapped to a port", () => {
    expect(current("env")).toHaveLength(70);
  });
  it.each(sharedRows("env vectors", current("env").map((v) => [v.id, v] as const)))("%s", (_id, v) => check(v));
});

describe.skipIf(!hasShared)(`param vectors (current era)${hasShared ? "" : ` — skipped: ${SHARED_SKIP_REASON}`}`, () => {
  it("has the 30 public vectors, each mapped to a port", () => {
    expect(current("param")).toHaveLength(30);
  });
  it.each(sharedRows("param vectors", current("param").map((v) => [v.id, v] as const)))("%s", (_id, v) => check(v));
});

// Decisions #10: `_template_config` keeps the original's output above, whose quoting leaves newlines,
// `'` and globs open. When a value goes into a `sh -c` script, the execution path passes it as a
// positional parameter instead; each quoted vector's value must reach the script unchanged.
const quotedConfigVectors = current("env").filter((v) => {
  if (!fn(v).endsWith("_template_config")) return false;
  const fields = Object.values(v.input as Record<string, unknown>).filter((x): x is string => typeof x === "string" && x.includes("${"));
  return fields.length === 1 && JSON.stringify(v.expected).includes("'") && !/["$`\\]/.test(fields[0]!.replace(ENV_VAR_PATTERN, ""));
});

describe.skipIf(!hasShared)(`the same values through a real shell${hasShared ? "" : ` — skipped: ${SHARED_SKIP_REASON}`}`, () => {
  it("covers the vectors whose expected output carries the original's quoting", () => {
    expect(quotedConfigVectors.length).toBeGreaterThan(5);
  });
  it.each(quotedConfigVectors.map((v) => [v.id, v] as const))("%s: sh -c gets the value as data", async (_id, v) => {
    const template = Object.values(v.input as Record<string, unknown>).find((x): x is string => typeof x === "string" && x.includes("${"))!;
    const plan = {
      item_id: "t/vector",
      chain: [],
      validation: { valid: true, issues: [], validated_pairs: 1 },
      root: { item_id: "rye/core/primitives/execute", executor_id: null },
      config: { command: "/bin/sh", args: ["-c", `printf '<%s>' "${template}"`], timeout: 10 },
      env_configs: [],
      anchor: null,
      verify_deps: null,
      config_resolve: [],
      context: { tool_path: "/nonexistent/t.yaml", tool_dir: "/nonexistent", tool_parent: "/", anchor_path: "/nonexistent", runtime_lib: "" },
    };
    const response = (await executePlan(plan, {}, { projectPath: "/", userSpace: "/", systemSpace: "", dotenv: null, osEnv: { PATH: process.env.PATH, ...v.env } })) as Record<string, any>;
    expect(response.status).toBe("success");
    expect(response.data.stdout).toBe(`<${expandEnvVars(template, v.env)}>`);
  });
});
