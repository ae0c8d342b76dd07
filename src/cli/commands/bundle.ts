import { createRequire } from "node:module";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { bundleEntrySource } from "../../bundle/bundle-entry.js";
import { VERSION } from "../../version.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";
import { run as runBuild } from "./build.js";
import { readSpaces, spacesFrom } from "../../project/read-spaces.js";
import { signText } from "../../builder/signing.js";
import { locateProject } from "../../builder/load-project.js";

const USAGE = `Usage: rye bundle [--project DIR] [--out DIR] [build options…]

Builds the project, then writes DIR/out/bundle.mjs: every compiled item and the runtime in one
ES module that plain node runs without sources, TypeScript or network:
  node out/bundle.mjs directive <id> --inputs '{"name": "x"}' [--thread] [--model M]
  node out/bundle.mjs list
DIR is found as rye build finds it. --watch is a usage error: the bundle is signed as a whole, so
run rye build --watch while editing and rye bundle when you need the bundle.`;

/** `rye bundle`: build, then bundle `out/` into one self-contained module with esbuild. */
export async function run(args: string[], io: Io): Promise<number> {
  // Build flags pass through to `rye build`, which checks them.
  const values = parseCommandArgs(args, { project: { type: "string" }, out: { type: "string" }, "allow-unsigned": { type: "boolean" }, watch: { type: "boolean" }, "user-space": { type: "string" } }, USAGE, io, false);
  if (typeof values === "number") return values;
  if (values.watch) {
    io.stderr.write("rye bundle: --watch is not supported: run rye build --watch while editing, and rye bundle when you need the bundle\n");
    return 2;
  }
  const built = await runBuild(args, io);
  if (built !== 0) return built;
  // rye build found the project this way and accepted it.
  const found = locateProject({ project: typeof values.project === "string" ? values.project : undefined, userSpace: typeof values["user-space"] === "string" ? values["user-space"] : undefined, cwd: io.cwd, env: io.env });
  if ("problem" in found) return 2;
  const project = found.root;
  const outDir = resolve(project, typeof values.out === "string" ? values.out : "out");
  const entry = join(outDir, ".bundle-entry.mjs");
  const outfile = join(outDir, "bundle.mjs");
  writeFileSync(entry, bundleEntrySource(VERSION));
  // esbuild is loaded only here: no other command pays for it.
  const require = createRequire(import.meta.url);
  const esbuild = require("esbuild") as typeof import("esbuild");
  // Tools spawn through execa: resolve it from this CLI's own install so the bundle carries it,
  // whatever the project has (or lacks) in node_modules.
  const nodePaths = require.resolve.paths("execa") ?? [];
  try {
    esbuild.buildSync({ entryPoints: [entry], bundle: true, format: "esm", platform: "node", target: "node20", outfile, legalComments: "none", logLevel: "silent", nodePaths,
      // execa's CommonJS dependencies call require(), which an ES module only has when given one.
      banner: { js: 'import { createRequire as __ryeRequire } from "node:module"; const require = __ryeRequire(import.meta.url);' } });
  } catch (e) {
    io.stderr.write(`Bundling failed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    rmSync(entry, { force: true });
  }
  if (!values["allow-unsigned"]) {
    // The bundle is signed as a whole: every module inside checks this one file on first use.
    const { sources } = readSpaces(spacesFrom(project, values as never, io.cwd, io.env));
    writeFileSync(outfile, signText(readFileSync(outfile, "utf8"), sources, io));
  }
  io.stdout.write(`Bundled ${relative(io.cwd, outfile) || outfile}: run it with node ${relative(io.cwd, outfile) || outfile} directive <id> --inputs '{…}'\n`);
  return 0;
}
