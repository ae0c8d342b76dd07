// The analysis after the parsers is linear in what the checkout wrote: an `extends` chain of in-limit
// directives may carry well over 100,000 context ids, and 170,000 located diagnostics must reach the
// user as diagnostics. Two forms break that and are banned from the phases a build runs: a dedupe by
// Array.includes inside a loop (quadratic: four 915 KB directives took over two minutes) and a call
// spread `push(...list)` (one stack slot per item: past ~120,000 it is a RangeError, which the build
// turned into one unlocated internal error). The scan enumerates every source file of those phases.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { resolveContext, type DirectiveEntry, type LeafEntry } from "../../src/analyze/resolve-context.js";
import { appendAll } from "../../src/compile/append-all.js";
import { REPO } from "./helpers.js";

const PHASES = ["src/parse", "src/analyze", "src/compile", "src/emit", "src/diagnostics", "src/project"];
const BANNED: [RegExp, string][] = [
  [/\.push\(\s*\.\.\./, "push(...list): one stack slot per item; use appendAll or a loop"],
  [/Math\.(max|min)\(\s*\.\.\./, "Math.max/min(...list): one stack slot per item; use a loop"],
  // A constant list (an UPPER_CASE name) is a fixed handful of words, not input.
  [/for \([^)]*\)[^\n]*(?<![A-Z_])\.includes\(/, "Array.includes inside a loop: quadratic; use a Set"],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" ? [] : sources(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

describe("no per-item stack use or quadratic dedupe in the build's phases", () => {
  test("the banned forms appear nowhere in them", () => {
    const found: string[] = [];
    for (const phase of PHASES) {
      for (const file of sources(join(REPO, phase))) {
        readFileSync(file, "utf8").split("\n").forEach((line, i) => {
          for (const [form, why] of BANNED) if (form.test(line) && !/^\s*(\/\/|\*)/.test(line)) found.push(`${relative(REPO, file)}:${i + 1}: ${why}`);
        });
      }
    }
    expect(found).toEqual([]);
  });

  test("the hazard is real on this Node: a spread of 500,000 items overflows, appendAll does not", () => {
    const big = Array.from({ length: 500_000 }, (_, i) => i);
    expect(() => ([] as number[]).push(...big)).toThrow(RangeError);
    const into: number[] = [-1];
    appendAll(into, big);
    expect(into.length).toBe(500_001);
    expect(into[500_000]).toBe(499_999);
  });
});

describe("context of a long extends chain is composed in one pass", () => {
  const IDS = 34_000;
  const loc = { source: "x.md", start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };
  /** Directive c`d` (extending c`d-1`) lists before ids d*1000 .. d*1000+IDS-1 (overlapping its parent's) and suppresses s`d`-0.. . */
  const entry = (d: number): LeafEntry => {
    const before = Array.from({ length: IDS }, (_, i) => `k${d * 1000 + i}`);
    const suppress = Array.from({ length: IDS }, (_, i) => `s${i % (IDS / 2)}-${d % 2}`);
    return {
      id: `c${d}`,
      space: "project",
      data: { ...(d > 0 ? { extends: `c${d - 1}` } : {}), context: { system: [], before, after: [], suppress } },
      locs: { root: loc, context: [] },
    } as unknown as LeafEntry;
  };

  test("4 x 34,000 before and suppress ids: first occurrence kept, root first, each once", () => {
    const chain = [0, 1, 2, 3].map(entry);
    const byId = new Map<string, DirectiveEntry>(chain.map((c) => [c.id, c]));
    const { plan } = resolveContext(chain[3]!, (id) => byId.get(id), () => true, []);
    const expected: string[] = [];
    const seen = new Set<string>();
    for (const c of chain) for (const id of c.data.context!.before) if (!seen.has(id)) seen.add(id), expected.push(id);
    expect(plan.chain).toEqual(["c0", "c1", "c2", "c3"]);
    expect(plan.before).toEqual(expected);
    expect(plan.before).toHaveLength(3 * 1000 + IDS);
    expect(plan.suppress).toHaveLength(IDS);
    expect(new Set(plan.suppress).size).toBe(IDS);
  });
});
