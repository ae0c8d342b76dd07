import { existsSync, readdirSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import type { Diagnostic, Location } from "../diagnostics/diagnostic.js";
import { LineIndex } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import { readTextOnUse } from "./source-facts.js";
import type { KeptSourceBytes } from "./kept-bytes.js";
import { decodeSource, readBuffer } from "./source-text.js";
import { readRegularBytes, Unreadable } from "./read-regular.js";
import { CACHE_FOLDER, fileVerdict, KIND_EXTS, MAX_FOLDER_DEPTH, skippedFolder, TOO_DEEP } from "./file-kinds.js";

/** Where each kind of item lives under `.ai/`, and which file extensions count, in probing order. */
export const ITEM_DIRS: Record<ItemKind, { dir: string; exts: readonly string[] }> = {
  directive: { dir: "directives", exts: KIND_EXTS.directive },
  knowledge: { dir: "knowledge", exts: KIND_EXTS.knowledge },
  tool: { dir: "tools", exts: KIND_EXTS.tool },
};

/** Files larger than this are reported (RYE1005) rather than read; real items are a few kilobytes. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

export interface ReadOptions {
  maxFileBytes?: number;
  /**
   * Keep no text as a string: each source's `text` is decoded on every use from its bytes kept in
   * `keep`, or, once `keep` is full (or without it), read from its file again, which throws (an
   * OutputError, RYE8002) once the file no longer holds what was first read (see source-facts.ts).
   */
  rereadTexts?: boolean;
  /** Where `rereadTexts` keeps the bytes read (one store for every space a build reads). */
  keep?: KeptSourceBytes;
}

/** Finds every item under `<project>/.ai/`, sorted by kind and item id so builds are deterministic. */
export function readProject(
  projectDir: string,
  kinds: readonly ItemKind[] = ["directive", "knowledge", "tool"],
  options: ReadOptions = {},
): { sources: SourceFile[]; diagnostics: Diagnostic[] } {
  const sources: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const display = (file: string) => relative(projectDir, file).split(sep).join("/");
  const at = (file: string): Location => ({ source: display(file), start: START, end: START });
  let projectReal: string;
  try {
    projectReal = realpathSync(projectDir);
  } catch {
    return { sources, diagnostics };
  }
  for (const kind of kinds) {
    const { dir, exts } = ITEM_DIRS[kind];
    const root = join(projectDir, ".ai", dir);
    // The walk builds each path from `root` and a name at a time, so paths relative to the project
    // are `root`'s with the rest appended (path.relative on every file was a sixth of the read).
    const shown = display(root);
    const absolute = resolve(root);
    const walker = new Walker(projectReal, kind, at, diagnostics);
    for (const file of walker.walk(root)) {
      const native = file.slice(root.length + 1);
      const rel = sep === "/" ? native : native.split(sep).join("/");
      const path = `${shown}/${rel}`;
      const ext = exts.find((e) => rel.endsWith(e))!;
      const id = rel.slice(0, -ext.length);
      if (!usableId(id)) {
        diagnostics.push(d.badItemId(at(file), id));
        continue;
      }
      const read = readText(file, path, maxBytes, diagnostics);
      if (read === null) continue;
      sources.push(options.rereadTexts ? readTextOnUse({ kind, id, path, ext }, `${absolute}${sep}${native}`, read.bytes, read.text, read, options.keep?.keep(read.bytes)) : { kind, id, path, ext, text: read.text });
    }
  }
  // Within one id, files follow the fixed extension probing order of ITEM_DIRS (decisions.md #18).
  const extRank = (x: SourceFile) => ITEM_DIRS[x.kind].exts.indexOf(x.ext ?? "");
  sources.sort((a, b) => (a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : extRank(a) - extRank(b)));
  return { sources, diagnostics };
}

const START = { offset: 0, line: 1, column: 1 };

/** Ids become output paths, cross-references and text in generated code: plain `/`-separated names only. */
function usableId(id: string): boolean {
  // Control characters include C1 (U+0085 ends a line for Python) and U+2028/2029 end a JS line.
  // `%`, `?` and `#` mean something else in an import specifier to Node (a URL) than to bundlers and
  // TypeScript (a path): no spelling of them imports everywhere.
  // eslint-disable-next-line no-control-regex
  return !/[\\\u0000-\u001f\u007f-\u009f\u2028\u2029%?#]/.test(id) && id.split("/").every((p) => p !== "" && p !== "." && p !== "..");
}

/**
 * Reads one item as UTF-8 text (the bytes are valid until the next read), with what the open file's
 * stat said before it was read, or reports why it cannot be used.
 */
function readText(file: string, path: string, maxBytes: number, diagnostics: Diagnostic[]): { text: string; bytes: Buffer; mtimeMs: number; ino: number } | null {
  const loc = { source: path, start: START, end: START };
  let bytes: Buffer;
  let mtimeMs: number;
  let ino: number;
  try {
    // The one reader: without blocking, checked and measured on the open file (a swap after the
    // walk is still caught), into the shared buffer. The walk judged links already.
    const read = readRegularBytes(file, { kind: "source", maxBytes, link: { links: "follow" }, buffer: readBuffer });
    ({ bytes } = read);
    mtimeMs = read.stat.mtimeMs;
    ino = read.stat.ino;
  } catch (e) {
    if (e instanceof Unreadable && e.size !== undefined) diagnostics.push(d.fileTooLarge(loc, e.size, maxBytes));
    else diagnostics.push(d.unreadablePath(loc, e instanceof Unreadable ? e.reason : describe(e)));
    return null;
  }
  let text: string;
  try {
    text = decodeSource(bytes);
  } catch {
    diagnostics.push(d.unreadableFile(loc, "not valid UTF-8"));
    return null;
  }
  if (text.includes("\0")) {
    // Positions are those of the text the parser sees (line endings normalised).
    const normal = text.replace(/\r\n?/g, "\n");
    const pos = new LineIndex(normal).position(normal.indexOf("\0"));
    diagnostics.push(d.unreadableFile({ source: path, start: pos, end: pos }, "it holds a NUL byte, so it is binary, not text"));
    return null;
  }
  return { text, bytes, mtimeMs, ino };
}

/** An fs error as a short reason without the absolute path Node puts in its message. */
export function describe(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  if (code === "ENOENT") return "it no longer exists";
  return code ?? (e as Error).message;
}

/** Why a file named like an item is not read: only regular files are (a FIFO or a device never ends, or blocks). */
export function notRegular(st: Pick<Stats, "isFIFO" | "isSocket" | "isCharacterDevice" | "isBlockDevice">): string {
  const what = st.isFIFO() ? "a FIFO" : st.isSocket() ? "a socket" : st.isCharacterDevice() || st.isBlockDevice() ? "a device" : "not a file";
  return `it is ${what}, not a regular file; only regular files are read`;
}

/** Walks one item tree: symlinks are followed only while they stay inside the project, each real directory once. */
class Walker {
  private readonly seen = new Set<string>();
  private readonly exts: readonly string[];

  constructor(
    private readonly projectReal: string,
    private readonly kind: ItemKind,
    private readonly at: (file: string) => Location,
    private readonly diagnostics: Diagnostic[],
  ) {
    this.exts = KIND_EXTS[kind];
  }

  /**
   * `known` is the real path of `dir` when the walk already knows it (a plain folder inside a real
   * one): resolving each level again would cost a stat per component, quadratic in the depth.
   */
  *walk(dir: string, top = true, depth = 0, known?: string): Generator<string> {
    if (depth > MAX_FOLDER_DEPTH) {
      this.diagnostics.push(d.unreadablePath(this.at(dir), TOO_DEEP));
      return;
    }
    let real: string;
    try {
      real = known ?? realpathSync(dir);
    } catch (e) {
      // A missing item folder is normal (a project without tools); anything else is reported.
      if (!top || (e as NodeJS.ErrnoException).code !== "ENOENT") this.diagnostics.push(d.unreadablePath(this.at(dir), describe(e)));
      return;
    }
    if (!this.inside(real)) {
      this.diagnostics.push(d.badSymlink(this.at(dir), `it resolves to ${real}, outside the project`));
      return;
    }
    if (this.seen.has(real)) {
      this.diagnostics.push(d.badSymlink(this.at(dir), "it leads back to a directory already read (a loop)"));
      return;
    }
    this.seen.add(real);
    let entries: Dirent[];
    try {
      // Each entry's type comes with the listing (node asks lstat only where the file system does
      // not say): at 10k items that is ~30 ms less of the read before any thread compiles.
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (e) {
      if (top && (e as NodeJS.ErrnoException).code === "ENOTDIR") return;
      this.diagnostics.push(d.unreadablePath(this.at(dir), describe(e)));
      return;
    }
    for (const entry of entries) {
      const name = entry.name;
      // `dir` is normalised and `name` one component: this is join(dir, name), without normalising again.
      const full = `${dir}${sep}${name}`;
      if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(full);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          const why = code === "ENOENT" ? "its target does not exist" : code === "ELOOP" ? "it is part of a symlink loop" : describe(e);
          if (this.wanted(name) || code === "ELOOP") this.diagnostics.push(d.badSymlink(this.at(full), why));
          continue;
        }
        let tst;
        try {
          tst = statSync(target);
        } catch (e) {
          this.diagnostics.push(d.unreadablePath(this.at(full), describe(e)));
          continue;
        }
        if (tst.isDirectory()) {
          if (!this.skippedFolder(full, name)) yield* this.walk(full, false, depth + 1);
        } else if (this.wanted(name)) {
          if (!this.inside(target)) this.diagnostics.push(d.badSymlink(this.at(full), `it resolves to ${target}, outside the project`));
          else if (tst.isFile()) yield full;
          else this.diagnostics.push(d.unreadablePath(this.at(full), notRegular(tst)));
        } else this.notAnItem(full, name);
      } else if (entry.isDirectory()) {
        if (this.wanted(name)) this.diagnostics.push(d.directoryLikeItem(this.at(full), name));
        else if (!this.skippedFolder(full, name)) yield* this.walk(full, false, depth + 1, `${real}${sep}${name}`);
      } else if (this.wanted(name)) {
        if (entry.isFile()) yield full;
        else this.special(full);
      } else this.notAnItem(full, name);
    }
  }

  /** A folder skipped by rule is reported (info) and not entered. */
  private skippedFolder(full: string, name: string): boolean {
    // A build's cache under tools/ (Cargo's target/, .pytest_cache) marks itself with CACHEDIR.TAG,
    // whatever its name; looked for under tools/ only, so item folders cost no extra stat.
    const why = skippedFolder(this.kind, name) ?? (this.kind === "tool" && existsSync(`${full}${sep}CACHEDIR.TAG`) ? CACHE_FOLDER : null);
    if (why) this.diagnostics.push(d.skippedFile(this.at(full), why));
    return why !== null;
  }

  /** A file of no kind this tree reads: skipped by rule (info), or reported as of no supported kind. */
  private notAnItem(full: string, name: string): void {
    const verdict = fileVerdict(this.kind, name);
    if ("skip" in verdict) this.diagnostics.push(d.skippedFile(this.at(full), verdict.skip));
    else if ("unsupported" in verdict) this.diagnostics.push(d.unsupportedKind(this.at(full), verdict.unsupported));
  }

  /** A FIFO, socket or device named like an item: reported, never opened. */
  private special(full: string): void {
    try {
      this.diagnostics.push(d.unreadablePath(this.at(full), notRegular(statSync(full))));
    } catch (e) {
      this.diagnostics.push(d.unreadablePath(this.at(full), describe(e)));
    }
  }

  private wanted(name: string): boolean {
    return this.exts.some((e) => name.endsWith(e));
  }

  private inside(real: string): boolean {
    return real === this.projectReal || real.startsWith(this.projectReal + sep);
  }
}
