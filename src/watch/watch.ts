// `rye build --watch`: build, then rebuild whenever a file under any space's .ai/ changes. Events
// are debounced (an editor's save is often several events), a rebuild never overlaps another, and a
// file deleted, renamed or made invalid mid-watch is just another rebuild with its diagnostics.
import { existsSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import type { Io } from "../host.js";
import type { BuildMemo, ProjectBuildOptions } from "../builder/build-project.js";
import { WatchedSources } from "./watch-sources.js";

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
  const watchers = new Map<string, FSWatcher>();
  let code = safeBuild(options, io, rebuild);
  let timer: NodeJS.Timeout | undefined;
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((r) => (resolveDone = r));

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (signal.aborted) return;
      code = safeBuild(options, io, rebuild);
      attach();
    }, debounceMs);
  };
  // (Re)attaches a watcher to every .ai/ that exists: one deleted and recreated mid-watch is picked up again.
  const attach = () => {
    for (const root of roots) {
      if (watchers.has(root) || !existsSync(root)) continue;
      try {
        const w = watch(root, { recursive: true }, (_event, name) => {
          control.onChange?.(name ? join(root, name.toString()) : null);
          schedule();
        });
        w.on("error", () => {
          w.close();
          watchers.delete(root);
          control.onChange?.(null);
          schedule();
        });
        watchers.set(root, w);
      } catch {
        // Not watchable now (vanished in between); the next rebuild tries again.
      }
    }
  };
  attach();
  // A space whose .ai/ does not exist yet is polled for, cheaply, so creating it starts a rebuild.
  const poll = setInterval(() => {
    if (roots.some((r) => !watchers.has(r) && existsSync(r))) {
      control.onChange?.(null);
      schedule();
    }
  }, 1000);
  io.stderr.write(`Watching ${roots.filter((r) => watchers.has(r)).join(", ")} for changes (Ctrl-C to stop).\n`);
  const stop = () => {
    if (timer) clearTimeout(timer);
    clearInterval(poll);
    for (const w of watchers.values()) w.close();
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
