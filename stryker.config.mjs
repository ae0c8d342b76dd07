// Stryker over one source file at a time: scripts/mutate.mjs sets the file (RYE_MUTATE_FILE) and
// the tests that cover it (RYE_MUTATION_TESTS, read by vitest.mutation.config.ts).
const file = process.env.RYE_MUTATE_FILE ?? "src/emit/escape.ts";
const name = file.replace(/^src\//, "").replace(/\.ts$/, "").replace(/\//g, "-");

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  mutate: [file],
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  reporters: ["clear-text", "json", "progress-append-only"],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  clearTextReporter: { allowColor: false, logTests: false },
  concurrency: 2,
  // A mutant that loops (a lexer index that stops advancing) is cut off 8 s past the baseline run:
  // it counts as detected either way, and shell-lexer alone has about a hundred such mutants.
  timeoutMS: 8_000,
  // One sandbox folder per mutated file, so runs of different files may overlap.
  tempDirName: `.stryker-tmp-${name}`,
  cleanTempDir: "always",
  ignorePatterns: ["out", "reports", ".rye-cache", ".out.generations", "bench/results", ".stryker-tmp-*"],
  thresholds: { high: 90, low: 90, break: null },
};
