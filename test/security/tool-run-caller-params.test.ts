import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { callerParamsProblem, CONTEXT_KEYS, INJECTED_KEYS } from "../../src/runtime/exec/caller-params.js";
import { buildExecutionConfig } from "../../src/runtime/exec/execution-config.js";
import { templateExecStages } from "../../src/runtime/exec/template-exec.js";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";

// A tool run's caller chooses parameter values, never what runs: rye's path context always wins
// (a caller key with such a name is refused), and a config value the chain's author wrote that
// reaches the command, args, cwd or stdin may be replaced only by a parameter the tool declares.

const dir = mkdtempSync(join(tmpdir(), "rye-caller-params-"));
const toolDir = join(dir, "tool");
const evil = join(dir, "evil");
const MARKER = join(dir, "marker");
mkdirSync(toolDir);
mkdirSync(evil);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => rmSync(MARKER, { force: true }));

const OK = `console.log(JSON.stringify({ success: true, ran: "tool" }))`;
const PWN = `require("fs").writeFileSync(${JSON.stringify(MARKER)}, "x"); console.log(JSON.stringify({ success: true, ran: "evil" }))`;
for (const d of [toolDir, evil]) writeFileSync(join(d, "main.js"), d === toolDir ? OK : PWN);

const SH = existsSync("/bin/sh") ? "/bin/sh" : "sh";
const has = (bin: string) => (process.env.PATH ?? "").split(":").some((p) => existsSync(join(p, bin)));

function plan(config: Record<string, unknown>): ChainPlan {
  return {
    item_id: "t/tool",
    chain: [],
    validation: { valid: true, issues: [], validated_pairs: 1 },
    root: { item_id: "rye/core/primitives/execute", executor_id: null },
    config: { timeout: 15, ...config },
    env_configs: [],
    anchor: null,
    verify_deps: null,
    config_resolve: [],
    context: { tool_path: join(toolDir, "main.js"), tool_dir: toolDir, tool_parent: dir, anchor_path: toolDir, runtime_lib: join(toolDir, "lib") },
  };
}

async function run(p: ChainPlan, params: Record<string, unknown>, configSchema?: unknown) {
  return (await executePlan(p, params, {
    projectPath: dir,
    userSpace: dir,
    systemSpace: dir,
    dotenv: null,
    osEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    configSchema,
  })) as Record<string, any>;
}

describe("rye's path context wins over caller parameters (every key rye defines)", () => {
  // The list comes from the code: the context type's keys, the keys the executor injects, and every
  // key of a plan's context.
  const keys = [...new Set([...CONTEXT_KEYS, ...INJECTED_KEYS, ...Object.keys(plan({}).context)])];

  it("covers at least the keys of the plan's context", () => {
    for (const k of Object.keys(plan({}).context)) expect(keys).toContain(k);
    expect(keys.length).toBeGreaterThanOrEqual(8);
  });

  for (const key of keys) {
    it(`a caller '${key}' is refused and changes neither argv, cwd nor env`, async () => {
      // The program runs `{key}/main.js` from cwd `{key}` with RYE_K={key}: each is rye's value or nothing runs.
      const p = plan({ command: process.execPath, args: [`{${key}}/main.js`], cwd: `{${key}}`, env_probe: `{${key}}` });
      const response = await run(p, { [key]: evil });
      expect(response.status).toBe("error");
      expect(response.error).toContain(`'${key}'`);
      expect(existsSync(MARKER)).toBe(false);
    });
  }

  it("control: without the caller key the tool's own file runs", async () => {
    const response = await run(plan({ command: process.execPath, args: ["{tool_dir}/main.js"], cwd: "{anchor_path}" }), {});
    expect(response.status).toBe("success");
    expect(response.data.ran).toBe("tool");
  });
});

// Launchers and interpreters whose program text comes from a config key, and a payload in that
// language that would create MARKER if the caller's value replaced the author's.
interface Row {
  name: string;
  config: Record<string, unknown>;
  key: string;
  payload: string;
  /** The author's program prints this JSON. */
  authorOut: string;
}
const pyOut = `import json; print(json.dumps({'success': True, 'ran': 'author'}))`;
const pyPwn = `open(${JSON.stringify(MARKER)}, 'w').write('x'); import json; print(json.dumps({'success': True, 'ran': 'caller'}))`;
const jsOut = `console.log(JSON.stringify({success: true, ran: "author"}))`;
const shOut = `printf '{"success": true, "ran": "author"}'`;
const shPwn = `touch ${MARKER}; printf '{"success": true, "ran": "caller"}'`;
const plOut = `print q({"success": true, "ran": "author"})`;
const plPwn = `open(F, ">", ${JSON.stringify(MARKER)}); print q({"success": true, "ran": "caller"})`;
const ROWS: Row[] = [
  { name: "python3 -c {code}", config: { command: "python3", args: ["-c", "{code}"], code: pyOut }, key: "code", payload: pyPwn, authorOut: "author" },
  { name: "python3 -c {code} via {body}", config: { command: "python3", args: ["-c", "{code}"], code: "{body}", body: pyOut }, key: "body", payload: pyPwn, authorOut: "author" },
  { name: "python3 - with stdin {src}", config: { command: "python3", args: ["-"], input_data: "{src}", src: pyOut }, key: "src", payload: pyPwn, authorOut: "author" },
  { name: "node -e {code}", config: { command: process.execPath, args: ["-e", "{code}"], code: jsOut }, key: "code", payload: PWN, authorOut: "author" },
  { name: "perl -e {code}", config: { command: "perl", args: ["-e", "{code}"], code: plOut }, key: "code", payload: plPwn, authorOut: "author" },
  { name: "flock … sh -c {script}", config: { command: "flock", args: [join(dir, "lk"), SH, "-c", "{script}"], script: shOut }, key: "script", payload: shPwn, authorOut: "author" },
  { name: "sh -i -c {script}", config: { command: SH, args: ["-i", "-c", "{script}"], script: shOut }, key: "script", payload: shPwn, authorOut: "author" },
  { name: "setsid sh -c {script}", config: { command: "setsid", args: [SH, "-c", "{script}"], script: shOut }, key: "script", payload: shPwn, authorOut: "author" },
  { name: "sh -c {script}", config: { command: SH, args: ["-c", "{script}"], script: shOut }, key: "script", payload: shPwn, authorOut: "author" },
  { name: "command {prog}", config: { command: "{prog}", args: ["{tool_dir}/main.js"], prog: process.execPath }, key: "prog", payload: "/usr/bin/touch", authorOut: "tool" },
  { name: "python3 -c {code} with cwd {where}", config: { command: "python3", args: ["-c", pyOut], cwd: "{where}", where: toolDir }, key: "where", payload: evil, authorOut: "author" },
];
const usable = ROWS.filter((r) => has(String(r.config.command).startsWith("{") ? "node" : String(r.config.command).replace(/^.*\//, "")) || String(r.config.command).startsWith("/"));

describe("a caller may not replace a config value that decides what runs, unless the tool declares it", () => {
  for (const r of usable) {
    for (const key of [r.key, "cwd", "input_data"]) {
      const value = key === r.key ? r.payload : key === "cwd" ? evil : pyPwn;
      it(`${r.name}: an undeclared '${key}' from the caller is refused, nothing runs`, async () => {
        const response = await run(plan(r.config), { [key]: value, other: "x" });
        expect(response.status).toBe("error");
        expect(response.error).toContain(`'${key}'`);
        expect(existsSync(MARKER)).toBe(false);
      });
    }
    it(`${r.name}: control, the author's program runs without overrides`, async () => {
      const response = await run(plan(r.config), { other: "x" });
      expect(response.status).toBe("success");
      expect(response.data.ran).toBe(r.authorOut);
    });
  }

  it("control: a declared parameter still replaces the config value (the original's merge)", async () => {
    const schema = { type: "object", properties: { code: { type: "string" } } };
    const response = await run(plan({ command: "python3", args: ["-c", "{code}"], code: pyOut }), { code: pyPwn.replace(`open(${JSON.stringify(MARKER)}, 'w').write('x'); `, "") }, schema);
    expect(response.status).toBe("success");
    expect(response.data.ran).toBe("caller");
  });

  it("control: a config key nothing runs from (timeout) keeps the original's override", async () => {
    const response = await run(plan({ command: "python3", args: ["-c", pyOut], timeout: 15 }), { timeout: 10 });
    expect(response.status).toBe("success");
  });

  it("control: command and args parameters are not merged, so they replace nothing (the bash runtime's {command})", async () => {
    const response = await run(plan({ command: process.execPath, args: ["{tool_dir}/main.js"] }), { command: "/usr/bin/touch", args: [MARKER] });
    expect(response.status).toBe("success");
    expect(existsSync(MARKER)).toBe(false);
  });
});

describe("property: a caller value never changes what runs through a config key unless refused", () => {
  // Random configs whose values are literals or placeholders of other keys (indirection, spaces in
  // names, the process fields), random caller overrides of config keys: either the run is refused,
  // or command, argv, cwd and stdin are exactly what they are without the caller's values.
  const NAMES = ["a", "b", "c", " a ", "code", "timeout", "cwd", "input_data"];
  const value = fc.oneof(fc.constant("lit"), fc.constantFrom(...NAMES).map((n) => `{${n}}`), fc.constantFrom(...NAMES).map((n) => `x{${n}}y`));
  const config = fc.record({
    command: fc.oneof(fc.constant("prog"), value),
    args: fc.array(value, { maxLength: 4 }),
    cwd: fc.option(value, { nil: undefined }),
    input_data: fc.option(value, { nil: undefined }),
    extra: fc.dictionary(fc.constantFrom(...NAMES.filter((n) => !["cwd", "input_data"].includes(n))), value, { maxKeys: 5 }),
  });
  const paths = { project_path: "/p", user_space: "/u", system_space: "/s", tool_path: "/p/t" };
  const what = (chain: Record<string, unknown>, params: Record<string, unknown>) => {
    try {
      const built = buildExecutionConfig(chain, {}, params, paths, { shellQuote: false });
      const t = templateExecStages(built, { ...built, ...params }, {});
      return JSON.stringify([t.command, t.args, t.cwd, t.input_data]);
    } catch (e) {
      return `error: ${(e as Error).message}`;
    }
  };
  it("holds over random configs and overrides", () => {
    fc.assert(
      fc.property(config, fc.subarray(NAMES, { minLength: 1 }), ({ extra, ...fields }, keys) => {
        const chain: Record<string, unknown> = { ...extra, command: fields.command, args: fields.args };
        if (fields.cwd !== undefined) chain.cwd = fields.cwd;
        if (fields.input_data !== undefined) chain.input_data = fields.input_data;
        // Overrides only: names the chain's config holds (or the process fields). A name the config
        // leaves to the caller (`args: ["{text}"]`, no `text` key) is an ordinary parameter.
        const overrides = keys.filter((k) => Object.hasOwn(chain, k) || k === "cwd" || k === "input_data");
        const params = Object.fromEntries(overrides.map((k) => [k, "EVIL"]));
        if (callerParamsProblem(params, chain, CONTEXT_KEYS, undefined) !== null) return;
        expect(what(chain, params)).toBe(what(chain, {}));
      }),
      { numRuns: 3000 },
    );
  });
});
