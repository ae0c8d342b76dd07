import { argvProblem, spawnFailureReason } from "./check-argv.js";

// Loaded on first spawn, so compiled output that never runs a process (directives, dry runs) does
// not need execa installed beside it.
let execaModule: Promise<typeof import("execa")> | undefined;

/**
 * The part of execa's `execa(file, args, options)` this runtime uses, spelled out so the emitted
 * declarations need no execa types; a host that has execa (the rye CLI) may pass its own.
 */
export type Execa = (file: string, args: readonly string[], options: Record<string, unknown>) => SpawnedChild;

/** What `Execa` returns: a promise of the exit, with the child's pid, output streams and kill. */
export interface SpawnedChild extends PromiseLike<{ exitCode?: number; signal?: string; shortMessage?: string }> {
  pid?: number;
  stdout: AsyncIterable<unknown> | null;
  stderr: AsyncIterable<unknown> | null;
  kill(signal?: string): boolean;
  /** The child's `exit` event (execa's subprocess is a ChildProcess); without it rye waits for the pipes. */
  once?(event: "exit", listener: () => void): unknown;
}
function loadExeca(): Promise<typeof import("execa")> {
  execaModule ??= import("execa").catch((e: unknown) => {
    execaModule = undefined;
    throw new Error(`Running a tool needs the execa package where the compiled output can import it (npm install execa): ${(e as Error).message}`);
  });
  return execaModule;
}

/** What to spawn: an argv list run without a shell. */
export interface ProcessSpec {
  command: string;
  args: readonly string[];
  cwd?: string | null;
  /** The complete environment of the child (nothing else is inherited). */
  env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed; stdin is empty when absent. */
  input?: string | null;
  /** Seconds before the child's whole process group is killed; 0 or absent means 300. */
  timeoutSeconds?: number;
  /** Bytes kept of each of stdout and stderr (default 10 MiB); the rest is read and dropped. */
  maxOutputBytes?: number;
  /** The spawner to use instead of importing execa beside this file. */
  execa?: Execa;
}

/** The execute primitive's result (`ExecuteResult`), plus what a bounded, timed run adds. */
export interface ProcessResult {
  success: boolean;
  stdout: string;
  stderr: string;
  return_code: number;
  duration_ms: number;
  timed_out: boolean;
  /** True when stdout or stderr passed `maxOutputBytes` and was cut. */
  truncated: boolean;
}

/** Default output cap per stream. */
export const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
/** The original's default timeout in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 300;

/** How long output pipes may stay open after the command exited (or was killed) before rye stops reading. */
export const STREAM_GRACE_MS = 500;
const KILL_GRACE_MS = 200;

/**
 * Runs a command directly (never through a shell) in its own process group. At the timeout the whole
 * group is killed with SIGKILL. A descendant that left the group (`setsid`) may still hold the output
 * pipes: rye reads them for at most STREAM_GRACE_MS after the command exits or is killed, then stops,
 * so a run always ends within its timeout plus one second.
 */
export async function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  const started = performance.now();
  const cap = spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const timeoutSeconds = spec.timeoutSeconds && spec.timeoutSeconds > 0 ? spec.timeoutSeconds : DEFAULT_TIMEOUT_SECONDS;
  const problem = argvProblem(spec.command, spec.args, spec.env);
  if (problem) return notStarted(problem, started);
  const execa = spec.execa ?? ((await loadExeca()).execa as unknown as Execa);
  let child: SpawnedChild;
  try {
    child = execa(spec.command, [...spec.args], {
      cwd: spec.cwd ?? undefined,
      env: { ...spec.env },
      extendEnv: false,
      shell: false,
      detached: process.platform !== "win32",
      cleanup: true,
      reject: false,
      buffer: false,
      stripFinalNewline: false,
      ...(spec.input != null ? { input: spec.input } : { stdin: "ignore" as const }),
    });
  } catch (e) {
    return notStarted(`Failed to start '${spec.command}': ${spawnFailureReason(spec.command, e)}`, started);
  }
  const stdout = collect(child.stdout, cap);
  const stderr = collect(child.stderr, cap);
  let timedOut = false;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const stopReading = () => {
    for (const s of [child.stdout, child.stderr] as { destroy?: () => void }[]) s?.destroy?.();
  };
  // Escaped descendants keep the pipes open, and execa waits for the pipes: stop reading after a grace.
  const graceAfterExit = () => timedOut || timers.push(setTimeout(stopReading, STREAM_GRACE_MS));
  child.once?.("exit", graceAfterExit);
  timers.push(
    setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, () => child.kill("SIGKILL"));
      // What the group wrote is in the pipes already; only escaped descendants can still be writing.
      timers.push(setTimeout(stopReading, KILL_GRACE_MS));
    }, timeoutSeconds * 1000),
  );
  try {
    const [result, out, err] = await Promise.all([child, stdout, stderr]);
    const startFailed = result.exitCode === undefined && !result.signal && !timedOut;
    const stderrText = startFailed ? `Failed to start '${spec.command}': ${spawnFailureReason(spec.command, result)}` : err.text;
    return {
      success: !timedOut && result.exitCode === 0,
      stdout: out.text,
      stderr: timedOut ? `${stderrText}${stderrText && !stderrText.endsWith("\n") ? "\n" : ""}Process timed out after ${timeoutSeconds} seconds` : stderrText,
      return_code: result.exitCode ?? -1,
      duration_ms: performance.now() - started,
      timed_out: timedOut,
      truncated: out.truncated || err.truncated,
    };
  } finally {
    for (const t of timers) clearTimeout(t);
  }
}

function notStarted(message: string, started: number): ProcessResult {
  return { success: false, stdout: "", stderr: message, return_code: -1, duration_ms: performance.now() - started, timed_out: false, truncated: false };
}

function killGroup(pid: number | undefined, fallback: () => void): void {
  if (pid === undefined || process.platform === "win32") return fallback();
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    fallback();
  }
}

async function collect(stream: AsyncIterable<unknown> | null, cap: number): Promise<{ text: string; truncated: boolean }> {
  if (!stream) return { text: "", truncated: false };
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      const room = cap - kept;
      if (buf.length > room) truncated = true;
      if (room > 0) {
        const part = buf.length > room ? buf.subarray(0, room) : buf;
        chunks.push(part);
        kept += part.length;
      }
    }
  } catch {
    // A stream destroyed because the command never started has nothing more to give.
  }
  return { text: Buffer.concat(chunks).toString("utf8"), truncated };
}
