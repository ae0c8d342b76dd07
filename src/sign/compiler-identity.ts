/**
 * What, besides the sources, decides the bytes of an output (decisions.md #26): the compiler that
 * made it and the options it was given. Both are signed into the root manifest, so that
 * `rye verify --current` can refuse output of an older (or newer) compiler made from the very
 * sources the project holds now: the version string alone is the same for every build of a
 * release line, so it cannot tell a compiler with a security fix from one without.
 *
 * The identity is made from content only (paths relative to the package, sha256 of the bytes), so
 * the same installed compiler has the same identity on every machine:
 *   - `code`: the compiled package's code (the bundled CLI, else dist/'s modules), which is what
 *     turns sources into output;
 *   - `runtime`: the runtime tree copied into every output (out/runtime/), as emitted.
 * When the compiler runs from its TypeScript sources (tests), the compiled package beside them is
 * the one hashed, as it is the one whose runtime is copied (src/output/runtime-files.ts).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { declarationMapFor } from "../emit/declaration-map.js";
import { runtimeFiles } from "../output/runtime-files.js";
import { sha256Hex } from "./hash-region.js";
import { VERSION } from "../version.js";

/** The compiler that made an output. */
export interface CompilerIdentity {
  /** The package version (the same for every build of a release). */
  version: string;
  /** sha256 over the compiled package's code (path and sha256 of each file). */
  code: string;
  /** sha256 over the runtime tree the output carries (path and sha256 of each file). */
  runtime: string;
}

/** The build options that change the bytes of an output folder. */
export interface OutputOptions {
  /** `--emit-ts`: TypeScript sources beside the modules (out/ts/). */
  emitTs: boolean;
  /** The project's root as seen from the output folder, written into index.d.ts's declaration map; null when out/ is outside the project. */
  sourceRoot: string | null;
}

/** The options a build from `project` into `outDir` signs. */
export function outputOptions(project: string, outDir: string, emitTs: boolean | undefined): OutputOptions {
  return { emitTs: emitTs === true, sourceRoot: declarationMapFor(project, outDir)?.sourceRoot ?? null };
}

/** The identity of the compiler running in this process, hashed once (the code running is what was loaded at start). */
export function compilerIdentity(): CompilerIdentity {
  return (ofThisProcess ??= { version: VERSION, code: codeHash(packageRoot()), runtime: treeHash(runtimeFiles()) });
}

let ofThisProcess: CompilerIdentity | undefined;

/** sha256 over `path NUL sha256(bytes)` lines of a tree, in path order: the same bytes give the same hash anywhere. */
export function treeHash(files: ReadonlyMap<string, string | Uint8Array>): string {
  const lines = [...files].map(([path, bytes]) => `${path}\0${sha256Hex(bytes)}\n`).sort();
  return sha256Hex(lines.join(""));
}

/** The compiled package: dist/ beside this module (a build or the bundled CLI), else the dist/ of the sources' checkout. */
function packageRoot(): string {
  const candidates = [new URL("../", import.meta.url), new URL("../../dist/", import.meta.url)].map((u) => fileURLToPath(u));
  const dir = candidates.find((p) => existsSync(join(p, "runtime", "directive.js")));
  if (!dir) throw new Error("compiled compiler not found: run `npm run build` first");
  return dir;
}

/**
 * The code of the compiled package. The bundled CLI (dist/cli-bundle/, made from the same sources
 * by the same `npm run build` as dist/'s modules) stands for the package when it is there: it is
 * a fifth of the files, and reading files, not hashing them, is what this costs. Without it, every
 * `.js` module of dist/ but the runtime (whose tree is hashed as emitted).
 */
function codeHash(root: string): string {
  const bundle = join(root, "cli-bundle");
  const dir = existsSync(join(bundle, "main.mjs")) ? bundle : root;
  const files = new Map<string, Uint8Array>();
  // The compiler's own files, read to hash them: not a project's, so not through the project reader.
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !/\.m?js$/.test(e.name)) continue;
    const rel = join(e.parentPath, e.name).slice(root.length).split("\\").join("/");
    if (rel.startsWith("runtime/")) continue;
    files.set(rel, readFileSync(join(e.parentPath, e.name)));
  }
  return treeHash(files);
}

/** How two identities differ, in words (empty when they are the same). */
export function compilerDifferences(built: CompilerIdentity, now: CompilerIdentity): string[] {
  const out: string[] = [];
  if (built.version !== now.version) out.push(`compiler version: ${built.version} when built, ${now.version} installed now`);
  if (built.code !== now.code) out.push(`compiler code: sha256 ${built.code} when built, ${now.code} installed now`);
  if (built.runtime !== now.runtime) out.push(`runtime carried in the output: sha256 ${built.runtime} when built, ${now.runtime} from the compiler installed now`);
  return out;
}

/** How two option sets differ, in words (empty when they are the same). */
export function optionDifferences(built: OutputOptions, now: OutputOptions): string[] {
  const out: string[] = [];
  if (built.emitTs !== now.emitTs) out.push(`option --emit-ts: ${built.emitTs ? "on" : "off"} when built, ${now.emitTs ? "on" : "off"} now`);
  if (built.sourceRoot !== now.sourceRoot) out.push(`output folder's place in the project (declaration map source root): ${JSON.stringify(built.sourceRoot)} when built, ${JSON.stringify(now.sourceRoot)} now`);
  return out;
}
