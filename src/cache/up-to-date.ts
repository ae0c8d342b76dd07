// `rye build` when nothing changed, as make and `tsc -b` answer it: from file metadata alone. A
// successful build records the stat of everything it read (every item folder and file of every
// space, the hook config, the signing key, the compiler's own modules and folders) and of out/'s
// folders; the next build that finds all of them unchanged repeats the recorded report without
// reading, hashing or compiling anything (the CLI asks before it even loads the compiler).
// Anything else (a file edited, added, removed or renamed, an output file deleted or added, another
// compiler, key, flag or space) falls through to the incremental build, which is exact.
// What a stat cannot see: an out/ file edited in place. `rye verify` checks every file, so such an
// edit is caught there; deleting `.rye-cache/` forces the full check.
// The stamp lies in the checkout's .rye-cache/: it is believed only when it carries this user's seal
// for this project (bookkeeping-seal.ts); a planted one is no stamp, and the build runs.
import { lstatSync, type Stats, readdirSync, rmSync, statSync } from "node:fs";
import { readRegularText } from "../project/read-regular.js";
import { bookkeepingFor } from "./bookkeeping-secret.js";
import { readSealed, writeSealed } from "./build-cache.js";
import { dirname, join, resolve, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceFile } from "../model/source.js";
import { signingKeyDir } from "../sign/keys.js";
import { VERSION } from "../version.js";
import { compilerFiles, sha256 } from "./build-cache.js";
import { ITEM_DIRS } from "../project/read-project.js";
import { MAX_FOLDER_DEPTH } from "../project/file-kinds.js";
import { spacesInOrder, type Spaces } from "../project/read-spaces.js";
import { frameLines } from "../diagnostics/code-frame.js";
import { factsOf } from "../project/source-facts.js";

const FORMAT = 4;
/** A path and what stat said: size (-1 for a folder, -2 when absent), mtime and inode. */
type Entry = [path: string, size: number, mtimeMs: number, ino: number];
/** Files and folders modified this recently are not trusted: a same-tick change would look unchanged. */
const RACY_MS = 1000;

/** What `rye build` reports; the parts of a build result the stamp repeats. */
export interface StampedResult {
  diagnostics: Diagnostic[];
  compiled: string[];
  directives: number;
}

interface Stamp extends StampedResult {
  format: number;
  key: string;
  inputs: Entry[];
  outputs: Entry[];
  /** The compiler's modules and folders (what its fingerprint hashes), checked by stat like the rest. */
  compiler: Entry[];
  /** For each file a diagnostic cites: its line count and the lines its code frames show. */
  excerpts: Record<string, Excerpt>;
}

/** Enough of a file for the code frames under its diagnostics: the no-op reads no source. */
interface Excerpt {
  count: number;
  lines: Record<number, string>;
}

export interface StampOptions {
  project: string;
  outDir: string;
  spaces: Spaces;
  allowUnsigned?: boolean;
  /** --emit-ts: a build with it writes out/ts/, so a stamp of a build without it does not answer. */
  emitTs?: boolean;
  env: NodeJS.ProcessEnv;
}

const fileOf = (project: string) => join(project, ".rye-cache", "up-to-date.json");

/** Everything other than files that decides what a build writes (the compiler's files are entries). */
function keyOf(o: StampOptions): string {
  const { project, user, systems, maxFileBytes } = o.spaces;
  return sha256(JSON.stringify([FORMAT, VERSION, o.outDir, Boolean(o.allowUnsigned), Boolean(o.emitTs), o.env.SOURCE_DATE_EPOCH ?? null, o.env.RYE_BUILD_COUNTER ?? null, signingKeyDir(o.env), project, user, systems, maxFileBytes ?? null]));
}

function toEntry(path: string, st: Stats | undefined): Entry {
  return st ? [path, st.isDirectory() ? -1 : st.size, st.mtimeMs, st.ino] : [path, -2, 0, 0];
}

const entry = (path: string) => toEntry(path, statSync(path, { throwIfNoEntry: false }));

/** The size of an entry whose stat the build's own read takes (see `beginStamp`), until it has. */
const DEFERRED = -3;

/**
 * Item files whose stat the build takes as it opens them, by the path it opens them at (the item
 * folder resolved, then the names walked): the entry each fills in.
 */
type Deferred = Map<string, number>;

/**
 * The stat of every folder and file a build of these spaces reads (following symlinks, as reading
 * does), or null when a stat alone cannot tell (a symlink loop, an unreadable entry): no stamp then.
 * An item file listed as a plain file with an extension its kind reads gets a DEFERRED entry
 * instead, recorded in `deferred`.
 */
function snapshotInputs(o: StampOptions, deferred: Deferred): Entry[] | null {
  const out: Entry[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, exts: readonly string[], depth: number): boolean => {
    const st = statSync(dir, { throwIfNoEntry: false });
    out.push(toEntry(dir, st));
    // The read does not enter a folder past the depth limit (it reports it), so nothing in it counts.
    if (!st?.isDirectory() || depth > MAX_FOLDER_DEPTH) return true;
    const id = `${st.dev}:${st.ino}`;
    if (seen.has(id)) return false;
    seen.add(id);
    const resolved = resolve(dir);
    for (const e of readdirSync(dir, { withFileTypes: true }).sort(byName)) {
      // `dir` is normalised and a listed name is one component: join(dir, name) without normalising again.
      const path = `${dir}${sep}${e.name}`;
      if (e.isFile() && exts.some((x) => e.name.endsWith(x))) {
        deferred.set(`${resolved}${sep}${e.name}`, out.length);
        out.push([path, DEFERRED, 0, 0]);
      } else if (!walk(path, exts, depth + 1)) return false;
    }
    return true;
  };
  try {
    for (const [, root] of spacesInOrder(o.spaces)) {
      const ai = join(root, ".ai");
      out.push(entry(ai), entry(join(ai, "config")), entry(join(ai, "config", "agent")), entry(join(ai, "config", "agent", "hook_conditions.yaml")));
      for (const { dir, exts } of Object.values(ITEM_DIRS)) if (!walk(join(ai, dir), exts, 0)) return null;
    }
    const keys = signingKeyDir(o.env);
    out.push(entry(join(keys, "private_key.pem")), entry(join(keys, "public_key.pem")));
    return out;
  } catch {
    return null;
  }
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * `inputs` with each DEFERRED entry filled in from the stat the build's read took of its file
 * (`factsOf`), or null when one was not read that way (a file the build refused, a source whose
 * text was replaced): no stamp then.
 */
function withReadStats(inputs: Entry[], deferred: Deferred, sources: readonly SourceFile[]): Entry[] | null {
  const filled = [...inputs];
  let left = deferred.size;
  for (const src of sources) {
    const read = factsOf(src);
    const at = read && deferred.get(read.file);
    if (at === undefined || filled[at]![1] !== DEFERRED) continue;
    filled[at] = [filled[at]![0], read!.size, read!.mtimeMs, read!.ino];
    left--;
  }
  return left === 0 ? filled : null;
}

const same = (a: Entry, b: Entry) => a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
const unchanged = (entries: Entry[]) => {
  try {
    return entries.every((e) => same(e, entry(e[0])));
  } catch {
    return false;
  }
};

/** The stamp a caller found stale and said it will build next: that build need not read it again. */
let staleSeen: string | undefined;

/**
 * The recorded report when nothing a build reads or writes moved since the last successful build,
 * with the sources its diagnostics cite (for code frames); null otherwise. With `buildingOnMiss`,
 * a miss is remembered so that the next call for this project (the build that follows) answers
 * null at once; a miss is always a safe answer, as the build after it is exact.
 */
export function upToDate(o: StampOptions, buildingOnMiss = false): (StampedResult & { sources: SourceFile[] }) | null {
  const file = fileOf(o.project);
  if (staleSeen === file) {
    staleSeen = undefined;
    return null;
  }
  const hit = readStamp(o, file);
  if (!hit && buildingOnMiss) staleSeen = file;
  return hit;
}

function readStamp(o: StampOptions, file: string): (StampedResult & { sources: SourceFile[] }) | null {
  let stamp: Stamp;
  try {
    const text = readSealed(file, "up-to-date", bookkeepingFor(o.project, o.env));
    if (text === null) return null;
    stamp = JSON.parse(text) as Stamp;
  } catch {
    return null;
  }
  if (stamp.format !== FORMAT || stamp.key !== keyOf(o)) return null;
  if (!unchanged(stamp.compiler) || !unchanged(stamp.outputs) || !unchanged(stamp.inputs)) return null;
  const cited = [...new Set(stamp.diagnostics.map((d) => d.loc?.source).filter((s): s is string => s !== undefined))];
  const sources: SourceFile[] = [];
  for (const path of cited) {
    const excerpt = stamp.excerpts[path];
    try {
      // The stat check above vouches that the file still holds the lines recorded with the stamp.
      const text = excerpt ? Array.from({ length: excerpt.count }, (_, i) => excerpt.lines[i + 1] ?? "").join("\n") : readRegularText(resolve(o.project, path), { kind: "source", link: { links: "follow" } });
      sources.push({ kind: "directive", id: "", path, text });
    } catch {
      // A cited file is gone only if the stat check above raced with its removal: no frame for it.
    }
  }
  return { diagnostics: stamp.diagnostics, compiled: stamp.compiled, directives: stamp.directives, sources };
}

/**
 * Starts a stamp before a build reads anything (so a change made while it runs makes the stamp
 * stale, never wrong) and removes the old one; `save` records it once the build has committed.
 * The item files the build reads are not stat-ed here: the build's read takes each one's stat from
 * the open file just before reading it (`SourceFacts`), which is as early for that file and saves
 * a stat per item before any thread compiles. `save` must be given the sources that read made.
 */
export function beginStamp(o: StampOptions): {
  save(result: StampedResult & { sources?: readonly SourceFile[] }, outputs: Iterable<string>): void;
  /**
   * How many files the spaces hold and the largest one's size in bytes (Infinity when some are
   * only stat-ed as the build reads them), from the walk taken here; null when none was.
   */
  files: { count: number; largest: number } | null;
} {
  const path = fileOf(o.project);
  const book = bookkeepingFor(o.project, o.env);
  try {
    // Never through a link in .rye-cache's place.
    if (lstatSync(dirname(path), { throwIfNoEntry: false })?.isDirectory()) rmSync(path, { force: true });
  } catch {
    // An unwritable cache folder: save() fails the same way and no stamp is ever trusted from it.
  }
  const started = Date.now();
  const key = keyOf(o);
  const deferred: Deferred = new Map();
  const inputs = snapshotInputs(o, deferred);
  const { dirs, files } = compilerFiles();
  const compiler = [...dirs, ...files].map(entry);
  const write = (result: StampedResult & { sources?: readonly SourceFile[] }, outputs: Iterable<string>, inputs: Entry[]) => {
    // Folders by their path under out/ first: most of 21k outputs share a few hundred folders.
    const folders = new Set<string>();
    for (const rel of outputs) for (let d = dirname(rel); d !== "." && !folders.has(d); d = dirname(d)) folders.add(d);
    const dirs = [o.outDir, ...[...folders].map((d) => join(o.outDir, d))];
    const out = dirs.sort().map(entry);
    const newest = (es: Entry[]) => es.reduce((m, e) => Math.max(m, e[2]), 0);
    if (newest(inputs) > started - RACY_MS || newest(compiler) > started - RACY_MS || newest(out) > Date.now() - RACY_MS) return;
    const excerpts = excerptsOf(result.diagnostics, result.sources ?? []);
    const stamp: Stamp = { format: FORMAT, key, inputs, outputs: out, compiler, excerpts, diagnostics: result.diagnostics, compiled: result.compiled, directives: result.directives };
    writeSealed(path, "up-to-date", book, JSON.stringify(stamp));
  };
  return {
    files: inputs && sizes(inputs),
    save(result, outputs) {
      if (!inputs || result.diagnostics.some((d) => d.severity === "error")) return;
      const read = withReadStats(inputs, deferred, result.sources ?? []);
      if (!read) return;
      try {
        write(result, outputs, read);
      } catch {
        // Only an optimisation: without a stamp the next build checks everything.
      }
    },
  };
}

/** How many of `entries` are files, and the largest one's size (Infinity when one is DEFERRED). */
function sizes(entries: readonly Entry[]): { count: number; largest: number } {
  let count = 0;
  let largest = 0;
  for (const e of entries) if (e[1] >= 0 || e[1] === DEFERRED) (count++, (largest = Math.max(largest, e[1] === DEFERRED ? Infinity : e[1])));
  return { count, largest };
}

/** The lines each diagnostic's code frame shows (its line and the ones around it), file by file. */
function excerptsOf(diagnostics: readonly Diagnostic[], sources: readonly SourceFile[]): Record<string, Excerpt> {
  const cited = new Set(diagnostics.map((d) => d.loc?.source));
  // As the report prints them: line endings normalised first (src/cli/commands/build-report.ts).
  const lines = new Map(sources.filter((s) => cited.has(s.path)).map((s) => [s.path, frameLines(s.text)]));
  const excerpts: Record<string, Excerpt> = {};
  for (const d of diagnostics) {
    const all = d.loc ? lines.get(d.loc.source) : undefined;
    if (!d.loc || !all) continue;
    const excerpt = (excerpts[d.loc.source] ??= { count: all.length, lines: {} });
    for (let n = Math.max(d.loc.start.line - 1, 1); n <= Math.min(d.loc.start.line + 1, all.length); n++) excerpt.lines[n] = all[n - 1]!;
  }
  return excerpts;
}
