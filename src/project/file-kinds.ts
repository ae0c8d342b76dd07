// What each file under a space's directives/, knowledge/ and tools/ folders is: an item of a kind
// rye reads, a file skipped by a rule (reported as info, shown with `rye build --verbose`), or a
// file of no supported kind (a warning naming the kinds). Nothing there is passed over in silence.
/** The item kinds, as model/source.ts names them (kept literal so this module imports nothing). */
type ItemKind = "directive" | "knowledge" | "tool";

/** Extensions read as items, in probing order (the original's extractors list them in this order). */
export const KIND_EXTS: Record<ItemKind, readonly string[]> = {
  directive: [".md"],
  knowledge: [".md", ".yaml", ".yml"],
  tool: [".py", ".yaml", ".yml", ".js", ".ts", ".mjs", ".cjs", ".sh"],
};

/**
 * Tool extensions the original's tool extractor lists but has no metadata parser for: such a file
 * is never a tool of its own. `.sh` is read all the same (an executor id may name it, which
 * RYE4010 then explains); `.json` and `.toml` are package manifests and data beside a tool.
 */
export const TOOL_SUPPORT_EXTS: readonly string[] = [".json", ".toml"];

/**
 * How many folders deep below directives/, knowledge/ or tools/ an item may lie. Real ids are a few
 * levels deep; the bound keeps a tree of nested empty folders (a few KB in a pull request) from
 * stalling every build, watch and editor that walks it. A deeper folder is an error, not entered.
 */
export const MAX_FOLDER_DEPTH = 32;

/** Why a folder past MAX_FOLDER_DEPTH is not entered (the detail of an RYE8002). */
export const TOO_DEEP = `it lies more than ${MAX_FOLDER_DEPTH} folders below its item folder, the limit on folder depth, so nothing in it is read`;

/** Folders skipped wherever they are: installed packages and Python's bytecode caches hold no items. */
const SKIPPED_FOLDERS = new Map([
  ["node_modules", "node_modules/ holds installed packages, not items"],
  ["__pycache__", "__pycache__/ holds Python's compiled bytecode, not items"],
]);

/** Why a folder holding a CACHEDIR.TAG (the cache directory tagging convention) under tools/ is not entered. */
export const CACHE_FOLDER = "it holds a CACHEDIR.TAG file, which marks a cache (such as Cargo's target/), not items";

/** The kinds a folder reads, as a diagnostic names them. */
export function supportedKinds(kind: ItemKind): string {
  if (kind === "directive") return "directives are .md files";
  if (kind === "knowledge") return "knowledge items are .md, .yaml or .yml files";
  return "tools are .py, .yaml, .yml, .js, .ts, .mjs or .cjs files (and .sh, .json and .toml files beside them are support files)";
}

/**
 * Why a folder inside an item tree is not entered, or null to walk it. Under tools/, hidden folders
 * (`.venv`, `.pytest_cache`) hold a tool's environment; directive and knowledge ids may start with a
 * dot, as in the original, so their hidden folders are read.
 */
export function skippedFolder(kind: ItemKind, name: string): string | null {
  const named = SKIPPED_FOLDERS.get(name);
  if (named) return named;
  if (kind === "tool" && name.startsWith(".")) return "a hidden folder (its name starts with '.') under tools/ holds a tool's environment, not items";
  return null;
}

export type FileVerdict = { read: string } | { skip: string } | { unsupported: string };

/** What a file named `name` (not a folder) inside `kind`'s tree is. */
export function fileVerdict(kind: ItemKind, name: string): FileVerdict {
  const ext = KIND_EXTS[kind].find((e) => name.endsWith(e));
  if (ext) return { read: ext };
  if (kind === "tool") {
    const support = TOOL_SUPPORT_EXTS.find((e) => name.endsWith(e));
    if (support) return { skip: supportReason(support) };
  }
  if (name.startsWith(".")) return { skip: "a hidden file (its name starts with '.') that is no item" };
  const dot = name.lastIndexOf(".");
  return { unsupported: dot > 0 ? `'${name.slice(dot)}' files are no item kind: ${supportedKinds(kind)}` : `a file without an extension is no item: ${supportedKinds(kind)}` };
}

function supportReason(ext: string): string {
  return `rye reads no metadata from ${ext} files (Rye's tool extractor has no parser for them), so such a file is never a tool of its own; a tool's config may still use it`;
}

/** Why a tool file that was read declares no metadata, and so compiles to nothing of its own. */
export function helperReason(ext: string): string {
  if (ext === ".sh") {
    return "rye reads no metadata from .sh files (Rye's tool extractor has no parser for them), so a .sh file is never a tool of its own: run it from a YAML tool of another name whose config names it, e.g. args: [\"{tool_dir}/<script>.sh\"]";
  }
  return "it declares no tool metadata (no executor id, version or tool type), so it is a helper that tools may use, not a tool of its own";
}
