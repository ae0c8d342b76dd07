// The checker's message loop, the same on a worker thread and in the main thread's fallback: state
// messages apply at once; checks asked for while one runs are merged, so only the newest runs, and a
// result is posted for each check that ran. A check that throws is posted as a failure; the loop
// goes on with the next one. A long check posts its progress as it goes, so that the main thread's
// time limit is on each item, not on the size of the project.
import { ProjectChecks } from "./project-checks.js";
import type { FromChecker, ToChecker } from "./protocol.js";

const PROGRESS_MS = 250;

export function serveChecks(post: (m: FromChecker) => void): (m: ToChecker) => void {
  const checks = new ProjectChecks();
  let pending: { seq: number; files: Set<string> } | null = null;
  let scheduled = false;
  // A whole check of a large project takes seconds: it says it is moving at most every PROGRESS_MS.
  let said = 0;
  const progress = () => {
    const now = performance.now();
    if (now - said < PROGRESS_MS) return;
    said = now;
    post({ type: "progress" });
  };

  // After the current turn: every message already queued (newer edits among them) is taken in first.
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(run);
  };
  const run = () => {
    scheduled = false;
    const next = pending;
    pending = null;
    if (!next) return;
    const files = [...next.files];
    try {
      const first = checks.firstAnswer(next.seq, files);
      if (first) {
        post({ type: "result", result: first });
        // The whole check follows in a later turn, merged with any newer check asked for by then.
        pending = next;
        return schedule();
      }
      post({ type: "result", result: checks.whole(next.seq, files, progress) });
    } catch (e) {
      post({ type: "failed", failure: { seq: next.seq, files, detail: e instanceof Error ? e.message : String(e) } });
    }
  };

  return (m) => {
    if (m.type === "open") checks.open(m.root);
    else if (m.type === "overlay") checks.overlay(m.file, m.text);
    else if (m.type === "reload") checks.reload();
    else {
      checks.answeredElsewhere(m.answered);
      pending = { seq: m.seq, files: new Set([...(pending?.files ?? []), ...m.files]) };
      schedule();
    }
  };
}
