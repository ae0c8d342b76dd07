/**
 * The source tree a build read, as authenticated metadata of its output (decisions.md #26). The
 * list is one line per source (`<sha256> <space> <path as JSON>`, sorted), plus the hook
 * configuration that changes what directives compile to; its sha256 is the "source-tree hash" the
 * signed root manifest carries, and the list itself is written to out/manifest/sources.txt so that
 * `rye verify --current` can name what changed. The list is made from the sources' bytes and paths
 * relative to their space only, so the same sources give the same bytes on every machine.
 */
import type { CompilerIdentity, OutputOptions } from "./compiler-identity.js";
import { sha256Hex } from "./hash-region.js";

/** Where the list lives in an output folder (a shard is always `.json`, so this never is one). */
export const SOURCES_LIST = "manifest/sources.txt";
const HEADER = "rye-sources 1\n";

/** What the list is made of: the space label, the path relative to the space's root, the sha256 of the bytes. */
export interface SourceEntry {
  space: string;
  path: string;
  sha256: string;
}

/**
 * The build's authenticated metadata beyond time: its counter, its source tree (text and sha256),
 * and what else decides its bytes (the compiler and the output options; this compiler and the
 * default options when absent).
 */
export interface BuildMetadata {
  counter: number;
  sources: string;
  list: string;
  compiler?: CompilerIdentity;
  options?: OutputOptions;
}

/** An entry's line: `<sha256> <space> <path as JSON>`; lines sort by what follows the sha256 (unique per source). */
const lineOf = (e: SourceEntry) => `${e.sha256} ${e.space} ${JSON.stringify(e.path)}`;
const byKey = (a: string, b: string) => {
  const x = a.slice(65);
  const y = b.slice(65);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The list text of lines (any order; sorted in place). Sources arrive nearly sorted, so the sort is ~n comparisons. */
function listOf(lines: string[]): string {
  lines.sort(byKey);
  return lines.length === 0 ? HEADER : `${HEADER}${lines.join("\n")}\n`;
}

/** The canonical list text of `entries` (any order). */
export function sourceListText(entries: Iterable<SourceEntry>): string {
  return listOf([...entries].map(lineOf));
}

// A long-lived process (--watch) rebuilds after each edit: the line of a source object it has seen
// is kept (a source's object is replaced when its file changes), so only edited sources are
// formatted again. At 10k sources, on 2 cores under a load average of ~11: 104 ms per rebuild
// without any of this; 4-8 ms for unchanged sources and ~30 ms for one edited (the join and sha256
// of the 1.2 MB list) with it.
const kept = new WeakMap<object, { roots: ReadonlyMap<string, string>; line: string }>();

/** The space-relative entries of sources as readSpaces labels them (project paths are relative; others absolute below their root). */
export function sourceEntries<S extends { path: string; space?: string }>(sources: readonly S[], roots: ReadonlyMap<string, string>, hashOf: (s: S) => string, hookConfig?: { path: string; text: string } | null): SourceEntry[] {
  const entries = sources.map((s) => {
    const space = s.space ?? "project";
    return { space, path: relativeTo(roots, space, s.path), sha256: hashOf(s) };
  });
  if (hookConfig) entries.push(hookEntry(roots, hookConfig));
  return entries;
}

function relativeTo(roots: ReadonlyMap<string, string>, space: string, path: string): string {
  const root = roots.get(space);
  const p = root && path.startsWith(root) ? path.slice(root.length).replace(/^[\\/]+/, "") : path;
  return p.split("\\").join("/");
}

function hookEntry(roots: ReadonlyMap<string, string>, hookConfig: { path: string; text: string }): SourceEntry {
  const space = [...roots].find(([, root]) => hookConfig.path.startsWith(root))?.[0] ?? "config";
  return { space: `hook-config:${space}`, path: relativeTo(roots, space, hookConfig.path), sha256: sha256Hex(hookConfig.text) };
}

/** The last list sourceListOf made: its lines in input order and sorted, where each key sits, and the text. */
let last: { roots: ReadonlyMap<string, string>; lines: string[]; sorted: string[]; at: Map<string, number>; text: string } | undefined;

/**
 * `sourceListText(sourceEntries(…))`, keeping each source object's line for the next call with the
 * same roots. A rebuild whose sources are the same files (edited or not) patches the last sorted
 * list in place instead of sorting and formatting 10k lines again.
 */
export function sourceListOf<S extends { path: string; space?: string }>(sources: readonly S[], roots: ReadonlyMap<string, string>, hashOf: (s: S) => string, hookConfig?: { path: string; text: string } | null): string {
  const lines = sources.map((s) => {
    const was = kept.get(s);
    if (was && was.roots === roots) return was.line;
    const space = s.space ?? "project";
    const line = lineOf({ space, path: relativeTo(roots, space, s.path), sha256: hashOf(s) });
    kept.set(s, { roots, line });
    return line;
  });
  if (hookConfig) lines.push(lineOf(hookEntry(roots, hookConfig)));
  const patched = last && last.roots === roots ? patch(last, lines) : null;
  if (patched !== null) return patched;
  const sorted = lines.slice().sort(byKey);
  const text = listOf(sorted.slice());
  last = { roots, lines, sorted, at: new Map(sorted.map((l, i) => [l.slice(65), i])), text };
  return text;
}

/** The text for `lines` from the last list when only the sha256 of some of the same files changed; null otherwise. */
function patch(prev: NonNullable<typeof last>, lines: string[]): string | null {
  if (prev.lines.length !== lines.length) return null;
  let sorted: string[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === prev.lines[i]) continue;
    const at = prev.at.get(lines[i]!.slice(65));
    if (at === undefined || prev.lines[i]!.slice(65) !== lines[i]!.slice(65)) return null;
    (sorted ??= prev.sorted.slice())[at] = lines[i]!;
  }
  if (sorted === null) return prev.text;
  const text = `${HEADER}${sorted.join("\n")}\n`;
  last = { ...prev, lines, sorted, text };
  return text;
}

/** RYE_BUILD_COUNTER: a whole number a CI run passes (its run number), else 0. Anything else is an error. */
export function buildCounter(env: NodeJS.ProcessEnv): number {
  const raw = env.RYE_BUILD_COUNTER;
  if (raw === undefined || raw === "") return 0;
  if (!/^\d{1,15}$/.test(raw.trim())) throw new Error(`RYE_BUILD_COUNTER must be a whole number, not ${JSON.stringify(raw)}`);
  return Number(raw.trim());
}

/** The metadata for a build of `entries` (or of a list text already made). */
export function buildMetadata(entries: Iterable<SourceEntry> | string, counter: number): BuildMetadata {
  const list = typeof entries === "string" ? entries : sourceListText(entries);
  // A rebuild that changed no source gets the very text of the last list: its hash is not taken again.
  if (lastHash?.list !== list) lastHash = { list, sha256: sha256Hex(list) };
  return { counter, sources: lastHash.sha256, list };
}

let lastHash: { list: string; sha256: string } | undefined;

/** The entries of a list text (lines that do not parse are skipped: the text's sha256 was checked already). */
export function parseSourceList(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n").slice(1)) {
    const m = /^([a-f0-9]{64}) (\S+) (".*")$/.exec(line);
    if (!m) continue;
    try {
      out.set(`${m[2]} ${JSON.parse(m[3]!) as string}`, m[1]!);
    } catch {
      // not a line this code wrote
    }
  }
  return out;
}

/** What differs between the list the output was built from and the list now: up to `max` lines of words. */
export function describeSourceChanges(built: string, now: string, max = 10): string[] {
  const before = parseSourceList(built);
  const after = parseSourceList(now);
  const changes: string[] = [];
  for (const [k, h] of after) {
    if (!before.has(k)) changes.push(`added since the build: ${k}`);
    else if (before.get(k) !== h) changes.push(`changed since the build: ${k}`);
  }
  for (const k of before.keys()) if (!after.has(k)) changes.push(`removed since the build: ${k}`);
  changes.sort();
  return changes.length > max ? [...changes.slice(0, max), `… and ${changes.length - max} more`] : changes;
}
