// The editor's first answer, given on the main thread: before the first whole check, a directive just
// opened is checked alone (with what it looks up) and published at once, while the checker's thread
// is still starting (starting it costs about as much again as this check). Only a file small enough
// and extending nothing is checked here, so this never blocks requests for longer than one ordinary
// file; any other is answered first by the checker's thread (ProjectChecks.firstAnswer).
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { Checker } from "../checker.js";
import type { Session } from "../session.js";
import type { Workspace } from "../workspace.js";

/** The largest opened directive checked on the main thread (in UTF-16 units). */
export const FIRST_ANSWER_MAX_CHARS = 64 * 1024;

/** Publishes the first answer of each small opened directive of `files`; returns the files answered. */
export function answerOpenedHere(s: Session, ws: Workspace, files: readonly string[], send: (file: string, list: Diagnostic[]) => void): string[] {
  const sources = ws.sources();
  const opened = sources.filter((src) => {
    const file = ws.absolute(src.path);
    return src.kind === "directive" && files.includes(file) && !s.published.has(file) && src.text.length <= FIRST_ANSWER_MAX_CHARS && !/\bextends\s*=/.test(src.text);
  });
  if (opened.length === 0) return [];
  const found = new Checker().checkOnly(sources, ws.hookConfig, opened);
  return opened.map((src) => {
    const file = ws.absolute(src.path);
    const list = found.filter((d) => d.loc!.source === src.path);
    send(file, list);
    s.published.set(file, list);
    return file;
  });
}
