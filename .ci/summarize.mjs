// Reads vitest's JSON report and prints the summary line CI reads: "N passed, N failed, N skipped".
// A test file that fails to load or collect (a bad import, a throw at top level, a failing
// beforeAll) has no failed test in it, so vitest's own counts miss it: each such file counts as one
// failure here, and is named above the line. A run that failed with nothing counted (an unhandled
// error, a crash, a build that never reached vitest) counts as one failure too.
// usage: node .ci/summarize.mjs REPORT.json EXIT_STATUS (exits 1 when anything failed)
import { readFileSync } from "node:fs";

const [reportPath, statusText = "0"] = process.argv.slice(2);
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
console.log(`${report.numPassedTests ?? 0} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
