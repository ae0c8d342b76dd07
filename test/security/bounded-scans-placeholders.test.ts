// Decision #25, bounded work, for the placeholder scans outside the parser: the run-time
// interpolation passes, the hook context pass, the LSP's token lookup, the chain scope check and
// the near-miss check. An opener repeated without its closer used to send every opener's `[^}]*`
// run to the end of the text. Each is run on 1 MiB of such openers (vitest's timeout is the only
// clock: quadratic work at that size takes minutes), and held by property tests to the whole-text
// search it replaced, kept here as the reference.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { nearMissInputNames } from "../../src/analyze/checks/report-misspelt-kinds.js";
import { tokenAt } from "../../src/lsp/token-at.js";
import { didYouMean } from "../../src/runtime/did-you-mean.js";
import { interpolateContext } from "../../src/runtime/context/interpolate.js";
import { ENV_REF, INPUT_REF, resolveEnvRefs, resolveInputRefs } from "../../src/runtime/interpolate.js";
import { build } from "../../src/index.js";
import { checkChainScopes } from "../../src/tools/check-scopes.js";
import { source } from "../helpers/compile.js";

const MIB = 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.floor(MIB / unit.length));

// The passes as they were: the whole text searched from every opener.
const oldInputs = (text: string, inputs: Record<string, string>) =>
  text.replace(INPUT_REF, (whole, key: string, mod: string | undefined) => (Object.hasOwn(inputs, key) ? inputs[key]! : mod === "?" ? "" : mod ? mod.slice(1) : whole));
const oldEnv = (text: string, env: Record<string, string>) =>
  text.replace(ENV_REF, (whole, name: string, fallback: string | undefined) => (Object.hasOwn(env, name) ? env[name]! : fallback ?? whole));
const OLD_CANDIDATE = /\{([A-Za-z]{2,8}):([\p{L}\p{N}_]+)(\?|[:|][^}\n]*)?\}/gu;
const oldNearMissNames = (text: string) =>
  [...text.matchAll(OLD_CANDIDATE)].filter((m) => m[1] !== "input" && m[1] !== "env" && m[1]!.toLowerCase() !== "env" && didYouMean(m[1]!, ["input"], 1)).map((m) => m[2]!);

const PIECES = ["{input:", "{env:", "{inptu:", "{inupt:", "{inputt:", "{Input:", "{ENV:", "${", "a", "b", "x1", "?", ":", "|", "}", "\n", " ", "{", "é"];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((a) => a.join(""));
const parsedOf = (t: string) => ({ file: { text: t } }) as unknown as Parameters<typeof nearMissInputNames>[0];

describe("placeholder scans give the whole-text search's result", () => {
  test("run-time input and env passes", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(resolveEnvRefs(t, { a: "A" })).toBe(oldEnv(t, { a: "A" }));
        // Values without `${inputs.`, so the second pass leaves them alone.
        expect(resolveInputRefs(t, { a: "A" })).toBe(oldInputs(t, { a: "A" }));
      }),
      { numRuns: 3000 },
    );
  });

  test("near-miss input names, line by line", () => {
    fc.assert(fc.property(text, (t) => {
      expect(nearMissInputNames(parsedOf(t))).toEqual(oldNearMissNames(t));
    }), { numRuns: 3000 });
  });
});

describe("an opener repeated to 1 MiB without its closer", () => {
  test("run-time passes", () => {
    expect(resolveInputRefs(fill("{input:a|"), {})).toBe(fill("{input:a|"));
    expect(resolveEnvRefs(fill("{env:a:"), {})).toBe(fill("{env:a:"));
    expect(resolveInputRefs(`${fill("{input:a|")}}`, {})).toBe(fill("{input:a|").slice(9));
    expect(interpolateContext(fill("${"), {})).toBe(fill("${"));
    expect(interpolateContext(fill("{input:a|"), { inputs: { b: 1 } })).toBe(fill("{input:a|"));
  });

  test("the LSP's placeholder under the cursor", () => {
    const t = fill("{input:a|");
    expect(tokenAt(t, t.length - 2)).toEqual({ kind: "input", name: "a", start: t.length - 2, end: t.length - 1 });
    expect(tokenAt(`${t}}`, t.length >> 1)).toEqual({ kind: "input", name: "a", start: 7, end: 8 });
  });

  test("chain scopes", () => {
    const chain = (arg: string) => [{ metadata: { config_schema: { properties: {} }, config: { args: [arg] } } }] as unknown as Parameters<typeof checkChainScopes>[0];
    expect(checkChainScopes(chain(fill("{input:")), {}).problems).toEqual([]);
    expect(checkChainScopes(chain(fill("${")), {}).problems).toEqual([]);
    expect(checkChainScopes(chain(fill("{")), {}).problems).toEqual([]);
  });

  test("near misses", () => {
    expect(nearMissInputNames(parsedOf(fill("{inptu:a|")))).toEqual([]);
    expect(nearMissInputNames(parsedOf(`${fill("{inptu:a|")}}`))).toEqual(["a"]);
  });

  test("hook templates", () => {
    const hook = (value: string) =>
      `# t\n\n\`\`\`xml\n<directive name="t" version="1.0.0">\n  <metadata>\n    <description>d</description>\n    <hooks>\n      <hook id="h" event="thread_started">\n        <action primary="execute" item_type="knowledge" item_id="${value}" />\n      </hook>\n    </hooks>\n  </metadata>\n</directive>\n\`\`\`\n\nBody.\n`;
    const bad = (value: string) => build([source("t", hook(value))], "test").diagnostics.filter((d) => d.code === "RYE3007").length;
    const room = MIB - hook("").length - 1;
    expect(bad("${".repeat(room >> 1))).toBe(0);
    expect(bad(`${"{input:a|".repeat(Math.floor((room - 1) / 9))}}`)).toBe(1);
    expect(bad(`${"${stat.x".repeat(Math.floor((room - 1) / 9))}}`)).toBe(1);
  });
});
