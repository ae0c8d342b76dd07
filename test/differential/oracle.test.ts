// Differential property test: random directives and parameters, the same bytes given to the
// original's own parser, validator and interpolator (../shared/oracle) and to our compiled modules
// (build → import → validate/render). Zero differences are allowed beyond the named DEVIATIONS.
// One python3 process per batch; cases are drawn with fast-check from a printed seed, so
// RYE_DIFF_SEED=<seed> replays a failure (RYE_DIFF_RUNS sets how many cases).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parsePyJson } from "../../src/runtime/py-json.js";
import { compileToDir, importDirective, source } from "../helpers/compile.js";
import { compare, DEVIATIONS, type Deviation, type Ours } from "./compare-results.js";
import { diffCase, type DiffCase } from "./directive-model.js";
import { directiveText, paramsText, universalNewlines } from "./write-case.js";
import { oracleUnavailable, runOracle, type OracleJob } from "./run-oracle.js";

const RUNS = Number(process.env.RYE_DIFF_RUNS ?? 240);
const BATCH = 120;
const SEED = process.env.RYE_DIFF_SEED ? Number(process.env.RYE_DIFF_SEED) : Date.now() % 2 ** 31;
const unavailable = oracleUnavailable();

interface Tally {
  cases: number;
  rejectedByBuild: number;
  rendered: number;
  deviations: Record<Deviation, number>;
  failures: string[];
}

async function runBatch(cases: readonly DiffCase[], offset: number, tally: Tally): Promise<void> {
  const texts = cases.map((c, i) => directiveText(c.directive, `d${offset + i}`));
  const { dir, result } = compileToDir(texts.map((t, i) => source(`diff/d${offset + i}`, t)));
  const jobs: OracleJob[] = cases.map((c, i) => ({ id: i, text: universalNewlines(texts[i]!), params: paramsText(c), env: c.env }));
  const results = runOracle(jobs);
  const compiled = new Set(result.compiled);
  for (const [i, c] of cases.entries()) {
    tally.cases++;
    const id = `diff/d${offset + i}`;
    const theirs = results[i]!;
    const where = () => `case ${id} (seed ${SEED})\n--- directive ---\n${texts[i]}\n--- params ---\n${jobs[i]!.params}\n--- env ---\n${JSON.stringify(c.env)}`;
    if (theirs.oracle_exception) {
      tally.failures.push(`${where()}\nthe original raised ${theirs.oracle_exception}`);
      continue;
    }
    if (!compiled.has(id)) {
      const errors = result.diagnostics.filter((d) => d.severity === "error" && d.loc?.source.includes(`d${offset + i}.md`));
      // A build error must be one the generator can earn by chance, on text the original also reads.
      if (theirs.parse_error || errors.some((d) => d.code !== "RYE2001")) tally.failures.push(`${where()}\nbuild rejected it: ${errors.map((d) => `${d.code} ${d.message}`).join("; ")}; original: ${theirs.parse_error ?? "parsed"}`);
      tally.rejectedByBuild++;
      continue;
    }
    if (theirs.parse_error) {
      tally.failures.push(`${where()}\nthe original failed to parse it (${theirs.parse_error}); we compiled it`);
      continue;
    }
    const mod = await importDirective(dir, id);
    const params = parsePyJson(jobs[i]!.params) as Record<string, unknown>;
    const ours: Ours = { validate: mod.validate(params) };
    if (theirs.render) {
      try {
        ours.render = mod.render(params, { env: c.env });
        tally.rendered++;
      } catch (e) {
        tally.failures.push(`${where()}\nrender threw: ${(e as Error).message}`);
        continue;
      }
    }
    const { differences, deviations } = compare(ours, theirs, c.mismatched);
    for (const d of deviations) tally.deviations[d]++;
    if (differences.length > 0) tally.failures.push(`${where()}\n${differences.join("\n")}`);
  }
}

describe("differential: compiled modules against the original's own code", () => {
  test.skipIf(unavailable !== undefined)(`render and validate agree with rye_oracle.py${unavailable ? ` — skipped: ${unavailable}` : ""}`, async () => {
    console.log(`differential test: ${RUNS} cases, seed ${SEED} (replay with RYE_DIFF_SEED=${SEED})`);
    const cases = fc.sample(diffCase, { numRuns: RUNS, seed: SEED });
    const tally: Tally = { cases: 0, rejectedByBuild: 0, rendered: 0, deviations: { VALID_INPUTS_ORDER: 0, TYPE_CHECKS: 0, ITEM_ID_IN_ERRORS: 0 }, failures: [] };
    for (let start = 0; start < cases.length; start += BATCH) await runBatch(cases.slice(start, start + BATCH), start, tally);
    console.log(`differential test: ${tally.cases} cases, ${tally.rendered} rendered, ${tally.rejectedByBuild} rejected by the build, deviations ${JSON.stringify(tally.deviations)} (${Object.values(DEVIATIONS).join("; ")})`);
    expect(tally.failures.slice(0, 3).join("\n\n")).toBe("");
    // The generator must mostly produce directives both sides run, or agreement proves little.
    expect(tally.rejectedByBuild).toBeLessThan(tally.cases / 5);
    expect(tally.rendered).toBeGreaterThan(tally.cases / 3);
  }, 600_000);
});

if (unavailable) console.log(`differential test skipped: ${unavailable}`);
