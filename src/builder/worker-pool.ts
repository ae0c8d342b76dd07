// Runs a ShareTask on the main thread and on build workers at once, synchronously: the build stays a
// plain function call (--watch and the in-process callers need no event loop turn). The main thread
// compiles its own share, then blocks on a shared counter (Atomics.wait) and reads the workers'
// messages with receiveMessageOnPort. A blocked thread hears no 'exit' event, so the workers are
// started by a small supervisor thread that does: a worker that dies before it is done (a crash,
// out of memory, a module that does not load) is reported through it and fails the build.
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { compileShare, FAILED, ItemCrash, SHARED_SLOTS, SIGNAL, type BuiltItem, type ShareTask } from "./compile-share.js";
import { shareSources, type SourceOnDisk } from "./shared-sources.js";
import { heapBudget } from "./heap-budget.js";
import type { SerializedError, WorkerMessage } from "./build-worker.js";
import { OutputError } from "../output/output-fs.js";
import type { SourceFile } from "../model/source.js";
import { factsOf } from "../project/source-facts.js";

/**
 * A build worker's young generation, in MB (V8's default is 48): most of what a worker allocates
 * lives for one item. 16 cost no measurable time and ~20 MB of peak RSS less than the default; 8
 * another ~12 MB less for ~5 % more CPU at 10k items (docs/performance.md).
 */
const YOUNG_MB = 8;

/**
 * A build worker's old generation limit, in MB. V8 lets a heap grow between full collections by a
 * factor that is smaller when its limit is below 2 GB (1.3× at 256 MB up to 4× from 2 GB on;
 * `MaxGrowingFactor` in V8's heap-controller.cc), so a limit near what the worker needs keeps the
 * garbage it carries down: at 10k items, peak RSS 291–300 → 275–277 MB in the runs where the main
 * thread's last full collection came late (docs/performance.md, "Peak RSS"). A worker holds a few KB per source
 * (lookup views, records) and one item's parse, so the limit grows with both, far above them: a
 * worker that reached it would fail the build (RYE8006).
 */
export function workerOldGenerationMb(sources: number, largestSourceChars: number): number {
  return 256 + Math.ceil(sources / 20) + Math.ceil((largestSourceChars / 1024 / 1024) * 256);
}

/** CommonJS, run with `eval`: starts the workers and reports each one's exit. */
const SUPERVISOR = `
const { Worker, workerData } = require("node:worker_threads");
const { entry, shared, ports, report, oldMb } = workerData;
const flags = new Int32Array(shared);
ports.forEach((port, worker) => {
  let error = "";
  const w = new Worker(new URL(entry), { workerData: { port, shared }, transferList: [port], resourceLimits: { maxYoungGenerationSizeMb: ${YOUNG_MB}, maxOldGenerationSizeMb: oldMb } });
  w.on("error", (e) => { error = (e && e.stack) || String(e); });
  w.on("exit", (code) => {
    report.postMessage({ worker, code, error });
    Atomics.add(flags, ${SIGNAL}, 1);
    Atomics.notify(flags, ${SIGNAL});
  });
});
`;

interface ExitReport {
  worker: number;
  code: number;
  error: string;
}

/**
 * Build workers started ahead of their task: each boots (loads the compiler) and then waits for one
 * ShareTask on its port, so a cold build can start them before it reads the sources (see
 * `startWorkersEarly` in compile-items.ts). Close them when no task is posted; `compileInParallel`
 * closes the ones it was given.
 */
export class BuildWorkers {
  readonly flags = new Int32Array(new SharedArrayBuffer(SHARED_SLOTS * 4));
  readonly channels: MessageChannel[];
  readonly report = new MessageChannel();
  private readonly supervisor: Worker;

  /** `sources` and `largestSource` (in bytes) size each worker's heap limit (workerOldGenerationMb). */
  constructor(readonly count: number, entry: URL, sources: number, largestSource: number) {
    this.channels = Array.from({ length: count }, () => new MessageChannel());
    const ports = this.channels.map((c) => c.port2);
    this.supervisor = new Worker(SUPERVISOR, {
      eval: true,
      workerData: { entry: entry.href, shared: this.flags.buffer, ports, report: this.report.port2, oldMb: workerOldGenerationMb(sources, largestSource) },
      transferList: [...ports, this.report.port2],
    });
    this.supervisor.unref();
  }

  /** Stops every worker (what they staged is discarded with the transaction); safe to call twice. */
  close(): void {
    // After a failure the others stop emitting at once; terminating the supervisor ends them.
    Atomics.store(this.flags, FAILED, 1);
    void this.supervisor.terminate();
    for (const c of this.channels) c.port1.close();
    this.report.port1.close();
  }
}

/**
 * Compiles `task` on this thread and on build workers (started here from `entry`, or the ones
 * given, which need not have booted yet); returns every built item, ordered by position. Throws
 * when a worker fails or stops before it is done, after stopping the others.
 */
export function compileInParallel(
  task: ShareTask,
  workers: number | BuildWorkers,
  entry: URL,
  failed: boolean,
  onProgress?: (built: number) => void,
  onDisk?: SourceOnDisk,
  /** Sees each built item as it comes in, from any thread, while this thread still compiles its share. */
  onArrived?: (item: BuiltItem) => void,
): BuiltItem[] {
  const pool = typeof workers === "number" ? new BuildWorkers(workers, entry, task.sources.length, largest(task.sources)) : workers;
  const { flags, channels, report } = pool;
  if (failed) Atomics.store(flags, FAILED, 1);
  try {
    const message = { ...task, sources: shareSources(task.sources, onDisk) };
    for (const c of channels) c.port1.postMessage(message);
    const built: BuiltItem[] = [];
    const done = new Set<number>();
    const drain = (i: number) => {
      for (let m = receiveMessageOnPort(channels[i]!.port1); m; m = receiveMessageOnPort(channels[i]!.port1)) {
        const message = m.message as WorkerMessage;
        if ("built" in message) {
          built.push(...message.built);
          if (onArrived) for (const item of message.built) onArrived(item);
        } else if ("done" in message) done.add(i);
        else throw workerFailure(message.error, task.outDir);
      }
    };
    // Reads what the workers posted; throws as soon as one failed or stopped before it was done.
    const poll = () => {
      for (let i = 0; i < pool.count; i++) drain(i);
      for (let m = receiveMessageOnPort(report.port1); m; m = receiveMessageOnPort(report.port1)) {
        const exit = m.message as ExitReport;
        // A worker's last messages reach its port before its exit is reported: read them first.
        drain(exit.worker);
        if (!done.has(exit.worker)) throw stopped(exit, task.outDir);
      }
      onProgress?.(built.length);
    };
    let polled = Atomics.load(flags, SIGNAL);
    const budget = heapBudget();
    compileShare(task, flags, (item) => {
      built.push(item);
      onArrived?.(item);
      budget.item();
      // Between items, only when a worker signalled: a failure stops this thread early too.
      const now = Atomics.load(flags, SIGNAL);
      if (now === polled) return onProgress?.(built.length);
      polled = now;
      poll();
    });
    while (done.size < pool.count) {
      const seen = Atomics.load(flags, SIGNAL);
      poll();
      if (done.size < pool.count) Atomics.wait(flags, SIGNAL, seen);
    }
    budget.settle();
    return built.sort((a, b) => a.at - b.at);
  } finally {
    pool.close();
  }
}

/** The length of the longest text (in bytes when its file's size is known: its text is no longer). */
function largest(sources: readonly SourceFile[]): number {
  let n = 0;
  for (const s of sources) n = Math.max(n, factsOf(s)?.size ?? s.text.length);
  return n;
}

function workerFailure(error: SerializedError, outDir: string): Error {
  if (error.output) return new OutputError(error.message, error.output.path, error.output.code, error.output.errno, error.output.reason);
  if (error.crash) return new ItemCrash(error.crash.source, error.crash.detail);
  return new OutputError(`a build worker failed: ${error.message}`, outDir, "RYE8006", undefined, `a build worker failed (${error.message}); nothing was written`);
}

function stopped(exit: ExitReport, outDir: string): Error {
  const why = exit.error ? `: ${exit.error.split("\n")[0]}` : "";
  const reason = `a build worker stopped unexpectedly (exit code ${exit.code}${why}); nothing was written (\`--jobs 1\` builds on this thread alone)`;
  return new OutputError(reason, outDir, "RYE8006", undefined, reason);
}
