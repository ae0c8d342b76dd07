// `rye build --watch`: build, then rebuild whenever a file under any space's .ai/ changes. Events
// are debounced (an editor's save is often several events, a checkout hundreds), a rebuild never
// overlaps another, and a file deleted, renamed or made invalid mid-watch is just another rebuild
// with its diagnostics. Folders are watched one by one (see TreeWatcher) and brought up to date
// before each rebuild reads the tree.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Io } from "../host.js";
import type { BuildMemo, ProjectBuildOptions } from "../builder/build-project.js";
import { WatchedSources } from "./watch-sources.js";
import { TreeWatcher } from "./watch-tree.js";

export interface WatchControl {
  /** Stops watching; the CLI aborts on SIGINT. */
  signal?: AbortSignal;
  /** Quiet period after the last event before rebuilding. */
  debounceMs?: number;
  /** Told every changed path (absolute), or null when the watcher could not name it. */
  onChange?: (path: string | null) => void;
}

/** Runs `rebuild` now and after every change until stopped; resolves with the last build's exit code. */
export async function watchProject(
  options: ProjectBuildOptions,
  io: Io,
  rebuild: (options: ProjectBuildOptions) => number,
  control: WatchControl = {},
): Promise<number> {
  let signal = control.signal;
  let stopSigint = () => {};
  if (!signal) {
    const ac = new AbortController();
    const onSigint = () => ac.abort();
    process.once("SIGINT", onSigint);
    stopSigint = () => process.off("SIGINT", onSigint);
    signal = ac.signal;
  }
  const debounceMs = control.debounceMs ?? 80;
  const roots = [options.spaces.project, options.spaces.user, ...options.spaces.systems].map((r) => join(r, ".ai"));
  let timer: NodeJS.Timeout | undefined;
  let pendingSince = 0;
  const schedule = () => {
    const now = Date.now();
    if (!timer) pendingSince = now;
    // Events that never pause (a tool writing under .ai/ all the time) postpone a rebuild at most
    // ten quiet periods.
    else if (now - pendingSince > 10 * debounceMs) return;
    else clearTimeout(timer);
    timer = setTimeout(cycle, debounceMs);
  };
  const tree = new TreeWatcher(
    roots,
    (path) => {
      control.onChange?.(path);
      schedule();
    },
    (message) => io.stderr.write(`rye build --watch: ${message}\n`),
  );
  const cycle = () => {
    timer = undefined;
    if (signal.aborted) return;
    // Watches first: whatever changes after this is reported, whatever changed before is read.
    tree.sync();
    code = safeBuild(options, io, rebuild);
  };
  let code = 0;
  cycle();
  // A root's parent is not watched (it may be a home folder), so a .ai/ created, deleted or
  // replaced as a whole is found by a cheap poll.
  const poll = setInterval(() => {
    if (tree.rootsMoved()) {
      control.onChange?.(null);
      schedule();
    }
  }, 1000);
  io.stderr.write(`Watching ${roots.filter((r) => existsSync(r)).join(", ")} for changes (Ctrl-C to stop).\n`);
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((r) => (resolveDone = r));
  const stop = () => {
    if (timer) clearTimeout(timer);
    clearInterval(poll);
    tree.close();
    stopSigint();
    resolveDone();
  };
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  await done;
  return code;
}

/** A rebuild that throws (a file vanished between listing and reading) is reported, and watching goes on. */
function safeBuild(options: ProjectBuildOptions, io: Io, rebuild: (o: ProjectBuildOptions) => number): number {
  try {
    return rebuild(options);
  } catch (e) {
    io.stderr.write(`rye build --watch: rebuild failed: ${(e as Error).message}\n`);
    return 1;
  }
}

/**
 * `rye build --watch`: `watchProject` with the state a long-lived build keeps (see BuildMemo and
 * WatchedSources); the cache file is written after a second without changes and when watching stops.
 */
export async function watchBuild(options: ProjectBuildOptions, io: Io, runOnce: (options: ProjectBuildOptions) => number, control: WatchControl = {}): Promise<number> {
  const memo: BuildMemo = {};
  const watched = new WatchedSources(options.spaces);
  const read = () => watched.read();
  let idle: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(idle);
    memo.save?.();
    memo.save = undefined;
  };
  const rebuild = (o: ProjectBuildOptions) => {
    const code = runOnce({ ...o, memo, read });
    clearTimeout(idle);
    idle = setTimeout(flush, 1000);
    return code;
  };
  try {
    return await watchProject(options, io, rebuild, {
      ...control,
      onChange: (p) => {
        watched.touch(p);
        control.onChange?.(p);
      },
    });
  } finally {
    flush();
  }
}
