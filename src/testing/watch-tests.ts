// `rye test --watch`: runs once, then again whenever a file under `.ai/` changes (sources, test
// files), until interrupted. Writes of snapshots do not start a run of their own.
import { join, sep } from "node:path";
import { TreeWatcher } from "../watch/watch-tree.js";
import { runSession, type SessionIo, type SessionOptions } from "./test-session.js";

/** Settles this long after the last change before running, so one save starts one run. */
const SETTLE_MS = 150;

/** Resolves to the last run's exit code once `stop` aborts (default: SIGINT or SIGTERM). */
export async function watchTests(o: SessionOptions, io: SessionIo, stop?: AbortSignal): Promise<number> {
  const snapshots = join(o.root, ".ai", "tests", "__snapshots__") + sep;
  let last = await runOnce(o, io);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const watcher = new TreeWatcher([join(o.root, ".ai")], (path) => {
    if (path !== null && path.startsWith(snapshots)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        watcher.sync();
        last = await runOnce(o, io);
      });
    }, SETTLE_MS);
  });
  watcher.sync();
  await new Promise<void>((done) => {
    const end = () => done();
    if (stop) stop.addEventListener("abort", end, { once: true });
    else {
      process.once("SIGINT", end);
      process.once("SIGTERM", end);
    }
  });
  clearTimeout(timer);
  watcher.close();
  await running;
  return last;
}

async function runOnce(o: SessionOptions, io: SessionIo): Promise<number> {
  let code: number;
  try {
    code = await runSession(o, io);
  } catch (e) {
    io.stderr.write(`rye test: ${e instanceof Error ? e.message : String(e)}\n`);
    code = 2;
  }
  io.stderr.write(`\nWatching .ai/ for changes (Ctrl-C stops).\n`);
  return code;
}
