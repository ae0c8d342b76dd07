// The checking side of the language server: one project's workspace (disk, overlaid with the editor's
// buffers) and its incremental checker. It runs on a worker thread (check-worker.ts), or on the main
// thread where no built worker exists; it never talks to the editor itself.
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { Checker } from "../checker.js";
import { Workspace } from "../workspace.js";
import type { CheckResult } from "./protocol.js";

export class ProjectChecks {
  private ws: Workspace | null = null;
  /** The project's root, read again by the next check when reading it failed. */
  private root: string | null = null;
  /** The editor's buffers, by file: a workspace read later starts with them. */
  private readonly overlays = new Map<string, string>();
  private readonly checker = new Checker();
  /** Set by a change on disk: the project is re-read before the next check (a failure is that check's). */
  private stale = false;
  /** Files given diagnostics so far: an opened file among them needs no first answer. */
  private answered = new Set<string>();

  /** The project at `root`, read by the first check (where a failure to read it is that check's). */
  open(root: string): void {
    this.root = root;
    this.ws = null;
  }

  overlay(file: string, text: string | null): void {
    if (text === null) this.overlays.delete(file);
    else this.overlays.set(file, text);
    this.ws?.setOverlay(file, text);
  }

  /** The project with the open buffers over it, read now when not yet read; null when there is none. */
  private workspace(): Workspace | null {
    if (this.ws || this.root === null) return this.ws;
    const ws = new Workspace(this.root);
    for (const [file, text] of this.overlays) ws.setOverlay(file, text);
    return (this.ws = ws);
  }

  reload(): void {
    this.stale = true;
  }

  /** Files the main thread gave their first answer: none is needed from here. */
  answeredElsewhere(files: readonly string[]): void {
    for (const file of files) this.answered.add(file);
  }

  /**
   * Before the first whole check, the directives just opened are checked alone (what they look up
   * included), so the editor's first answer does not wait for every item of the project. Null when
   * there is nothing to answer first: the whole check is next.
   */
  firstAnswer(seq: number, files: readonly string[]): CheckResult | null {
    if (!this.checker.fresh || this.stale) return null;
    const ws = this.workspace();
    if (!ws) return null;
    const sources = ws.sources();
    const opened = sources.filter((src) => src.kind === "directive" && files.includes(ws.absolute(src.path)) && !this.answered.has(ws.absolute(src.path)));
    if (opened.length === 0) return null;
    const found = this.checker.checkOnly(sources, ws.hookConfig, opened);
    const byFile = opened.map((src): [string, Diagnostic[]] => [ws.absolute(src.path), found.filter((d) => d.loc!.source === src.path)]);
    for (const [file] of byFile) this.answered.add(file);
    return { seq, scope: "opened", files: [], byFile, analysed: [] };
  }

  /**
   * Checks the project, re-checking what `files` touch; every file with diagnostics is in the
   * answer. `onItem` is called as each item is done.
   */
  whole(seq: number, files: readonly string[], onItem?: () => void): CheckResult {
    const ws = this.workspace();
    if (!ws) return { seq, scope: "whole", files: [...files], byFile: [], analysed: [] };
    if (this.stale) {
      ws.reload();
      this.checker.reset();
      this.stale = false;
    }
    const sources = ws.sources();
    const changed = sources.filter((src) => files.includes(ws.absolute(src.path)));
    for (const f of files) {
      const ref = ws.itemAt(f);
      if (ref && !changed.some((src) => src.path === ref.path)) changed.push({ kind: ref.kind, id: ref.id, path: ref.path, text: "" });
    }
    const diagnostics = [...ws.configProblems, ...ws.readProblems(), ...ws.overlayProblems(), ...this.checker.check(sources, ws.hookConfig, changed, onItem)];
    const byFile = new Map<string, Diagnostic[]>();
    for (const d of diagnostics) {
      if (!d.loc) continue;
      const file = ws.absolute(d.loc.source);
      const list = byFile.get(file);
      if (list) list.push(d);
      else byFile.set(file, [d]);
    }
    this.answered = new Set(byFile.keys());
    return { seq, scope: "whole", files: [...files], byFile: [...byFile], analysed: this.checker.takeAnalysed() };
  }
}
