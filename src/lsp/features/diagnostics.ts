// Diagnostics: every edit, open, close and file change outside the editor asks for a check of the
// project (on the checker's thread, checks/check-thread.ts) and publishes what it finds per file.
// Only the answer to the newest check is published; a check that failed is a located RYE1010.
import { pathToFileURL } from "node:url";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver/node";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { internalError } from "../../diagnostics/codes.js";
import { CheckThread } from "../checks/check-thread.js";
import type { CheckFailure, CheckResult } from "../checks/protocol.js";
import { toRange } from "../positions.js";
import { answerOpenedHere } from "./first-answer.js";
import { fileOf, type Session } from "../session.js";

const OPEN_WAIT_MS = 100;

/** Registers the handlers that keep the published diagnostics current. */
export function registerDiagnostics(s: Session): void {
  // The checker's thread starts with the first check, once the first answer below was given.
  let wholeSeen = false;
  const checks = new CheckThread({
    result: (r) => {
      wholeSeen ||= r.scope === "whole";
      publish(s, r);
    },
    failed: (f) => publishFailure(s, f),
  });
  s.onRoot.push((root) => checks.open(root));
  let pending: string[] = [];
  let scheduled = false;
  // Edits arriving together are one check, asked for right after the current event turn.
  const schedule = (files: string[]): void => {
    pending.push(...files);
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const files = [...new Set(pending)];
      pending = [];
      if (!s.ws) return;
      // Until the first whole answer, small opened directives are answered here first (first-answer.ts).
      const answered = wholeSeen ? [] : answerOpenedHere(s, s.ws, files, (file, list) => send(s, file, list));
      checks.check(files, answered);
    });
  };

  // An editor opens its files right after `initialized`: the first whole check waits for the first
  // of them (or OPEN_WAIT_MS), so that file is answered first (first-answer.ts).
  let firstCheck: NodeJS.Timeout | undefined;
  const change = (uri: string, text: string | null) => {
    const file = fileOf(uri);
    if (!s.ws || !file) return;
    s.ws.setOverlay(file, text);
    checks.overlay(file, text);
    clearTimeout(firstCheck);
    schedule([file]);
  };
  s.connection.onInitialized(() => void (firstCheck = setTimeout(() => schedule([]), OPEN_WAIT_MS)));
  s.documents.onDidOpen((e) => change(e.document.uri, e.document.getText()));
  s.documents.onDidChangeContent((e) => change(e.document.uri, e.document.getText()));
  s.documents.onDidClose((e) => change(e.document.uri, null));
  s.connection.onDidChangeWatchedFiles(() => {
    try {
      s.ws?.reload();
    } catch {
      // The checker re-reads the project too, and reports why it cannot.
    }
    checks.reload();
    schedule([]);
  });
  s.connection.onExit(() => checks.dispose());
}

const toLsp = (d: Diagnostic): LspDiagnostic => ({ range: toRange(d.loc!), severity: d.severity === "error" ? 1 : d.severity === "warning" ? 2 : 3, code: d.code, source: "rye", message: d.message });

/** Sends one file its diagnostics, with the version of its open buffer (the one they are about). */
function send(s: Session, file: string, list: Diagnostic[]): void {
  const uri = pathToFileURL(file).href;
  const version = s.documents.get(uri)?.version;
  void s.connection.sendDiagnostics({ uri, ...(version !== undefined ? { version } : {}), diagnostics: list.map(toLsp) });
}

/** Publishes a check's answer: a first answer for opened files, or the whole project's. */
function publish(s: Session, r: CheckResult): void {
  for (const [id, inputs] of r.analysed) {
    if (inputs) s.analysedInputs.set(id, inputs);
    else s.analysedInputs.delete(id);
  }
  if (r.scope === "opened") {
    for (const [file, list] of r.byFile) {
      send(s, file, list);
      s.published.set(file, list);
    }
    return;
  }
  const byFile = new Map(r.byFile);
  // Files that had diagnostics and lost them, and changed files without any, get an empty list.
  for (const file of new Set([...s.published.keys(), ...r.files])) if (!byFile.has(file)) send(s, file, []);
  for (const [file, list] of byFile) send(s, file, list);
  s.published = byFile;
  for (const after of s.afterPublish) after();
}

/**
 * A check that threw, ran out of memory or past its time limit: RYE1010 at the start of each file
 * it was about (each open buffer when it was about none), and the server goes on.
 */
function publishFailure(s: Session, f: CheckFailure): void {
  const files = f.files.length > 0 ? f.files : s.documents.all().flatMap((doc) => fileOf(doc.uri) ?? []);
  const at = { offset: 0, line: 1, column: 1 };
  for (const file of files) {
    const list = [internalError({ source: s.ws?.itemAt(file)?.path ?? file, start: at, end: at }, `while checking the project: ${f.detail}`)];
    send(s, file, list);
    s.published.set(file, list);
  }
  s.connection.console.error(`rye: checking failed: ${f.detail}`);
}
