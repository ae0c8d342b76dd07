// A contributor's clone has no ../shared. Every test file that reads it must say why it skips, and
// name tests of the project's own fixtures that cover the same feature (SHARED_COVERAGE); those
// tests must exist, run and pass with ../shared out of reach.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { SHARED_COVERAGE } from "../helpers/shared.js";
import { REPO } from "./install.js";

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "fixtures" ? [] : testFiles(path);
    return name.endsWith(".test.ts") ? [relative(REPO, path)] : [];
  });
}

/** The test files that read ../shared: through the helper, or through the oracle runner. */
const readers = testFiles(join(REPO, "test"))
  .filter((f) => /from "\.\.?\/(?:\.\.\/)?helpers\/shared\.js"|from "\.\/run-oracle\.js"/.test(readFileSync(join(REPO, f), "utf8")))
  .filter((f) => !f.startsWith("test/first-hour/"))
  .sort();

describe("SHARED_COVERAGE", () => {
  test("has one row for each test file that reads ../shared, and no other", () => {
    expect(readers.length).toBeGreaterThan(10);
    expect(SHARED_COVERAGE.map((c) => c.file).sort()).toEqual(readers);
  });

  test.each(readers)("%s puts its reason into the name of what it skips", (file) => {
    expect(readFileSync(join(REPO, file), "utf8")).toMatch(/SHARED_SKIP_REASON|sharedRows\(|skipped: \$\{/);
  });

  test("each covering test exists, runs and passes without ../shared", () => {
    const files = [...new Set(SHARED_COVERAGE.flatMap((c) => c.coveredBy.map(([f]) => f)))];
    const names = [...new Set(SHARED_COVERAGE.flatMap((c) => c.coveredBy.map(([, n]) => n)))];
    const pattern = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
    const report = join(mkdtempSync(join(tmpdir(), "rye-no-shared-")), "report.json");
    const { VITEST: _, VITEST_POOL_ID: __, VITEST_WORKER_ID: ___, ...env } = process.env;
    const r = spawnSync(process.execPath, [join(REPO, "node_modules", "vitest", "vitest.mjs"), "run", ...files, "-t", pattern, "--reporter=json", `--outputFile=${report}`], {
      cwd: REPO,
      env: { ...env, RYE_SHARED_DIR: join(tmpdir(), "no-shared-here") },
      encoding: "utf8",
      timeout: 240_000,
    });
    const results = (JSON.parse(readFileSync(report, "utf8")) as { testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[] }).testResults;
    const missing: string[] = [];
    for (const { file, coveredBy } of SHARED_COVERAGE) {
      for (const [own, name] of coveredBy) {
        const ran = results.find((m) => relative(REPO, m.name) === own)?.assertionResults.filter((a) => a.fullName.includes(name)) ?? [];
        if (ran.length === 0 || ran.some((a) => a.status !== "passed")) missing.push(`${file} → ${own}: "${name}" ${ran.length === 0 ? "not found" : ran.map((a) => a.status).join(",")}`);
      }
    }
    expect(missing, r.stderr.slice(-2000)).toEqual([]);
  }, 300_000);
});
