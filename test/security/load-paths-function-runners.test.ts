// Code a module runner compiles itself, past Node's loader: with the Function constructors (as
// Vite's ssrLoadModule does) or node:vm (as Vitest does). Under `--import rye-build/register`,
// code named by a file of an output folder (a `sourceURL`, a `filename`, the `import.meta` a call
// is handed) is refused before it runs unless the rye-build/vite plugin feeds the runner and the
// file verifies; code named by any other file runs as before. A control run under plain node
// shows every payload does run where nothing guards it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeProject, markerRan, node, rye, tempDir } from "./helpers.js";
import { functionRunnerRows, rowsScript, type Row } from "./function-runner-rows.js";
import { outsideOf } from "../helpers/outside.js";

const REFUSED_UNVERIFIED = /^IntegrityError: .* is build output evaluated by a module runner/s;

describe("code compiled by Function constructors and node:vm, named by a file", () => {
  const base = tempDir("rye-load-fn-runners-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const greet = join(project, "out", "directives", "examples", "greet.js");
  const own = join(project, "app.mjs");
  const markers = join(base, "markers");
  const outputRows = functionRunnerRows(greet, join(markers, "out"), "output");
  const ownRows = functionRunnerRows(own, join(markers, "own"), "not output");

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    writeFileSync(own, `console.log("the application's own file");\n`);
  }, 60_000);

  /** Runs `rows` in one process (under the register entry unless `plain`), each row's marker cleared first. */
  function runRows(rows: readonly Row[], plain: boolean, before = "", nodeArgs: string[] = []): Record<string, string> {
    rmSync(markers, { recursive: true, force: true });
    for (const dir of ["out", "own"]) mkdirSync(join(markers, dir), { recursive: true });
    writeFileSync(join(project, "rows.mjs"), rowsScript(rows, before));
    const r = node(project, env, ...nodeArgs, ...(plain ? [] : ["--import", "rye-build/register"]), "rows.mjs");
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Record<string, string>;
  }

  test("the matrix is what it says: 64 constructor rows, 24 import.meta rows, 38 rows in vm contexts, 20 vm rows per file", () => {
    expect(outputRows).toHaveLength(146);
    expect(new Set(outputRows.map((r) => r.name)).size).toBe(146);
  });

  test("control: under plain node every payload named by an output file runs", () => {
    const results = runRows(outputRows, true);
    for (const row of outputRows) {
      expect(results[row.name], row.name).toBe("ran");
      expect(markerRan(row.marker), row.name).toBe(true);
    }
  }, 60_000);

  test("under the register entry every row named by an output file is refused and its payload never runs", () => {
    const results = runRows(outputRows, false);
    for (const row of outputRows) {
      expect(results[row.name], row.name).toMatch(REFUSED_UNVERIFIED);
      expect(results[row.name], row.name).toContain("add ryeVerify() from rye-build/vite");
      expect(markerRan(row.marker), row.name).toBe(false);
    }
  }, 60_000);

  test("under the register entry every row named by the application's own file runs", () => {
    const results = runRows(ownRows, false);
    for (const row of ownRows) {
      expect(results[row.name], row.name).toBe("ran");
      expect(markerRan(row.marker), row.name).toBe(true);
    }
  }, 60_000);

  test("the variable the plugin sets, from a checkout's .env (node --env-file), does not count: every output row is refused", () => {
    writeFileSync(join(project, ".env"), "RYE_VITE_PLUGIN_VERIFIES=1\n");
    try {
      const results = runRows(outputRows, false, "", ["--env-file=.env"]);
      for (const row of outputRows) {
        expect(results[row.name], row.name).toMatch(REFUSED_UNVERIFIED);
        expect(results[row.name], row.name).toContain("RYE_VITE_PLUGIN_VERIFIES is set, but not by the rye-build/vite plugin");
        expect(markerRan(row.marker), row.name).toBe(false);
      }
    } finally {
      rmSync(join(project, ".env"));
    }
  }, 60_000);

  test("a token for this very process, made with another secret than the user space's, does not count", () => {
    const forge = (key: string) => `import { createHmac } from "node:crypto";
process.env.RYE_VITE_PLUGIN_VERIFIES = process.pid + "." + ${key};`;
    for (const key of [`"0".repeat(64)`, `createHmac("sha256", "attacker").update("rye-build runner verified\\0" + process.pid).digest("hex")`]) {
      const results = runRows(outputRows, false, forge(key));
      for (const row of outputRows) {
        expect(results[row.name], row.name).toMatch(REFUSED_UNVERIFIED);
        expect(markerRan(row.marker), row.name).toBe(false);
      }
    }
  }, 60_000);

  test("with the plugin's mark in the process, a row named by a tampered output file is refused: the file must verify as it is now", () => {
    const saved = readFileSync(greet);
    const fileMarker = join(base, "greet-payload");
    inject(greet, fileMarker);
    try {
      const results = runRows(outputRows, false, `import { ryeVerify } from "rye-build/vite";\nryeVerify().config.call(undefined, {});`);
      for (const row of outputRows) {
        expect(results[row.name], row.name).toContain("Content modified since signing: examples/greet");
        expect(markerRan(row.marker), row.name).toBe(false);
      }
      expect(markerRan(fileMarker)).toBe(false);
    } finally {
      writeFileSync(greet, saved);
    }
  }, 60_000);

  test("with the plugin's mark in the process, a row named by an untouched output file runs (what the plugin verified)", () => {
    const results = runRows(outputRows, false, `import { ryeVerify } from "rye-build/vite";\nryeVerify().config.call(undefined, {});`);
    for (const row of outputRows) expect(results[row.name], row.name).toBe("ran");
  }, 60_000);
});

/** What code may ask of the constructors; each answer printed under plain node and under the register entry. */
const IDENTITY = `import vm from "node:vm";
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;
class Sub extends Function {}
const sub = new Sub("return 2");
const body = "/*code*/";
const source = new AsyncFunction("a", "b", body).toString();
console.log(JSON.stringify({
  instanceOf: (function () {}) instanceof Function && (async () => {}) instanceof Function,
  prototype: Function.prototype === Object.getPrototypeOf(function () {}),
  constructorIdentity: (function () {}).constructor === Function && Function.prototype.constructor === Function,
  asyncConstructorIdentity: (async function () {}).constructor === AsyncFunction,
  compiledIsFunction: new Function("return 1") instanceof Function && typeof new Function("return 1") === "function",
  result: new Function("a", "b", "return a + b")(1, 2),
  asyncResult: await new AsyncFunction("return 3")(),
  generator: [...new GeneratorFunction("yield 1; yield 2")()],
  subclass: sub() === 2 && sub instanceof Sub && sub instanceof Function,
  nameLength: [Function.name, Function.length, AsyncFunction.name, AsyncFunction.length],
  paddingLines: source.slice(0, source.indexOf(body)).split("\\n").length - 1,
  asyncSource: source,
  asyncProto: Object.getPrototypeOf(new AsyncFunction("")) === AsyncFunction.prototype,
  hasInstanceNative: Function.toString().includes("[native code]"),
  contextIdentity: vm.runInNewContext("(function () {}) instanceof Function && (function () {}).constructor === Function && new Function('return 4')() === 4"),
  sandboxKeys: (() => { const s = { a: 1 }; vm.createContext(s); return Object.keys(s); })(),
  sandboxOwnFunction: vm.runInNewContext("Function", { Function: 5 }),
  codeGenerationOff: vm.runInNewContext("try { new Function('return 1'); 'allowed' } catch (e) { e.name }", {}, { contextCodeGeneration: { strings: false } }),
  scriptInNewContext: new vm.Script("typeof Function").runInNewContext({}),
}));
`;

describe("the constructors keep what code expects of them", () => {
  const base = tempDir("rye-load-fn-identity-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });

  test("every answer is the same under the register entry as under plain node", () => {
    writeFileSync(join(project, "identity.mjs"), IDENTITY);
    const plain = node(project, env, "identity.mjs");
    const guarded = node(project, env, "--import", "rye-build/register", "identity.mjs");
    expect(plain.status, plain.stderr).toBe(0);
    expect(guarded.status, guarded.stderr).toBe(0);
    const answers = JSON.parse(plain.stdout) as Record<string, unknown>;
    expect(answers).toMatchObject({ instanceOf: true, prototype: true, constructorIdentity: true, asyncConstructorIdentity: true, result: 3, asyncResult: 3, generator: [1, 2], subclass: true });
    expect(answers).toMatchObject({ contextIdentity: true, sandboxKeys: ["a"], sandboxOwnFunction: 5, codeGenerationOff: "EvalError", scriptInNewContext: "function" });
    expect(JSON.parse(guarded.stdout)).toEqual(answers);
  }, 60_000);
});
