import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { parsePyJson } from "../../src/runtime/py-json.js";
import { PyFloat } from "../../src/runtime/py-value.js";
import { pyStr } from "../../src/runtime/pystr.js";
import { SHARED_DIR, SHARED_SKIP_REASON, hasShared } from "../helpers/shared.js";
import { problemsOf, STRICT, ts } from "../helpers/strict-tsc.js";
import { outsideOf } from "../helpers/outside.js";

// Python values through every entry point: a compiled module's render() and validate(), the
// bundle's command line and `rye run`. The same JSON text goes to each and to the original's own
// parser, validator and interpolator (the oracle); rendered fields must be identical. Thread
// expectations are Python's str() of the original's resolved limits ({**limits, **overrides}).

const SHOW = `<!-- rye:unsigned -->
# Show

\`\`\`xml
<directive name="show" version="1.0.0">
  <metadata>
    <description>Show values.</description>
    <category>vals</category>
    <author>t</author>
    <model tier="fast" />
    <limits turns="3" spend="1.0" />
    <hooks>
      <hook id="note" event="thread_started" position="after">
        <action primary="execute" item_type="knowledge" item_id="vals/note" />
      </hook>
    </hooks>
  </metadata>
  <inputs>
    <input name="x" type="object" required="true">X</input>
    <input name="n" type="integer">N</input>
    <input name="r" type="number">R</input>
  </inputs>
</directive>
\`\`\`

x={input:x} n={input:n?} again=\${inputs.x}
`;

const NOTE = `<!-- rye:unsigned -->

\`\`\`yaml
name: Note
title: Note
entry_type: context
category: vals
version: "1.0.0"
author: t
\`\`\`

spend=\${limits.spend} limits=\${limits} model=\${model} turns=\${max_turns}
`;

/**
 * Parameters as JSON text, what the original renders from them, and what the thread's hook sees.
 * `validated`: the parameters the original's directive executor validates (without model,
 * limit_overrides and previous_thread_id), when they differ.
 */
const CASES: { params: string; validated?: string; body: string; note: string }[] = [
  {
    params: '{"x": {"b": 1, "2": 2}, "n": 12345678901234567890}',
    body: "x={'b': 1, '2': 2} n=12345678901234567890 again={'b': 1, '2': 2}",
    note: "spend=1.0 limits={'turns': 3, 'spend': 1.0} model=fast turns=3",
  },
  {
    params: '{"x": {"z": [1.0, 2.50, -0.0, 1e16, 1e400], "10": {"9": true, "a": null}}, "n": -12345678901234567890}',
    body: "x={'z': [1.0, 2.5, -0.0, 1e+16, inf], '10': {'9': True, 'a': None}} n=-12345678901234567890 again={'z': [1.0, 2.5, -0.0, 1e+16, inf], '10': {'9': True, 'a': None}}",
    note: "spend=1.0 limits={'turns': 3, 'spend': 1.0} model=fast turns=3",
  },
  {
    params: '{"x": {"b": 1, "2": 2}, "model": "m-9", "limit_overrides": {"turns": 5, "spend": 2}, "previous_thread_id": "t-1"}',
    validated: '{"x": {"b": 1, "2": 2}}',
    body: "x={'b': 1, '2': 2} n= again={'b': 1, '2': 2}",
    note: "spend=2 limits={'turns': 5, 'spend': 2} model=m-9 turns=5",
  },
];

const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));
let dir = "";
let env: Record<string, string | undefined> = {};
let bundle = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rye-values-"));
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  mkdirSync(join(dir, ".ai", "directives", "vals"), { recursive: true });
  mkdirSync(join(dir, ".ai", "knowledge", "vals"), { recursive: true });
  writeFileSync(join(dir, ".ai", "directives", "vals", "show.md"), SHOW);
  writeFileSync(join(dir, ".ai", "knowledge", "vals", "note.md"), NOTE);
  env = { USER_SPACE: join(outsideOf(dir), "nouser"), PATH: process.env.PATH };
  const sink = { write: () => true } as unknown as Io["stdout"];
  expect(await main(["bundle"], { stdout: sink, stderr: sink, cwd: dir, env })).toBe(0);
  // The TypeScript sources too (out/ts/), which a build writes only when asked.
  expect(await main(["build", "--emit-ts"], { stdout: sink, stderr: sink, cwd: dir, env })).toBe(0);
  process.env.RYE_TRUSTED_KEYS = join(outsideOf(dir), "nouser", ".ai", "config", "keys", "signing", "public_key.pem");
  // Run from a plain copy, as CI would.
  bundle = join(mkdtempSync(join(tmpdir(), "rye-values-bundle-")), "bundle.mjs");
  copyFileSync(join(dir, "out", "bundle.mjs"), bundle);
}, 120_000);

const load = async () => (await import(pathToFileURL(join(dir, "out", "directives", "vals", "show.js")).href)) as Record<string, any>;

function runBundle(...args: string[]): { code: number | null; json: any } {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: "utf8", env: process.env });
  return { code: r.status, json: r.stdout ? JSON.parse(r.stdout) : null };
}

async function ryeRun(...args: string[]): Promise<{ code: number; json: any }> {
  let text = "";
  const out = { write: (s: string) => ((text += s), true) } as unknown as Io["stdout"];
  // The user space sits inside the project here, so it does not vouch: the builder's key is pinned.
  const code = await main(["run", "out/bundle.mjs", ...args], { stdout: out, stderr: out, cwd: dir, env: { ...env, RYE_TRUSTED_KEYS: process.env.RYE_TRUSTED_KEYS } });
  return { code, json: JSON.parse(text) };
}

describe("the compiled module", () => {
  test("metadata keeps <limits spend=\"1.0\"> a float", async () => {
    const mod = await load();
    expect(mod.metadata.limits.spend).toBeInstanceOf(PyFloat);
    expect(pyStr(mod.metadata.limits)).toBe("{'turns': 3, 'spend': 1.0}");
  });

  test.each(CASES)("render and validate: $params", async ({ params, body }) => {
    const mod = await load();
    const checked = mod.validate(parsePyJson(params));
    expect(checked.status).toBe("success");
    expect(mod.render(checked.inputs).body).toBe(body);
  });

  test("typed callers pass Maps, bigints and PyFloats directly", async () => {
    const mod = await load();
    const x = new Map<string, unknown>([["b", new PyFloat(1)], ["2", [2n ** 70n]]]);
    expect(mod.render({ x, n: 2n ** 64n }).body).toBe("x={'b': 1.0, '2': [1180591620717411303424]} n=18446744073709551616 again={'b': 1.0, '2': [1180591620717411303424]}");
  });

  test.each(CASES)("renderThread with the options validate() returns: $params", async ({ params, note }) => {
    const mod = await load();
    const checked = mod.validate(parsePyJson(params));
    const thread = mod.renderThread(checked.inputs, checked.options);
    expect(thread.messages[0].content).toContain(note);
  });

  test("renderThread options typed from JavaScript: a PyFloat override stays a float", async () => {
    const mod = await load();
    const thread = mod.renderThread({ x: {} }, { model: "m-2", limit_overrides: { spend: new PyFloat(2) } });
    expect(thread.messages[0].content).toContain("spend=2.0 limits={'turns': 3, 'spend': 2.0} model=m-2 turns=3");
    expect(thread.messages[0].content).toContain("Model: m-2.");
  });
});

test("types: Maps, bigints and PyFloats type-check where Python would take them, the emitted source included", () => {
  const consumer = join(dir, "out", "values-consumer.ts");
  writeFileSync(
    consumer,
    `import { directives } from "./index.js";
import { render, renderThread, validate } from "./directives/vals/show.js";
import { PyFloat } from "./runtime/directive.js";

directives["vals/show"].render({ x: new Map([["b", 1]]), n: 12345678901234567890n, r: new PyFloat(1) });
render({ x: { a: 1 }, n: 3, r: 2n });
renderThread({ x: {} }, { model: "m", limit_overrides: { spend: new PyFloat(2) }, previous_thread_id: "t" });
directives["vals/show"].renderThread({ x: {} }, { limit_overrides: new Map([["turns", 5]]) });
const v = validate({});
if (v.status === "success") renderThread(v.inputs, v.options);
// @ts-expect-error an integer input takes no float
render({ x: {}, n: new PyFloat(1) });
// @ts-expect-error an object input takes no string
directives["vals/show"].render({ x: "s" });
// @ts-expect-error the execution keys are options, not inputs
render({ x: {}, model: "m" });
`,
  );
  const source = join(dir, "out", "ts", "directives", "vals", "show.ts");
  expect(readFileSync(source, "utf8")).toContain("spend:new PyFloat(1)");
  const program = ts.createProgram([consumer, source], { ...STRICT, skipLibCheck: false });
  expect(problemsOf(program, dir)).toEqual([]);
}, 60_000);

describe("the bundle's command line", () => {
  test.each(CASES)("directive --inputs $params", ({ params, body, note }) => {
    const rendered = runBundle("directive", "vals/show", "--inputs", params);
    expect(rendered.code).toBe(0);
    expect(rendered.json.data.body).toBe(body);
    const thread = runBundle("directive", "vals/show", "--inputs", params, "--thread");
    expect(thread.code).toBe(0);
    expect(thread.json.data.messages[0].content).toContain(note);
  });

  test("--model wins over a model in the inputs", () => {
    const thread = runBundle("directive", "vals/show", "--inputs", CASES[2]!.params, "--thread", "--model", "m-7");
    expect(thread.json.data.messages[0].content).toContain("spend=2 limits={'turns': 5, 'spend': 2} model=m-7 turns=5");
  });

  test("a wrongly typed execution key is the error payload, exit 1", () => {
    const bad = runBundle("directive", "vals/show", "--inputs", '{"x": {}, "limit_overrides": 3}');
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ status: "error", error: "Invalid options: 'limit_overrides' must be an object, got an integer", item_id: "vals/show" });
  });
});

describe("rye run", () => {
  test.each(CASES)("directive --inputs $params", async ({ params, body, note }) => {
    const rendered = await ryeRun("directive", "vals/show", "--inputs", params);
    expect(rendered.code).toBe(0);
    expect(rendered.json.data.body).toBe(body);
    const thread = await ryeRun("directive", "vals/show", "--inputs", params, "--thread");
    expect(thread.code).toBe(0);
    expect(thread.json.data.messages[0].content).toContain(note);
  });

  test("unknown parameters still fail, named in the order given", async () => {
    const bad = await ryeRun("directive", "vals/show", "--inputs", '{"x": {}, "zz": 1, "2": 2, "model": "m"}');
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ status: "error", error: "Unknown parameters: zz, 2. Valid inputs: x, n, r" });
  });
});

const hasPython = spawnSync("python3", ["-c", "print(1)"]).status === 0;
const canRunOracle = hasShared && hasPython;

describe.skipIf(!canRunOracle)("every entry point renders what the original renders", () => {
  test.each(CASES)("$params", async ({ params, validated, body }) => {
    const job = JSON.stringify({ id: 1, text: SHOW, params: validated ?? params });
    const out = execFileSync("python3", [resolve(SHARED_DIR, "oracle", "rye_oracle.py"), "batch"], { input: `${job}\n`, encoding: "utf8" });
    const original = parsePyJson(out) as { validate: { status: string }; render: Record<string, unknown> };
    expect(original.validate.status).toBe("success");
    expect(original.render.body).toBe(body);
    const mod = await load();
    const checked = mod.validate(parsePyJson(params));
    const fields = ["body", "content", "raw", "actions", "prompt"];
    const pick = (r: Record<string, unknown>) => Object.fromEntries(fields.map((f) => [f, r[f]]));
    expect(pick(mod.render(checked.inputs))).toEqual(pick(original.render));
    expect(pick(runBundle("directive", "vals/show", "--inputs", params).json.data)).toEqual(pick(original.render));
    expect(pick((await ryeRun("directive", "vals/show", "--inputs", params)).json.data)).toEqual(pick(original.render));
  });
});
if (!canRunOracle) test.skip(`oracle comparison of every entry point: ${hasPython ? SHARED_SKIP_REASON : "python3 not found"}`, () => {});
