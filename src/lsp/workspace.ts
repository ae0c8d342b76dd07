// The language server's view of a project: the items on disk, with the text of every open editor
// buffer in place of the file's (unsaved edits are what gets checked).
import { existsSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { loadProject, type LoadedProject } from "../builder/load-project.js";
import type { ItemKind, SourceFile } from "../model/source.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { DEFAULT_MAX_FILE_BYTES, ITEM_DIRS } from "../project/read-project.js";
import { MAX_FOLDER_DEPTH, skippedFolder } from "../project/file-kinds.js";
import * as d from "../diagnostics/codes.js";
import { resolveSettings } from "../project/settings.js";

/** Where a file sits among a project's items. */
export interface ItemRef {
  kind: ItemKind;
  id: string;
  ext: string;
  /** As sources name it: project-relative for the project, absolute for other spaces. */
  path: string;
}

/** The project under an editor, reloaded from disk on demand and overlaid with open buffers. */
export class Workspace {
  private loaded!: LoadedProject;
  private readonly overlays = new Map<string, string>();
  /** Open buffers over the size limit, by file, with their size: left out of the sources, as a build leaves such files (RYE1005). */
  private readonly oversized = new Map<string, number>();
  private maxFileBytes = DEFAULT_MAX_FILE_BYTES;
  /** sources(), until the project or a buffer changes. */
  private cached: readonly SourceFile[] | null = null;
  /** The config file's own problems (RYE9001, RYE9002), located in it. */
  configProblems: Diagnostic[] = [];

  constructor(
    readonly root: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.reload();
  }

  /**
   * Re-reads the config and every space from disk (files created, deleted or renamed outside the
   * editor). The spaces are the ones `rye build` reads: the config's user space and system spaces.
   */
  reload(): void {
    this.cached = null;
    const settings = resolveSettings(this.root, {}, this.root, this.env);
    this.configProblems = settings.problems;
    this.loaded = loadProject({ project: this.root, cwd: this.root, env: settings.env, userSpace: settings.userSpace, systems: settings.systems });
    // The build's limit (RYE_MAX_FILE_SIZE) holds for open buffers too.
    this.maxFileBytes = this.loaded.spaces.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  /** The hook configuration, from its open buffer when it is being edited. */
  get hookConfig(): LoadedProject["hookConfig"] {
    const found = this.loaded.hookConfig;
    const open = found ? this.overlays.get(found.path) : undefined;
    return found && open !== undefined ? { path: found.path, text: open } : found;
  }

  /** Replaces a file's text with an editor buffer's; null puts the file's own text back. */
  setOverlay(file: string, text: string | null): void {
    this.cached = null;
    this.oversized.delete(file);
    if (text === null) this.overlays.delete(file);
    else {
      this.overlays.set(file, text);
      // Measured in UTF-16 units first: only a buffer that may be over the limit is encoded to count its bytes.
      const bytes = text.length * 3 > this.maxFileBytes ? Buffer.byteLength(text) : 0;
      if (bytes > this.maxFileBytes) this.oversized.set(file, bytes);
    }
  }

  /** RYE1005 for each open buffer over the size limit (checked as a build would: not at all). */
  overlayProblems(): Diagnostic[] {
    const at = { offset: 0, line: 1, column: 1 };
    return [...this.oversized].map(([file, bytes]) => d.fileTooLarge({ source: this.itemAt(file)?.path ?? file, start: at, end: at }, bytes, this.maxFileBytes));
  }

  /**
   * What reading the tree found, as `rye build` reports it (files of no kind, RYE1011; skipped files,
   * RYE1012; unreadable files, links, folder depth), except for files open in the editor: the
   * buffer's own text is what gets checked there.
   */
  readProblems(): Diagnostic[] {
    return this.loaded.diagnostics.filter((x) => !x.loc || !this.overlays.has(this.absolute(x.loc.source)));
  }

  /**
   * Every item of every space, open buffers in place of their files, new unsaved items included.
   * Built once per state of the project and its buffers (at 10k items, building it is most of a hover).
   */
  sources(): readonly SourceFile[] {
    return (this.cached ??= this.buildSources());
  }

  private buildSources(): SourceFile[] {
    const seen = new Set<string>();
    const out = this.loaded.sources.flatMap((s) => {
      const file = this.absolute(s.path);
      seen.add(file);
      if (this.oversized.has(file)) return [];
      const text = this.overlays.get(file);
      return [text === undefined ? s : { ...s, text }];
    });
    for (const [file, text] of this.overlays) {
      if (seen.has(file) || this.oversized.has(file)) continue;
      const ref = this.itemAt(file);
      if (ref) out.push({ kind: ref.kind, id: ref.id, path: ref.path, ext: ref.ext, text, space: "project" });
    }
    return out;
  }

  /** The text the server should use for a file: its open buffer, else what was read from disk. */
  textOf(file: string): string | undefined {
    return this.overlays.get(file) ?? this.loaded.sources.find((s) => this.absolute(s.path) === file)?.text;
  }

  /** A source path (project-relative or absolute) as an absolute file path. */
  absolute(path: string): string {
    return isAbsolute(path) ? path : join(this.root, path);
  }

  /** The project item a file is, when it lies under the project's `.ai/` item folders. */
  itemAt(file: string): ItemRef | null {
    const rel = relative(this.root, file).split(sep).join("/");
    for (const kind of ["directive", "knowledge", "tool"] as const) {
      const { dir, exts } = ITEM_DIRS[kind];
      const prefix = `.ai/${dir}/`;
      if (!rel.startsWith(prefix)) continue;
      // Where the read does not look (a skipped folder, past the depth limit), a file is no item.
      const folders = rel.slice(prefix.length).split("/").slice(0, -1);
      if (folders.length > MAX_FOLDER_DEPTH || folders.some((name) => skippedFolder(kind, name) !== null)) return null;
      const ext = exts.find((e) => rel.endsWith(e));
      if (ext) return { kind, id: rel.slice(prefix.length, -ext.length), ext, path: rel };
    }
    return null;
  }

  /** The files an item id resolves to, project → user → system (the first is the one used). */
  filesOf(kind: ItemKind, id: string): SourceFile[] {
    return this.sources().filter((s) => s.kind === kind && s.id === id);
  }

  /** True when `file` still exists on disk or is open (deleted files lose their diagnostics). */
  exists(file: string): boolean {
    return this.overlays.has(file) || existsSync(file);
  }
}
