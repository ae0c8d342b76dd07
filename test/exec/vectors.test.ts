import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePyJson } from "../../src/runtime/py-json.js";
import { expandEnvVars } from "../../src/runtime/exec/expand-env.js";
import { resolveEnv } from "../../src/runtime/exec/resolve-env.js";
import { templateConfig, templateParams, templateString } from "../../src/runtime/exec/substitute-params.js";
import { templateEnvVars, templateExecStages } from "../../src/runtime/exec/template-exec.js";
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
