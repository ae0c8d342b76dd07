/**
 * The source tree a build read, as authenticated metadata of its output (decisions.md #26). The
 * list is one line per source (`<sha256> <space> <path as JSON>`, sorted), plus the hook
 * configuration that changes what directives compile to; its sha256 is the "source-tree hash" the
 * signed root manifest carries, and the list itself is written to out/manifest/sources.txt so that
 * `rye verify --current` can name what changed. The list is made from the sources' bytes and paths
 * relative to their space only, so the same sources give the same bytes on every machine.
 */
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

/** The build's authenticated metadata beyond version and time: its counter, and its source tree (text and sha256). */
export interface BuildMetadata {
  counter: number;
  sources: string;
  list: string;
}

const lineOf = (e: SourceEntry) => `${e.sha256} ${e.space} ${JSON.stringify(e.path)}`;

/** The canonical list text of `entries` (any order). */
export function sourceListText(entries: Iterable<SourceEntry>): string {
  const lines = [...entries].map(lineOf).map((l) => [l.slice(65), l] as const);
  lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return HEADER + lines.map(([, l]) => `${l}\n`).join("");
}

/** The space-relative entries of sources as readSpaces labels them (project paths are relative; others absolute below their root). */
export function sourceEntries<S extends { path: string; space?: string }>(sources: readonly S[], roots: ReadonlyMap<string, string>, hashOf: (s: S) => string, hookConfig?: { path: string; text: string } | null): SourceEntry[] {
  const rel = (space: string, path: string) => {
    const root = roots.get(space);
    const p = root && path.startsWith(root) ? path.slice(root.length).replace(/^[\\/]+/, "") : path;
    return p.split("\\").join("/");
  };
  const entries = sources.map((s) => {
    const space = s.space ?? "project";
    return { space, path: rel(space, s.path), sha256: hashOf(s) };
  });
  if (hookConfig) {
    const space = [...roots].find(([, root]) => hookConfig.path.startsWith(root))?.[0] ?? "config";
    entries.push({ space: `hook-config:${space}`, path: rel(space, hookConfig.path), sha256: sha256Hex(hookConfig.text) });
  }
  return entries;
}

/** RYE_BUILD_COUNTER: a whole number a CI run passes (its run number), else 0. Anything else is an error. */
export function buildCounter(env: NodeJS.ProcessEnv): number {
  const raw = env.RYE_BUILD_COUNTER;
  if (raw === undefined || raw === "") return 0;
  if (!/^\d{1,15}$/.test(raw.trim())) throw new Error(`RYE_BUILD_COUNTER must be a whole number, not ${JSON.stringify(raw)}`);
  return Number(raw.trim());
}

/** The metadata for a build of `entries`. */
export function buildMetadata(entries: Iterable<SourceEntry>, counter: number): BuildMetadata {
  const list = sourceListText(entries);
  return { counter, sources: sha256Hex(list), list };
}

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
