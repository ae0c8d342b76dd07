#!/usr/bin/env node
// `npm run mutate [-- src/file.ts …]`: Stryker over each security- or exactness-critical file in
// turn, each with only the tests that exercise it, then a table of mutation scores. Exits 1 when a
// file scores below 90 % (survivors that are equivalent are listed in docs/mutation-testing.md).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MIN_SCORE = 90;

/** Each mutated file and the test files run against its mutants. */
export const TARGETS = {
  // The emitted-code escaper: every user string that reaches generated code.
  "src/emit/escape.ts": ["test/mutation/escape.test.ts", "test/mutation/escape-template.test.ts"],
  "src/runtime/py-json.ts": ["test/mutation/py-json.test.ts"],
  "src/runtime/pystr.ts": ["test/mutation/pystr.test.ts", "test/runtime/pystr.test.ts"],
  "src/runtime/exec/substitute-params.ts": ["test/mutation/substitute-params.test.ts", "test/exec/templating.test.ts"],
  "src/runtime/exec/expand-env.ts": ["test/mutation/expand-env.test.ts", "test/exec/templating.test.ts", "test/mutation/seal-text.test.ts"],
  // Class 1, rule 9: what a ${VAR} puts in is sealed until the last pass.
  "src/runtime/exec/seal-text.ts": ["test/mutation/seal-text.test.ts"],
  "src/runtime/interpolate.ts": ["test/mutation/interpolate.test.ts"],
  "src/sign/verify-item.ts": ["test/mutation/verify-item.test.ts", "test/sign/verify-item.test.ts"],
  "src/verify/verify-output.ts": ["test/mutation/verify-output.test.ts", "test/mutation/verify-output-sources.test.ts", "test/mutation/verify-output-order.test.ts", "test/security/verify-api.test.ts"],
  // Class 1: values into interpreters (the binding and the inert check).
  "src/runtime/exec/bind-shell-script.ts": ["test/mutation/bind-shell-script.test.ts"],
  "src/runtime/exec/inert.ts": ["test/mutation/bind-shell-script.test.ts"],
  // Class 1: the binder's proof: the launcher walk and the shell reader's roles.
  "src/runtime/exec/launchers.ts": ["test/mutation/launchers.test.ts", "test/mutation/launchers-grammar.test.ts", "test/mutation/launchers-trace.test.ts"],
  "src/runtime/exec/shell-context.ts": ["test/mutation/shell-context.test.ts", "test/mutation/shell-context-roles.test.ts", "test/mutation/shell-context-carried.test.ts", "test/mutation/shell-carried-uses.test.ts"],
  "src/runtime/exec/data-commands.ts": ["test/mutation/data-commands.test.ts", "test/mutation/shell-context.test.ts"],
  "src/runtime/exec/shell-options.ts": ["test/mutation/shell-options.test.ts"],
  "src/runtime/exec/shell-lexer.ts": ["test/mutation/shell-lexer.test.ts", "test/mutation/shell-context.test.ts", "test/mutation/shell-context-roles.test.ts", "test/mutation/shell-context-carried.test.ts", "test/mutation/shell-carried-uses.test.ts"],
  // Class 1: the value channels: a caller's value sealed whole, the channels put back and checked, paths by content.
  "src/runtime/exec/seal-values.ts": ["test/mutation/seal-values.test.ts", "test/mutation/value-channels.test.ts"],
  "src/runtime/exec/value-channels.ts": ["test/mutation/value-channels.test.ts", "test/mutation/seal-values.test.ts"],
  "src/runtime/exec/path-values.ts": ["test/mutation/value-channels.test.ts", "test/mutation/spliced-args.test.ts"],
  // Class 4: hook conditions' regexes, matched in linear time.
  "src/runtime/context/linear-regex.ts": ["test/mutation/linear-regex.test.ts"],
  // Class 2: rye's bookkeeping is believed only when sealed.
  "src/cache/bookkeeping-seal.ts": ["test/mutation/bookkeeping-seal.test.ts", "test/mutation/bookkeeping-seal-exact.test.ts"],
  // Class 5: freshness of verified output and the trusted keys' lifecycle.
  "src/verify/freshness.ts": ["test/mutation/freshness.test.ts", "test/security/freshness-api.test.ts"],
  "src/sign/key-lifecycle.ts": ["test/mutation/key-lifecycle.test.ts", "test/sign/key-lifecycle.test.ts"],
  // Class 3: the load-path hooks' pure parts.
  "src/register/module-format.ts": ["test/mutation/load-path-parts.test.ts"],
  "src/register/resolve-request.ts": ["test/mutation/load-path-parts.test.ts"],
  "src/register/import-specifiers.ts": ["test/mutation/load-path-parts.test.ts"],
  // Class 3: code a module runner or the Function constructors evaluate, named by an output file.
  "src/register/evaluated-file.ts": ["test/security/runner-guard-parts.test.ts"],
  "src/register/runner-verified.ts": ["test/security/runner-guard-parts.test.ts"],
};

const picked = process.argv.slice(2);
const files = picked.length > 0 ? picked : Object.keys(TARGETS);
for (const f of files) if (!TARGETS[f]) throw new Error(`not a mutation target: ${f} (targets: ${Object.keys(TARGETS).join(", ")})`);

// The sandbox lives under .stryker-tmp/, so `../shared` is no longer beside the repository.
const shared = process.env.RYE_SHARED_DIR ?? resolve(root, "..", "shared");
const rows = [];
for (const file of files) {
  const tests = process.env.RYE_MUTATION_TESTS ?? TARGETS[file].filter((t) => existsSync(resolve(root, t))).join(",");
  const env = { ...process.env, RYE_MUTATE_FILE: file, RYE_MUTATION_TESTS: tests, RYE_SHARED_DIR: shared };
  const run = spawnSync("npx", ["stryker", "run", "stryker.config.mjs"], { cwd: root, env, stdio: "inherit" });
  if (run.status !== 0) {
    rows.push({ file, score: NaN, killed: 0, survived: 0, noCoverage: 0, timeout: 0 });
    continue;
  }
  rows.push(score(file));
}

console.log("\nfile                                   score   killed  timeout  survived  no-coverage");
for (const r of rows) {
  console.log(`${r.file.padEnd(38)} ${Number.isNaN(r.score) ? "  error" : `${r.score.toFixed(1).padStart(5)} %`}  ${String(r.killed).padStart(6)}  ${String(r.timeout).padStart(7)}  ${String(r.survived).padStart(8)}  ${String(r.noCoverage).padStart(11)}`);
}
// The table as data, for CI's summary line (.ci/summarize.mjs counts each file as a test).
mkdirSync(resolve(root, "reports/mutation"), { recursive: true });
writeFileSync(resolve(root, "reports/mutation/summary.json"), `${JSON.stringify({ minScore: MIN_SCORE, rows }, null, 2)}\n`);
process.exit(rows.every((r) => r.score >= MIN_SCORE) ? 0 : 1);

/** The score as Stryker defines it: detected (killed + timed out) over valid mutants. */
function score(file) {
  const name = file.replace(/^src\//, "").replace(/\.ts$/, "").replace(/\//g, "-");
  const report = JSON.parse(readFileSync(resolve(root, "reports/mutation", `${name}.json`), "utf8"));
  const count = { Killed: 0, Survived: 0, NoCoverage: 0, Timeout: 0 };
  for (const f of Object.values(report.files)) for (const m of f.mutants) if (m.status in count) count[m.status]++;
  const valid = count.Killed + count.Survived + count.NoCoverage + count.Timeout;
  return { file, score: valid ? ((count.Killed + count.Timeout) / valid) * 100 : 100, killed: count.Killed, survived: count.Survived, noCoverage: count.NoCoverage, timeout: count.Timeout };
}
