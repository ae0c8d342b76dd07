import { createRequire, isBuiltin } from "node:module";
import { fileURLToPath } from "node:url";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { bundleEntrySource } from "../../bundle/bundle-entry.js";
import { VERSION } from "../../version.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";
import { run as runBuild } from "./build.js";
import { readSpaces, spacesFrom } from "../../project/read-spaces.js";
import { signBundle, signingKey } from "../../builder/signing.js";
import { verifyOwnOutput } from "../../verify/verify-own-output.js";
import { locateProject } from "../../builder/load-project.js";
import { resolveSettings } from "../../project/settings.js";
import { bundleMetadataLine } from "../../sign/bundle-metadata.js";
import { buildProvenanceOf } from "../../runtime/provenance.js";
import type { Manifest } from "../../sign/sign-manifest.js";

const USAGE = `Usage: rye bundle [--project DIR] [--out DIR] [build options…]

Builds the project, then writes DIR/out/bundle.mjs: every compiled item and the runtime in one
ES module that plain node runs without sources, TypeScript or network, and DIR/out/bundle.mjs.sig,
a detached Ed25519 signature over it (openssl pkeyutl -verify -rawin checks it). rye run verifies
the bundle before running it; a direct \`node out/bundle.mjs\` trusts the file as it is:
  rye run out/bundle.mjs directive <id> --inputs '{"name": "x"}' [--thread] [--model M]
  node out/bundle.mjs list
DIR is found as rye build finds it. --watch is a usage error: the bundle is signed as a whole, so
run rye build --watch while editing and rye bundle when you need the bundle.`;

/**
 * esbuild from beside this CLI (the install that holds rye itself), never from the project being
 * bundled: a checkout's node_modules is input, and code it carries would run with the signing key
 * at hand and shape the bytes that get signed. Null when it is not installed there.
 */
function loadEsbuild(): typeof import("esbuild") | null {
  try {
    return createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  } catch {
    return null;
  }
}

/**
 * Every bare import of the bundle (execa and its dependencies) resolved from this CLI's own install,
 * never by esbuild's walk up from out/ through the checkout's node_modules; relative imports stay
 * inside what they name.
 */
const OWN = Symbol("rye-own-install");

function fromOwnInstall(): import("esbuild").Plugin {
  return {
    name: "rye-own-install",
    setup(build) {
      const ownDir = dirname(fileURLToPath(import.meta.url));
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === OWN || args.path.startsWith("node:") || isBuiltin(args.path)) return undefined;
        // A dependency's own imports resolve from beside it (inside this CLI's install); imports from out/ from this CLI.
        if (args.importer.includes(`${sep}node_modules${sep}`)) return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, resolveDir: ownDir, pluginData: OWN });
        return found.errors.length > 0 ? { errors: found.errors } : { path: found.path, external: found.external };
      });
    },
  };
}

/** `rye bundle`: build, then bundle `out/` into one self-contained module with esbuild. */
export async function run(args: string[], io: Io): Promise<number> {
  // Build flags pass through to `rye build`, which checks them.
  const values = parseCommandArgs(args, { project: { type: "string" }, out: { type: "string" }, "allow-unsigned": { type: "boolean" }, watch: { type: "boolean" }, "user-space": { type: "string" } }, USAGE, io, false);
  if (typeof values === "number") return values;
  if (values.watch) {
    io.stderr.write("rye bundle: --watch is not supported: run rye build --watch while editing, and rye bundle when you need the bundle\n");
    return 2;
  }
  const esbuild = loadEsbuild();
  if (!esbuild) {
    io.stderr.write("rye bundle needs esbuild beside rye-build, which is not installed there: npm install --save-dev esbuild (in the project that holds rye-build)\n");
    return 1;
  }
  const built = await runBuild(args, io);
  if (built !== 0) return built;
  // rye build found the project this way and accepted it.
  const found = locateProject({ project: typeof values.project === "string" ? values.project : undefined, userSpace: typeof values["user-space"] === "string" ? values["user-space"] : undefined, cwd: io.cwd, env: io.env });
  if ("problem" in found) return 2;
  const project = found.root;
  const outDir = resolveSettings(project, { out: typeof values.out === "string" ? values.out : undefined }, io.cwd, io.env).out;
  // The bundle is signed as a whole: what goes into it must be exactly what the build signed.
  const rootFile = join(outDir, "manifest.json");
  const rootBefore = values["allow-unsigned"] ? "" : readFileSync(rootFile, "utf8");
  const refused = values["allow-unsigned"] ? [] : await verifyOwnOutput(outDir, signingKey(io));
  // The header and provenance are copied from the root just verified, never from anything read later.
  const rootText = values["allow-unsigned"] ? "" : readFileSync(rootFile, "utf8");
  if (rootText !== rootBefore) refused.push(`${rootFile} changed while it was verified`);
  if (refused.length > 0) {
    io.stderr.write(`rye bundle: ${relative(io.cwd, outDir) || outDir} does not verify, so it is not bundled:\n${refused.join("\n")}\n`);
    return 1;
  }
  // The build metadata of the output just verified (decisions.md #26), signed with the rest of the bundle.
  const metadata = values["allow-unsigned"] ? "" : `${bundleMetadataLine(JSON.parse(rootText) as Manifest)}\n`;
  const entry = join(outDir, ".bundle-entry.mjs");
  const outfile = join(outDir, "bundle.mjs");
  writeFileSync(entry, bundleEntrySource(VERSION, values["allow-unsigned"] ? null : buildProvenanceOf(rootText)));
  try {
    // Tools spawn through execa, resolved from this CLI's own install (fromOwnInstall) whatever the
    // project has in node_modules; no tsconfig of the project applies (its `paths` would remap imports).
    await esbuild.build({ entryPoints: [entry], bundle: true, format: "esm", platform: "node", target: "node20", outfile, legalComments: "none", logLevel: "silent", plugins: [fromOwnInstall()], tsconfigRaw: "{}",
      // execa's CommonJS dependencies call require(), which an ES module only has when given one.
      // The first line names the file for the loader (a rye bundle, checked on its own signature).
      banner: { js: `// @generated by rye bundle ${VERSION}: do not edit.\n${metadata}import { createRequire as __ryeRequire } from "node:module"; const require = __ryeRequire(import.meta.url);` } });
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
