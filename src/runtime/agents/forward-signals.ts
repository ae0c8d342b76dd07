// While an agent runs, SIGINT, SIGTERM and SIGHUP to rye go to the agent's process group instead of
// ending rye at once, so rye can wait for the agent and remove its role file; a second signal kills
// the group. A watchdog outlives a rye killed with SIGKILL just long enough to do the same.
import { spawn } from "node:child_process";
import { constants } from "node:os";

export const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
export type ForwardedSignal = (typeof FORWARDED_SIGNALS)[number];

/** The exit code of a process ended by `signal`: 128 + its number (SIGINT 130, SIGTERM 143, SIGHUP 129). */
export const signalExitCode = (signal: string) => 128 + (constants.signals[signal as keyof typeof constants.signals] ?? 0);

const send = (target: number, signal: NodeJS.Signals | number) => {
  try {
    process.kill(target, signal);
  } catch {
    // gone already
  }
};

/**
 * Installs the forwarding for a child: `group` is true when the child leads its own process group.
 * Returns the signal received (if any) and a function that removes the handlers.
 */
export function forwardSignals(pid: number, group: boolean): { received: () => ForwardedSignal | null; stop: () => void } {
  let received: ForwardedSignal | null = null;
  const target = group ? -pid : pid;
  const handlers = FORWARDED_SIGNALS.map((signal) => {
    const handler = () => {
      if (received) send(target, "SIGKILL");
      else send(target, signal);
      received ??= signal;
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return {
    received: () => received,
    stop: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}

// Positional parameters only: the pids and the path reach the shell as data.
const WATCH = `trap '' INT HUP; while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill -KILL "$2" 2>/dev/null; if [ -n "$3" ]; then rm -f -- "$3"; fi`;

/**
 * Starts a detached watchdog that, once rye is gone, kills the agent (its group when `group`) and
 * removes `roleFile`. Returns a function that stops the watchdog when rye cleans up by itself.
 */
export function startWatchdog(pid: number, group: boolean, roleFile: string): () => void {
  if (process.platform === "win32") return () => {};
  let watcher;
  try {
    watcher = spawn("/bin/sh", ["-c", WATCH, "rye-agent-watchdog", String(process.pid), group ? `-${pid}` : String(pid), roleFile], {
      detached: true,
      stdio: "ignore",
    });
  } catch {
    return () => {};
  }
  watcher.on("error", () => {});
  watcher.unref();
  return () => {
    if (watcher.pid !== undefined && watcher.exitCode === null) send(watcher.pid, "SIGKILL");
  };
}
