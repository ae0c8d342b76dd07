/**
 * Whether an npm package, or any package it depends on, holds build output anywhere in its files.
 *
 * A dependency a bundle leaves external is loaded where the bundle runs, by plain Node, past every
 * plugin's load hook: whatever output it reaches then runs unverified. Which of its files get loaded
 * is not one resolution's answer (an entry that re-exports `./out/index.js`, `exports` whose `import`
 * and `require` conditions differ, a deep import, a package it depends on), so the question is asked
 * of the package's files: an output folder anywhere in the package, or in a package it declares as a
 * dependency, makes it one the bundle may not leave external.
 */
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { IntegrityError } from "../verify/integrity-error.js";
import { readRegularText } from "../project/read-regular.js";
import type { OutputGuard } from "../verify/output-guard.js";

const DEPENDENCY_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"] as const;

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** The folder of package `name` as Node finds it from `dir` (a `node_modules` folder of `dir` or an ancestor), links resolved. */
export function packageFolderFrom(dir: string, name: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (basename(d) !== "node_modules" && existsSync(join(d, "node_modules", name, "package.json"))) return realOrNull(join(d, "node_modules", name));
    if (dirname(d) === d) return null;
  }
}

/** The package name of a bare specifier (`@scope/name/deep` → `@scope/name`), or null. */
export function packageNameOf(source: string): string | null {
  const m = /^(@[^/]+\/[^/]+|[^./@][^/]*)/.exec(source);
  return m ? m[1]! : null;
}

/** The names a package's package.json declares it depends on. */
function dependenciesOf(dir: string): string[] {
  try {
    const pkg = JSON.parse(readRegularText(join(dir, "package.json"), { kind: "config", link: { links: "follow" } })) as Record<string, unknown>;
    return DEPENDENCY_FIELDS.flatMap((f) => (typeof pkg[f] === "object" && pkg[f] !== null ? Object.keys(pkg[f] as object) : []));
  } catch {
    return [];
  }
}

/** Finds output folders in package folders and the packages they depend on; results are kept per folder. */
export class PackageOutput {
  private readonly inFolder = new Map<string, string | null>();

  constructor(private readonly guard: OutputGuard) {}

  /** The first output folder in the package at `dir` (a real path) or in a package it depends on, or null. */
  of(dir: string): string | null {
    const seen = new Set<string>([dir]);
    const queue = [dir];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const found = this.folderOutput(next);
      if (found !== null) return found;
      for (const name of dependenciesOf(next)) {
        const dep = packageFolderFrom(next, name);
        if (dep !== null && !seen.has(dep)) queue.push(dep), seen.add(dep);
      }
    }
    return null;
  }

  /** An output folder holding `dir`, or anywhere below it (links followed, each real folder once). */
  private folderOutput(dir: string): string | null {
    let known = this.inFolder.get(dir);
    if (known === undefined) this.inFolder.set(dir, (known = this.scan(dir)));
    return known;
  }

  private scan(root: string): string | null {
    const around = this.guard.outputFolderOf(join(root, "package.json"));
    if (around !== null) return around;
    const visited = new Set<string>([root]);
    const stack = [root];
    for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const path = join(dir, e.name);
        if (e.isFile() && e.name === "manifest.json") {
          const folder = this.guard.outputFolderOf(path);
          if (folder !== null) return folder;
        } else if (e.isDirectory() || e.isSymbolicLink()) {
          const real = realOrNull(path);
          if (real === null || visited.has(real)) continue;
          const isDir = e.isDirectory() || isDirectory(real);
          // A link may lead into an output folder from its inside: the folder it lands in is asked too.
          const holding = e.isSymbolicLink() ? this.guard.outputFolderOf(isDir ? join(real, "_") : real) : null;
          if (holding !== null) return holding;
          if (!isDir) continue;
          visited.add(real);
          stack.push(real);
        }
      }
    }
    return null;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** An import a bundle leaves to be resolved where it runs: the emitted file holding it, and the specifier. */
export interface ExternalImport {
  file: string;
  source: string;
}

/** A Rollup or Rolldown output bundle (the part read here). */
type RollupBundle = Record<string, { type: string; fileName: string; imports?: readonly string[]; dynamicImports?: readonly string[] }>;

/** The imports of a Rollup or Rolldown bundle that name no file of the bundle: what it leaves external. */
export function externalsOf(bundle: RollupBundle): ExternalImport[] {
  return Object.values(bundle).flatMap((item) =>
    item.type !== "chunk" ? [] : [...(item.imports ?? []), ...(item.dynamicImports ?? [])].filter((s) => !(s in bundle)).map((source) => ({ file: item.fileName, source })),
  );
}

/**
 * Refuses a bundle that leaves external a package holding build output (in its own files or in a
 * package it depends on): Node loads it where the bundle runs, from `dir` (or the project `root`),
 * with no check at all. Which file of the package is loaded does not matter: it is the package.
 * `fix` names, for the message, how this bundler is told to bundle the package instead.
 */
export function checkExternals(packages: PackageOutput, dir: string, root: string, externals: readonly ExternalImport[], fix: (name: string) => string): void {
  for (const { file, source } of externals) {
    const name = isBuiltin(source) ? null : packageNameOf(source);
    if (name === null) continue;
    for (const from of new Set([resolve(root, dir), root])) {
      const folder = packageFolderFrom(from, name);
      const output = folder === null ? null : packages.of(folder);
      if (output === null) continue;
      throw new IntegrityError(output, `${file} leaves "${source}" external, and its package ${folder} (or a package it depends on) holds build output (${output}): Node would load that output where the bundle runs, without any check, so the build is refused\n  Fix: bundle the dependency (${fix(name)}): every file of it the bundle holds is then verified`);
    }
  }
}
