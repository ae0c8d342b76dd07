#!/usr/bin/env node
// Entry point. `npm run build` (run by `npm ci` and `npm pack` via `prepare`) compiles the CLI to
// dist/ and bundles it into dist/cli-bundle/ (scripts/bundle-cli.mjs), which loads far faster than
// dist/'s modules one by one; without the bundle (a dist/ built by tsc alone) those are used.
const { main, tuneForLongRun } = await import("../dist/cli-bundle/main.mjs").catch((e) => {
  if (e?.code === "ERR_MODULE_NOT_FOUND" && String(e.message).includes("cli-bundle")) return import("../dist/cli/main.js");
  throw e;
});

// V8's tier-up budget (src/cli/v8-budget.ts): `--version` runs nothing worth tuning, and `rye build`
// raises it itself once it knows it has something to build.
if (!["--version", "-v", "build"].includes(process.argv[2])) tuneForLongRun();

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
});
