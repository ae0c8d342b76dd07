import { createRequire } from "node:module";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { bundleEntrySource } from "../../bundle/bundle-entry.js";
import { VERSION } from "../../version.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";
import { run as runBuild } from "./build.js";
import { readSpaces, spacesFrom } from "../../project/read-spaces.js";
import { signBundle } from "../../builder/signing.js";

const USAGE = `Usage: rye bundle [--project DIR] [--out DIR] [build options…]

Builds the project, then writes DIR/out/bundle.mjs: every compiled item and the runtime in one
ES module that plain node runs without sources, TypeScript or network, and DIR/out/bundle.mjs.sig,
a detached Ed25519 signature over it (openssl pkeyutl -verify -rawin checks it). rye run verifies
the bundle before running it; a direct \`node out/bundle.mjs\` trusts the file as it is:
  rye run out/bundle.mjs directive <id> --inputs '{"name": "x"}' [--thread] [--model M]
  node out/bundle.mjs list`;

/** `rye bundle`: build, then bundle `out/` into one self-contained module with esbuild. */
export async function run(args: string[], io: Io): Promise<number> {
  // Build flags pass through to `rye build`, which checks them.
  const values = parseCommandArgs(args, { project: { type: "string" }, out: { type: "string" }, "allow-unsigned": { type: "boolean" } }, USAGE, io, false);
  if (typeof values === "number") return values;
  const built = await runBuild(args, io);
  if (built !== 0) return built;
  const project = resolve(io.cwd, typeof values.project === "string" ? values.project : ".");
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
  const shown = relative(io.cwd, outfile) || outfile;
  rmSync(`${outfile}.sig`, { force: true });
  if (!values["allow-unsigned"]) {
    // Signed as a whole, inline and detached: rye run, rye verify, the loader and openssl check it before it runs.
    const { sources } = readSpaces(spacesFrom(project, values as never, io.cwd, io.env));
    const signed = signBundle(readFileSync(outfile, "utf8"), sources, io);
    writeFileSync(outfile, signed.bytes);
    writeFileSync(`${outfile}.sig`, signed.signature);
    io.stdout.write(`Bundled ${shown} (detached signature ${shown}.sig, public key ${signed.publicKeyPath}).\n`);
  } else io.stdout.write(`Bundled ${shown} (NOT signed).\n`);
  io.stdout.write(`Verify and run it with: rye run ${shown} directive <id> --inputs '{…}'\n`);
  return 0;
}
