// `verify_deps` (rye-reference.md "Anchor behaviour"): before the spawn, walk the runtime's scope and
// verify every file with a listed extension, so a module planted beside a tool (Python puts the
// script's folder first on sys.path, Node resolves `./helper.js` from it) cannot run unsigned. The
// walk never follows a link: a link whose target lies outside the scope is refused (the original's
// "symlink escape"), one inside it is verified as the file it points to.
import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { readRegularFile } from "../read-file.js";
import { dirname, extname, join, relative, resolve, sep } from "node:path";

/** One file of the scope, as the verifier checks it. */
export interface DepFile {
  absolutePath: string;
  text: string;
}

/** The scope and filters of a walk, read from a runtime's `verify_deps` block. */
export interface DepsScope {
  root: string;
  recursive: boolean;
  /** Lower-case extensions with their dot; an empty list takes every file. */
  extensions: string[];
  excludeDirs: string[];
  /** Only this file (scope `tool_file`). */
  only?: string;
}

const DEFAULT_EXTENSIONS = [".py", ".yaml", ".yml", ".json"];
const DEFAULT_EXCLUDES = ["__pycache__", ".venv", "node_modules", ".git"];

const strings = (v: unknown): string[] | null => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : null);

/** Whether a `verify_deps` block asks for verification (`enabled` missing counts as on, as in the reference runtimes' docs). */
export function depsEnabled(settings: Readonly<Record<string, unknown>> | null | undefined): boolean {
  return settings !== null && settings !== undefined && typeof settings === "object" && settings.enabled !== false && settings.enabled !== null;
}

/** The walk a `verify_deps` block describes, against the run's path context. */
export function depsScope(settings: Readonly<Record<string, unknown>>, ctx: Readonly<Record<string, string | undefined>>): DepsScope {
  const scope = typeof settings.scope === "string" ? settings.scope : "anchor";
  const toolDir = ctx.tool_dir ?? "";
  const base = {
    recursive: settings.recursive !== false,
    extensions: (strings(settings.extensions) ?? DEFAULT_EXTENSIONS).map((e) => e.toLowerCase()),
    excludeDirs: strings(settings.exclude_dirs) ?? DEFAULT_EXCLUDES,
  };
  if (scope === "tool_dir") return { root: toolDir, ...base };
  if (scope === "tool_siblings") return { root: toolDir, ...base, recursive: false };
  if (scope === "tool_file") return { root: toolDir, ...base, recursive: false, only: ctx.tool_path };
  // `anchor` (and any scope rye does not know: the widest one it does).
  return { root: ctx.anchor_path || toolDir, ...base };
}

const inside = (path: string, root: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * Every file of the scope that must verify, in a stable order; throws naming a link that leaves the
 * scope (or leads nowhere). Files in `skip` (absolute paths, e.g. the chain's own files, which are
 * re-hashed against the plan) are left out.
 */
export function depsFiles(scope: DepsScope, skip: ReadonlySet<string> = new Set()): string[] {
  if (!scope.root) return [];
  const root = resolve(scope.root);
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return [];
  }
  const wanted = (name: string) => scope.extensions.length === 0 || scope.extensions.includes(extname(name).toLowerCase());
  const found: string[] = [];
  const visit = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(path);
        } catch {
          throw new Error(`Dependency verification failed: ${path} is a link that leads nowhere`);
        }
        if (!inside(target, realRoot)) throw new Error(`Dependency verification failed: symlink escape: ${path} points outside ${root} (to ${target})`);
        // A link inside the scope: its target is walked (or verified) where it lies; the file itself is checked here too.
        if (statSync(target).isFile() && wanted(e.name) && !skip.has(path)) found.push(path);
        continue;
      }
      if (e.isDirectory()) {
        if (scope.recursive && !scope.excludeDirs.includes(e.name)) visit(path);
      } else if (e.isFile() && wanted(e.name) && !skip.has(path)) {
        found.push(path);
      }
    }
  };
  if (scope.only !== undefined) {
    const only = resolve(scope.only);
    return lstatSync(only, { throwIfNoEntry: false })?.isFile() && !skip.has(only) && inside(dirname(only), root) ? [only] : [];
  }
  visit(root);
  return found;
}

/**
 * Walks the scope and hands each file to `verify` (which throws to refuse); the first refusal
 * becomes an error naming the file relative to the scope.
 */
export function verifyDeps(scope: DepsScope, verify: (file: DepFile) => void, skip: ReadonlySet<string> = new Set()): void {
  for (const absolutePath of depsFiles(scope, skip)) {
    try {
      verify({ absolutePath, text: readRegularFile(absolutePath) });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new Error(`Dependency verification failed for ${relative(scope.root, absolutePath) || absolutePath} (in ${scope.root}): ${why}`);
    }
  }
}
