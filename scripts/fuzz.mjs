// `npm run fuzz [cases]`: the property tests of test/fuzz/ over many cases (default 100k), in
// chunks of one fresh vitest process each (compiled modules stay loaded for a process's lifetime,
// so one process for 100k cases would only measure memory). Each chunk has its own seed; a failing
// chunk prints its counterexample and the command that replays it.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const total = Number(process.argv[2] ?? process.env.RYE_FUZZ_CASES ?? 100_000);
// Render cases per chunk; each chunk also runs twice as many near-valid cases.
const perChunk = Number(process.env.RYE_FUZZ_CHUNK ?? 2_000);
const baseSeed = Number(process.env.RYE_FUZZ_BASE_SEED ?? 20_260_000);
const vitest = join(root, "node_modules", "vitest", "vitest.mjs");

const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const work = mkdtempSync(join(tmpdir(), "rye-fuzz-run-"));
const started = Date.now();
const totals = { cases: 0, renderCases: 0, rejected: 0, nearValidCases: 0, nearValidCompiled: 0, typeChecked: 0, runs: 0, failures: 0 };
const codes = {};
// Chunks are planned up front (seed and size fixed), then run on every core.
const plan = [];
for (let planned = 0, chunk = 0; planned < total; chunk++) {
  const runs = Math.max(1, Math.min(perChunk, Math.ceil((total - planned) / 3)));
  plan.push({ chunk, seed: baseSeed + chunk, runs });
  planned += 3 * runs;
}

function runChunk({ chunk, seed, runs }) {
  const report = join(work, `chunk-${chunk}.json`);
  const env = { ...process.env, RYE_FUZZ_RUNS: String(runs), RYE_FUZZ_SEED: String(seed), RYE_FUZZ_REPORT: report };
  return new Promise((done) => {
    const child = spawn(process.execPath, [vitest, "run", "test/fuzz/"], { cwd: root, env });
    let output = "";
    child.stdout.on("data", (b) => (output = (output + b).slice(-200_000)));
    child.stderr.on("data", (b) => (output = (output + b).slice(-200_000)));
    child.on("exit", (status) => {
      let stats = null;
      try {
        stats = JSON.parse(readFileSync(report, "utf8"));
      } catch {
        // The report is written after the last property; a failing chunk may not have written it.
      }
      totals.runs++;
      if (status !== 0 || !stats) {
        totals.failures++;
        totals.cases += 3 * runs;
        process.stdout.write(`\nchunk ${chunk} (seed ${seed}) FAILED; replay: RYE_FUZZ_RUNS=${runs} RYE_FUZZ_SEED=${seed} npx vitest run test/fuzz\n`);
        process.stdout.write(`${output.split("\n").filter((l) => !/^directives\//.test(l)).slice(-60).join("\n").slice(0, 6000)}\n`);
      } else {
        for (const k of ["renderCases", "rejected", "nearValidCases", "nearValidCompiled", "typeChecked"]) totals[k] += stats[k];
        totals.cases += stats.renderCases + stats.nearValidCases;
        for (const [c, n] of Object.entries(stats.diagnosticsByCode)) codes[c] = (codes[c] ?? 0) + n;
        process.stdout.write(`chunk ${chunk} (seed ${seed}): ${stats.renderCases + stats.nearValidCases} cases ok — ${totals.cases}/${total}, ${Math.round((Date.now() - started) / 1000)} s\n`);
      }
      done();
    });
  });
}

const queue = [...plan];
const workers = Number(process.env.RYE_FUZZ_JOBS ?? availableParallelism());
await Promise.all(Array.from({ length: workers }, async () => {
  while (queue.length > 0) await runChunk(queue.shift());
}));
rmSync(work, { recursive: true, force: true });

const summary = {
  cases: totals.cases,
  runs: totals.runs,
  failures: totals.failures,
  renderCases: totals.renderCases,
  rejectedByChance: totals.rejected,
  nearValidCases: totals.nearValidCases,
  nearValidCompiled: totals.nearValidCompiled,
  typeChecked: totals.typeChecked,
  seconds: Math.round((Date.now() - started) / 1000),
  diagnosticsByCode: Object.fromEntries(Object.entries(codes).sort()),
};
process.stdout.write(`\n${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(`cases: ${summary.cases}  runs: ${summary.runs}  failures: ${summary.failures}\n`);
process.exit(totals.failures > 0 ? 1 : 0);
