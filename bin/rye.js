#!/usr/bin/env node
// Entry point: the CLI is compiled to dist/ by `npm run build` (run by `npm ci` via `prepare`).
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
});
