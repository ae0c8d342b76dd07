// The incremental build cache: what each project item produced last time, keyed by content hashes
// of the item and of every item its analysis looked up, so an unchanged item is neither parsed nor
// emitted nor signed nor written, and an item whose extends parent, context knowledge or called
// directive changed is rebuilt. Lives in <project>/.rye-cache/build.json (gitignored, safe to delete).
// A checkout can carry a .rye-cache/ of its own ("this module's hash is X" for a module tampered
// with in out/): the cache is used only when it carries this user's seal for this project
// (bookkeeping-seal.ts); any other is an empty cache, so every output file is rebuilt or compared
// byte for byte with what the build makes, and nothing is signed on a record's word alone.
import { createHash } from "node:crypto";
import { sha256Hex } from "../sign/hash-region.js";
import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import type { Bookkeeping, RecordKind } from "./bookkeeping-seal.js";
import { processBookkeeping } from "./bookkeeping-secret.js";
import { readRegular } from "../output/no-follow.js";
import { fileURLToPath } from "node:url";
import type { ItemOutcome } from "../compile/compile-directives.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import { factsOf } from "../project/source-facts.js";

/** Bump when the cache layout changes; older caches are then ignored. */
const FORMAT = 1;

/** One output file as last written: path under out/, sha256 of its text, and what stat said after writing. */
export type FileRecord = [path: string, sha256: string, size: number, mtimeMs: number];

/** What one project item produced, and what it depended on. */
export interface ItemRecord extends ItemOutcome {
  /** Fingerprint of the item's own files (every space) when it was built. */
  self: string;
  /** [kind, id, fingerprint] of every item its analysis looked up. */
  deps: [ItemKind, string, string][];
  files: FileRecord[];
}

export interface CacheData {
  format: number;
  /** Everything outside the items that output depends on: compiler, version, key, timestamp, hook config. */
  global: string;
  /** `${kind}:${id}` → record. */
  items: Record<string, ItemRecord>;
  /** Whole-build files (index, package.json, runtime, manifest, …) as last written. */
  shared: FileRecord[];
}

/** Where the cache of a project lives. */
export function cacheFile(project: string): string {
  return join(project, ".rye-cache", "build.json");
}

/** The project a file of `<project>/.rye-cache/` belongs to: what its seal is bound to. */
const projectOf = (path: string) => resolve(dirname(dirname(path)));

/**
 * The text of a sealed file in a project's .rye-cache/, or null: absent, not a regular file, under
 * a .rye-cache that is not a plain folder, or not sealed by `book` for this kind and project.
 */
export function readSealed(path: string, kind: RecordKind, book: Bookkeeping): string | null {
  if (!book.authenticates || !plainCacheDir(path)) return null;
  return book.open(kind, projectOf(path), readRegular(path));
}

/**
 * Writes a sealed file into .rye-cache/ at once (a fresh temp file, then a rename), never through
 * a link: nothing is written when .rye-cache is not a plain folder or `book` cannot seal.
 */
export function writeSealed(path: string, kind: RecordKind, book: Bookkeeping, text: string): void {
  if (!book.authenticates) return;
  mkdirSync(dirname(path), { recursive: true });
  if (!plainCacheDir(path)) return;
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(tmp, book.seal(kind, projectOf(path), text), { flag: "wx" });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** True when the folder holding `path` is a plain folder (a link in its place is never written through). */
function plainCacheDir(path: string): boolean {
  return lstatSync(dirname(path), { throwIfNoEntry: false })?.isDirectory() === true;
}

/** Reads the cache; an absent, unreadable, foreign or unauthenticated one is an empty cache (a cold build). */
export function loadCache(path: string, global: string, book: Bookkeeping = processBookkeeping()): CacheData {
  const empty: CacheData = { format: FORMAT, global, items: {}, shared: [] };
  try {
    const text = readSealed(path, "build-cache", book);
    if (text === null) return empty;
    const data = JSON.parse(text) as CacheData;
    if (data.format !== FORMAT || data.global !== global || typeof data.items !== "object" || !Array.isArray(data.shared)) return empty;
    return data;
  } catch {
    return empty;
  }
}

/** Writes the cache atomically, so an interrupted build leaves the old cache or none, never half of one. */
export function saveCache(path: string, data: CacheData, book: Bookkeeping = processBookkeeping()): void {
  try {
    writeSealed(path, "build-cache", book, JSON.stringify(data));
  } catch {
    // Only an optimisation (a full disk, a read-only project): without it the next build checks
    // every output file against its hash; a cache that no longer describes out/ must not stay.
    try {
      if (plainCacheDir(path)) rmSync(path, { force: true });
    } catch {
      // A read-only cache folder: the stale cache stays, and its records are checked against out/ anyway.
    }
  }
}

export const itemKey = (kind: ItemKind, id: string) => `${kind}:${id}`;

export function sha256(text: string): string {
  return sha256Hex(text);
}

/**
 * Fingerprints of items across spaces: for a kind and id, a hash over every file of that id in
 * every space (space, path, extension, sha256 of text), so any change to which file wins or to
 * its text changes it. Source hashes are computed once per build and shared with the manifest.
 */
export class Fingerprints {
  /** `kind:id` → the item's files in the order of the sources (a warm rebuild passes this grouping, patched, to the next build). */
  readonly byId: Map<string, SourceFile[]>;
  private readonly memo = new Map<string, string>();
  readonly textHash = new Map<SourceFile, string>();

  /**
   * `known`: path → [text, sha256] from an earlier build of this process, updated as texts are hashed;
   * `earlier`: fingerprints of that build with the files they covered, reused while those are the same objects.
   */
  constructor(
    sources: readonly SourceFile[],
    private readonly known?: Map<string, [string, string]>,
    private readonly earlier?: Map<string, [SourceFile[], string]>,
    grouped?: Map<string, SourceFile[]>,
  ) {
    this.byId = grouped ?? new Map();
    if (grouped) return;
    for (const s of sources) {
      const key = itemKey(s.kind, s.id);
      const list = this.byId.get(key);
      if (list) list.push(s);
      else this.byId.set(key, [s]);
    }
  }

  /** The project's file of the item `kind:id` (the first, as readProject orders them), if it has one. */
  projectSource(key: string): SourceFile | undefined {
    return this.byId.get(key)?.find((s) => (s.space ?? "project") === "project");
  }

  hashOf(src: SourceFile): string {
    let h = this.textHash.get(src);
    if (h !== undefined) return h;
    const read = factsOf(src);
    if (read) {
      this.textHash.set(src, read.sha256);
      return read.sha256;
    }
    const prior = this.known?.get(src.path);
    h = prior && prior[0] === src.text ? prior[1] : sha256(src.text);
    this.known?.set(src.path, [src.text, h]);
    this.textHash.set(src, h);
    return h;
  }

  of(kind: ItemKind, id: string): string {
    const key = itemKey(kind, id);
    let fp = this.memo.get(key);
    if (fp !== undefined) return fp;
    const srcs = this.byId.get(key) ?? [];
    const before = this.earlier?.get(key);
    if (before && before[0].length === srcs.length && before[0].every((s, i) => s === srcs[i])) {
      this.memo.set(key, before[1]);
      return before[1];
    }
    // A tool's text counts too: calls to it are checked against its CONFIG_SCHEMA.
    const parts = srcs.map((s) => `${s.space ?? "project"}\0${s.path}\0${s.ext ?? ""}\0${this.hashOf(s)}`);
    fp = createHash("sha1").update(parts.join("\n")).digest("hex");
    this.memo.set(key, fp);
    this.earlier?.set(key, [srcs, fp]);
    return fp;
  }
}

/**
 * A fingerprint of the compiler itself (size and mtime of every module beside this one), so a
 * rebuilt or upgraded compiler never reuses output of the old one.
 */
export function compilerFingerprint(): string {
  // The code running is what was loaded at start, whatever happens to the files later: once per process.
  return (fingerprintOfThisProcess ??= fingerprintCompiler());
}

let fingerprintOfThisProcess: string | undefined;

function fingerprintCompiler(): string {
  const h = createHash("sha1");
  for (const full of compilerFiles().files) {
    const st = statSync(full);
    h.update(`${full}\0${st.size}\0${st.mtimeMs}\n`);
  }
  return h.digest("hex");
}

/** The compiler's modules (every .js and .mjs file beside this one, and the runtime's declarations, sorted) and the folders holding them. */
export function compilerFiles(): { dirs: string[]; files: string[] } {
  return (compilerFilesOfThisProcess ??= findCompilerFiles());
}

let compilerFilesOfThisProcess: { dirs: string[]; files: string[] } | undefined;

function findCompilerFiles(): { dirs: string[]; files: string[] } {
  const found = { dirs: [] as string[], files: [] as string[] };
  const walk = (dir: string) => {
    found.dirs.push(dir);
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      // Declarations are read by no build but the runtime's, which every build copies to out/.
      else if (/\.m?js$/.test(e.name) || (e.name.endsWith(".ts") && (!e.name.endsWith(".d.ts") || inRuntime(full)))) found.files.push(full);
    }
  };
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  const inRuntime = (file: string) => file.startsWith(join(root, "runtime") + sep);
  walk(root);
  return found;
}

/** The global part of the cache key. */
export function globalKey(parts: Record<string, unknown>): string {
  return sha256(JSON.stringify({ format: FORMAT, ...parts }));
}
