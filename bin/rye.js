#!/usr/bin/env node
// Entry point. `npm run build` (run by `npm ci` and `npm pack` via `prepare`) compiles the CLI to
// dist/ and bundles it into dist/cli-bundle/ (scripts/bundle-cli.mjs), which loads far faster than
// dist/'s modules one by one; without the bundle (a dist/ built by tsc alone) those are used.
// Most runs of the CLI last well under a second: V8's optimizing compiler, started at its default
// budget, spends more (on background threads, on the same few cores) than it saves there. Eight
// times the default budget leaves it to the code that stays hot in long builds (docs/performance.md).
// `--version` runs no code worth tuning and skips loading node:v8.
if (process.argv[2] !== "--version" && process.argv[2] !== "-v") (await import("node:v8")).setFlagsFromString("--interrupt-budget=540672");

const { main } = await import("../dist/cli-bundle/main.mjs").catch((e) => {
  if (e?.code === "ERR_MODULE_NOT_FOUND" && String(e.message).includes("cli-bundle")) return import("../dist/cli/main.js");
  throw e;
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
});
