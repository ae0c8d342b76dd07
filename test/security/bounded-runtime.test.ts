// Decision #25 at run time and in the emitters: JSON inputs, input values, json.dumps, emitted
// literals and tool YAML aliases each stop at a documented bound with a clear error, never a stack
// overflow; `rye preview --inputs` reports nesting past it and exits 2. Random depths up to 10,000.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parsePyJson, pyJsonDumps } from "../../src/runtime/py-json.js";
import { MAX_VALUE_DEPTH, nestedDeeperThan } from "../../src/runtime/py-value.js";
import { validateInputs } from "../../src/runtime/validate.js";
import { MAX_EMIT_DEPTH, json, value } from "../../src/emit/escape.js";
import { MAX_YAML_VALUES, readYamlFully } from "../../src/tools/read-yaml-tool.js";
import { yamlTooDeepAt } from "../../src/parse/yaml-depth.js";
import { tooDeep } from "../../src/parse/scan-calls.js";
import { BIN, cleanEnv, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

/** JSON text `depth` levels deep, dicts and lists as `shape` says. */
const jsonText = (depth: number, shape: number) => {
  let v = "1";
  for (let i = 0; i < depth; i++) v = (shape >> i % 31) & 1 ? `[${v}]` : `{"a": ${v}}`;
  return v;
};
/** The same as a value, built without recursion. */
const valueOf = (depth: number, shape: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = (shape >> i % 31) & 1 ? [v] : { a: v };
  return v;
};
const depthArb = fc.oneof(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 10_000 }));

describe("runtime values", () => {
  test("parsePyJson reads up to 256 levels and refuses deeper with a SyntaxError, never a stack overflow (property)", () => {
    fc.assert(
      fc.property(depthArb, fc.nat(), (depth, shape) => {
        const text = jsonText(depth, shape);
        if (depth <= MAX_VALUE_DEPTH) expect(nestedDeeperThan(parsePyJson(text), depth)).toBe(false);
        else {
          expect(() => parsePyJson(text)).toThrow(SyntaxError);
          expect(() => parsePyJson(text)).toThrow(/^nested deeper than 256 levels at position \d+$/);
        }
      }),
      { numRuns: 300, seed: 25 },
    );
  });

  test("nestedDeeperThan measures without recursion, cycles included", () => {
    for (const depth of [0, 1, 255, 256, 257, 100_000]) {
      const v = valueOf(depth, 0x5555);
      expect(nestedDeeperThan(v, 256)).toBe(depth > 256);
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(nestedDeeperThan(cycle, 256)).toBe(true);
  });

  test("validateInputs refuses an input nested deeper than 256 levels before anything renders it (property)", () => {
    fc.assert(
      fc.property(depthArb, fc.nat(), (depth, shape) => {
        const r = validateInputs([{ name: "a", type: "object" }], { a: valueOf(depth, shape) });
        if (depth < MAX_VALUE_DEPTH) expect(r.status).toBe("success");
        else expect(r).toMatchObject({ status: "error", error: `Inputs nested deeper than ${MAX_VALUE_DEPTH} levels: a` });
      }),
      { numRuns: 300, seed: 25 },
    );
  });

  test("pyJsonDumps writes up to the bound and throws a clear RangeError past it (property)", () => {
    fc.assert(
      fc.property(depthArb, fc.nat(), (depth, shape) => {
        const v = valueOf(depth, shape);
        if (depth <= MAX_VALUE_DEPTH) expect(parsePyJson(pyJsonDumps(v))).toBeDefined();
        else expect(() => pyJsonDumps(v)).toThrow(/json\.dumps: a value nested deeper than 256 levels/);
      }),
      { numRuns: 300, seed: 25 },
    );
  });
});

describe("emitted literals", () => {
  test("value() and json() emit up to 512 levels and refuse deeper with a RangeError the build reports as RYE1010 (property)", () => {
    fc.assert(
      fc.property(depthArb, fc.nat(), (depth, shape) => {
        const v = valueOf(depth, shape);
        if (depth <= MAX_EMIT_DEPTH) {
          // What is emitted is a literal V8 can evaluate back to the value.
          expect(nestedDeeperThan(new Function(`return ${value(v)}`)(), depth)).toBe(false);
          expect(JSON.parse(json(v))).toEqual(JSON.parse(JSON.stringify(v)));
        } else {
          expect(() => value(v)).toThrow(/nested deeper than 512 levels cannot be emitted/);
          // json() looks for __proto__ keys first, with the same bound.
          expect(() => json(v)).toThrow(/nested deeper than 512 levels cannot be emitted/);
        }
      }),
      { numRuns: 200, seed: 25 },
    );
  });
});

describe("parsers' pre-scans", () => {
  test("the call pre-scan finds the bracket that opens level 129, or nothing (property)", () => {
    fc.assert(
      fc.property(depthArb, fc.nat(), (depth, shape) => {
        const text = `\`rye_execute(parameters=${jsonText(depth, shape)})\``;
        const found = tooDeep(text, 0, "`rye_execute".length);
        if (depth <= 128) expect(found).toBeNull();
        else {
          expect(found!.name).toBe("rye_execute");
          expect(text.slice(0, found!.at).replace(/[^[{]/g, "").length).toBe(128);
        }
      }),
      { numRuns: 300, seed: 25 },
    );
  });

  test("the YAML pre-scan measures flow and block nesting without recursion (property)", () => {
    fc.assert(
      fc.property(depthArb, fc.boolean(), (depth, flow) => {
        const d = flow ? depth : Math.min(depth, 1200);
        const text = flow ? `a: ${"[".repeat(d)}1${"]".repeat(d)}\n` : `a:\n${Array.from({ length: d }, (_, i) => `${" ".repeat(i + 1)}-`).join("\n")} 1\n`;
        const at = yamlTooDeepAt(text);
        expect(at === -1).toBe(1 + d <= 128);
      }),
      { numRuns: 200, seed: 25 },
    );
  });

  test("tool YAML whose aliases expand past 100,000 values is refused, not expanded", () => {
    const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]`);
    const read = readYamlFully(`${lines.join("\n")}\n`);
    expect(read.error?.message).toBe(`YAML whose aliases expand to more than ${MAX_YAML_VALUES} values`);
    expect(read.data).toEqual({});
  });
});

describe("rye preview --inputs", () => {
  let root: string;
  beforeAll(() => {
    root = tempDir("rye-preview-deep-");
    mkdirSync(join(root, ".ai", "directives"), { recursive: true });
    writeFileSync(join(root, ".ai", "directives", "t.md"), '# t\n\n```xml\n<directive name="t" version="1.0.0">\n  <metadata><description>d</description></metadata>\n  <inputs><input name="a" type="object" required="true">a</input></inputs>\n</directive>\n```\n\nGot {input:a}.\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const preview = (inputs: string) => spawnSync(process.execPath, [BIN, "preview", "t", "--inputs", inputs], { cwd: root, env: cleanEnv({ USER_SPACE: join(outsideOf(root), "user") }), encoding: "utf8", timeout: 60_000 });

  test.each([10, 200, 256, 257, 5000, 10_000])("inputs nested %i deep: a preview, or exit 2 saying how deep is too deep", (depth) => {
    const r = preview(`{"a": {"x": ${jsonText(depth - 2, 0x3333)}}}`);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/Maximum call stack|RangeError|at .*\.js:\d+/);
    if (depth <= MAX_VALUE_DEPTH) {
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain("Got {");
    } else {
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--inputs is not valid JSON: nested deeper than 256 levels at position \d+/);
    }
  }, 60_000);
});
