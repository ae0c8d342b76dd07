// Reads vitest's JSON report and prints the summary line CI reads: "N passed, N failed, N skipped".
// A test file that fails to load or collect (a bad import, a throw at top level, a failing
// beforeAll) has no failed test in it, so vitest's own counts miss it: each such file counts as one
// failure here, and is named above the line. A run that failed with nothing counted (an unhandled
// error, a crash, a build that never reached vitest) counts as one failure too.
// With a third argument, the mutation gate's summary (scripts/mutate.mjs): each mutated file counts
// as one test, passed at or above the minimum score, failed below it or when its run failed.
// usage: node .ci/summarize.mjs REPORT.json EXIT_STATUS [MUTATION-SUMMARY.json] (exits 1 when anything failed)
import { readFileSync } from "node:fs";

const [reportPath, statusText = "0", mutationPath] = process.argv.slice(2);
const status = Number(statusText);

let report;
try {
  report = JSON.parse(readFileSync(reportPath, "utf8"));
} catch {
  console.log("no test report was written (the build or the test runner failed before reporting)");
  console.log("0 passed, 1 failed, 0 skipped");
  process.exit(1);
}

const brokenFiles = (report.testResults ?? []).filter(
  (file) => file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed"),
);
for (const file of brokenFiles) {
  const firstLine = String(file.message ?? "").split("\n").find((l) => l.trim() !== "") ?? "no message";
  console.log(`failed outside any test (load, collect or hook): ${file.name}: ${firstLine}`);
}

let failed = (report.numFailedTests ?? 0) + brokenFiles.length;
if (failed === 0 && (status !== 0 || report.success === false)) {
  console.log(`the test run failed (exit status ${status}) with no failed test counted`);
  failed = 1;
}
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
let passed = report.numPassedTests ?? 0;
if (mutationPath) {
  const gate = readMutationSummary(mutationPath);
  for (const row of gate.rows) {
    const ok = Number.isFinite(row.score) && row.score >= gate.minScore;
    const verdict = ok ? "passed" : Number.isFinite(row.score) ? `failed (minimum ${gate.minScore} %)` : "failed: the run did not finish";
    console.log(`mutation gate: ${row.file} ${Number.isFinite(row.score) ? `${row.score.toFixed(1)} % ` : ""}${verdict}`);
    if (ok) passed++;
    else failed++;
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);

/** The gate's rows; a missing or unreadable summary is one failure (the gate did not report). */
function readMutationSummary(path) {
  try {
    const gate = JSON.parse(readFileSync(path, "utf8"));
    return { minScore: gate.minScore, rows: gate.rows.map((r) => ({ ...r, score: r.score ?? Number.NaN })) };
  } catch {
    return { minScore: 90, rows: [{ file: "(the mutation gate wrote no summary)", score: Number.NaN }] };
  }
}
