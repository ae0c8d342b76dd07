// The sources of a watched project, kept between rebuilds: after a change only the files the watcher
// named are read again. Anything unusual (a directory event, a file outside the item folders, another
// space, a hook config, a file readProject would report rather than read, an unreadable file now or
// before) falls back to reading every space anew, so the result is always what readSpaces would return.
import { existsSync, lstatSync } from "node:fs";
import { relative, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import { DEFAULT_MAX_FILE_BYTES, ITEM_DIRS } from "../project/read-project.js";
import { MAX_FOLDER_DEPTH, skippedFolder } from "../project/file-kinds.js";
import { decodeSource, readRegularFile } from "../project/source-text.js";
import { readSpaces, type Spaces } from "../project/read-spaces.js";

export type SpacesRead = { sources: SourceFile[]; diagnostics: Diagnostic[]; hookConfig: { path: string; text: string } | null };

const extRank = (x: SourceFile) => ITEM_DIRS[x.kind].exts.indexOf(x.ext ?? "");
/** readProject's order: kind, then id, then extension probing order; other spaces after, as read. */
const byKindIdExt = (a: SourceFile, b: SourceFile) => (a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : extRank(a) - extRank(b));

export class WatchedSources {
  private last: SpacesRead | null = null;
  private changed = new Set<string>();
  private full = true;
  /** Project-relative path → position in `last.sources`. */
  private byPath: Map<string, number> | null = null;

  constructor(private readonly spaces: Spaces) {}

  /** Records a changed absolute path; null (the watcher could not say which) forces a full read. */
  touch(path: string | null): void {
    if (path === null) this.full = true;
    else this.changed.add(path);
  }

  read(): SpacesRead {
    const last = this.last;
    const changed = [...this.changed];
    this.changed.clear();
    if (!last || this.full || last.diagnostics.length > 0) return this.reread();
    // Positions stay valid while no file is added or removed: the map outlives reads that only change texts.
    const byPath = (this.byPath ??= new Map(last.sources.map((s, i) => [s.path, i])));
    const sources = [...last.sources];
    const removed = new Set<number>();
    const added: SourceFile[] = [];
    for (const abs of changed) {
      const item = this.itemOf(abs);
      if (item === "ignored") continue;
      if (!item) return this.reread();
      const st = lstatSync(abs, { throwIfNoEntry: false });
      const at = byPath.get(item.path);
      if (!st) {
        if (at !== undefined) removed.add(at);
        continue;
      }
      // Directories, links and files too large to read: readProject's rules and diagnostics apply.
      if (!st.isFile() || st.size > (this.spaces.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES)) return this.reread();
      let text: string;
      try {
        // Bounded and regular on the open file: the lstat above says nothing of a swap since.
        text = decodeSource(readRegularFile(abs, this.spaces.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES));
      } catch {
        return this.reread();
      }
      if (text.includes("\0")) return this.reread();
      const src: SourceFile = { ...item, text, space: "project" };
      if (at !== undefined) sources[at] = src;
      else added.push(src);
    }
    let next = removed.size > 0 ? sources.filter((_, i) => !removed.has(i)) : sources;
    if (removed.size > 0 || added.length > 0) this.byPath = null;
    if (added.length > 0) {
      const project = [...next.filter((s) => s.space === "project"), ...added].sort(byKindIdExt);
      next = [...project, ...next.filter((s) => s.space !== "project")];
    }
    this.last = { ...last, sources: next };
    return this.last;
  }

  private reread(): SpacesRead {
    this.full = false;
    this.changed.clear();
    this.last = readSpaces(this.spaces);
    // Made now, while a full read is slow anyway, rather than by the first rebuild after an edit.
    this.byPath = new Map(this.last.sources.map((s, i) => [s.path, i]));
    return this.last;
  }

  /**
   * The project item a changed file names; "ignored" for a file in a folder readProject skips by
   * rule; null for anything else, a file of no kind included (the read reports it: file-kinds.ts).
   */
  private itemOf(abs: string): { kind: ItemKind; id: string; path: string; ext: string } | "ignored" | null {
    const path = relative(this.spaces.project, abs).split(sep).join("/");
    for (const kind of ["directive", "knowledge", "tool"] as const) {
      const { dir, exts } = ITEM_DIRS[kind];
      const prefix = `.ai/${dir}/`;
      if (!path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length);
      const parts = rel.split("/");
      const wanted = (name: string) => exts.some((e) => name.endsWith(e));
      if (parts.some((part) => part === "" || part === "." || part === "..")) return null;
      // A folder named like an item, or past the depth limit, is reported by readProject, not entered.
      if (parts.slice(0, -1).some(wanted) || parts.length - 1 > MAX_FOLDER_DEPTH) return null;
      // Inside a folder the read skips (node_modules/, a cache), nothing the build reads changed.
      if (this.inSkippedFolder(kind, `${this.spaces.project}/${prefix}`, parts.slice(0, -1))) return "ignored";
      const ext = exts.find((e) => rel.endsWith(e));
      // A file of no kind (or a skipped one) is a diagnostic of the read (file-kinds.ts): read again.
      if (!ext) return null;
      const id = rel.slice(0, -ext.length);
      // eslint-disable-next-line no-control-regex
      if (/[\\\u0000-\u001f\u007f]/.test(id) || id.split("/").some((p) => p === "")) return null; // readProject's usableId
      return { kind, id, path, ext };
    }
    return null;
  }

  /** Whether one of `folders` (below `root`) is a folder readProject skips by rule (file-kinds.ts). */
  private inSkippedFolder(kind: ItemKind, root: string, folders: string[]): boolean {
    let dir = root;
    for (const name of folders) {
      dir += `${name}/`;
      if (skippedFolder(kind, name) !== null || (kind === "tool" && existsSync(`${dir}CACHEDIR.TAG`))) return true;
    }
    return false;
  }
}
