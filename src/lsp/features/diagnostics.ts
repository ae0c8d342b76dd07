// Diagnostics: every edit, open, close and file change outside the editor re-checks the project and
// publishes the compiler's diagnostics per file.
import { pathToFileURL } from "node:url";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver/node";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { toRange } from "../positions.js";
import { fileOf, type Session } from "../session.js";
import type { Workspace } from "../workspace.js";

const OPEN_WAIT_MS = 100;

/** Registers the handlers that keep the published diagnostics current. */
export function registerDiagnostics(s: Session): void {
  let pending: string[] = [];
  let scheduled = false;

  // Edits arriving together are checked once, right after the current event turn.
  const schedule = (files: string[]): void => {
    pending.push(...files);
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const files = pending;
      pending = [];
      // Nothing that one file or edit does may stop the server: a failure is logged, and the next edit checks again.
      try {
        if (s.ws && s.checker.fresh && publishOpenedFirst(s, s.ws, files)) return schedule(files);
        if (s.ws) publish(s, s.ws, files);
      } catch (e) {
        s.connection.console.error(`rye: checking failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
    });
  };

  // An editor opens its files right after `initialized`: the first whole check waits for the first
  // of them (or OPEN_WAIT_MS), so that file is answered first (publishOpenedFirst).
  let firstCheck: NodeJS.Timeout | undefined;
  const change = (uri: string, text: string | null) => {
    const file = fileOf(uri);
    if (!s.ws || !file) return;
    s.ws.setOverlay(file, text);
    clearTimeout(firstCheck);
    schedule([file]);
  };
  s.connection.onInitialized(() => void (firstCheck = setTimeout(() => schedule([]), OPEN_WAIT_MS)));
  s.documents.onDidOpen((e) => change(e.document.uri, e.document.getText()));
  s.documents.onDidChangeContent((e) => change(e.document.uri, e.document.getText()));
  s.documents.onDidClose((e) => change(e.document.uri, null));
  s.connection.onDidChangeWatchedFiles(() => {
    s.ws?.reload();
    s.checker.reset();
    schedule([]);
  });
}

/**
 * Before the first whole check, the directives just opened get their diagnostics from a check of
 * them alone (what they look up included), so the editor's first answer does not wait for every
 * item of the project; the whole check runs next and publishes everything. False when no opened
 * file is a project directive.
 */
function publishOpenedFirst(s: Session, ws: Workspace, files: string[]): boolean {
  const sources = ws.sources();
  const opened = sources.filter((src) => src.kind === "directive" && files.includes(ws.absolute(src.path)) && !s.published.has(ws.absolute(src.path)));
  if (opened.length === 0) return false;
  const found = s.checker.checkOnly(sources, ws.hookConfig, opened);
  for (const src of opened) {
    const file = ws.absolute(src.path);
    const list = found.filter((d) => d.loc!.source === src.path);
    s.connection.sendDiagnostics({ uri: pathToFileURL(file).href, diagnostics: list.map(toLsp) });
    s.published.set(file, list);
  }
  return true;
}

const toLsp = (d: Diagnostic): LspDiagnostic => ({ range: toRange(d.loc!), severity: d.severity === "error" ? 1 : d.severity === "warning" ? 2 : 3, code: d.code, source: "rye", message: d.message });

/** Checks the project (re-checking what `files` touch) and sends each file its diagnostics. */
function publish(s: Session, ws: Workspace, files: string[]): void {
  const sources = ws.sources();
  const changed = sources.filter((src) => files.includes(ws.absolute(src.path)));
  for (const f of files) {
    const ref = ws.itemAt(f);
    if (ref && !changed.some((src) => src.path === ref.path)) changed.push({ kind: ref.kind, id: ref.id, path: ref.path, text: "" });
  }
  const diagnostics = [...ws.configProblems, ...ws.readProblems(), ...ws.overlayProblems(), ...s.checker.check(sources, ws.hookConfig, changed)];
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    if (!d.loc) continue;
    const file = ws.absolute(d.loc.source);
    byFile.set(file, [...(byFile.get(file) ?? []), d]);
  }
  // Files that had diagnostics and lost them, and edited files without any, get an empty list.
  for (const file of [...s.published.keys(), ...files]) if (!byFile.has(file)) s.connection.sendDiagnostics({ uri: pathToFileURL(file).href, diagnostics: [] });
  for (const [file, list] of byFile) {
    s.connection.sendDiagnostics({
      uri: pathToFileURL(file).href,
      diagnostics: list.map(toLsp),
    });
  }
  s.published = byFile;
  for (const after of s.afterPublish) after();
}
