// The main thread's side of checking: the project is checked on a worker thread, so that hover,
// completion and every other request are answered at once whatever a check costs, and a check that
// throws, runs out of memory or runs past its time limit costs a located diagnostic, never the
// server. Checks are numbered: a result older than the newest check asked for is dropped (a newer
// text is being checked), so only the latest version's diagnostics reach the editor.
import { existsSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { Worker } from "node:worker_threads";
import type { CheckFailure, CheckResult, FromChecker, ToChecker } from "./protocol.js";

/**
 * How long a check may go without finishing an item (or answering) before its thread is stopped
 * (RYE_LSP_CHECK_TIMEOUT_MS overrides): a limit on one item, so a large project's check is not cut.
 */
export const CHECK_TIMEOUT_MS = 30_000;

/** The bundled worker (npm run build), else dist's own module; null when running from sources. */
const WORKER_FILE = [new URL("../../cli-bundle/lsp-checks-check-worker.mjs", import.meta.url), new URL("./check-worker.js", import.meta.url)].find(
  (url) => url.protocol === "file:" && /\.m?js$/.test(url.pathname) && existsSync(url),
) ?? null;

export interface CheckEvents {
  result(r: CheckResult): void;
  failed(f: CheckFailure): void;
}

export class CheckThread {
  private worker: Worker | null = null;
  private local: ((m: ToChecker) => void) | null = null;
  private root: string | null = null;
  private readonly overlays = new Map<string, string>();
  private seq = 0;
  /** The files of each check asked for and not yet answered in whole, by number. */
  private readonly waiting = new Map<number, string[]>();
  private timer: NodeJS.Timeout | undefined;
  private readonly timeoutMs: number;

  constructor(private readonly events: CheckEvents, env: NodeJS.ProcessEnv = process.env) {
    const limit = Number(env.RYE_LSP_CHECK_TIMEOUT_MS);
    this.timeoutMs = Number.isFinite(limit) && limit > 0 ? limit : CHECK_TIMEOUT_MS;
  }

  /** The checker reads the project at `root` (sent again to every thread that replaces one). */
  open(root: string): void {
    this.root = root;
    this.send({ type: "open", root });
  }

  overlay(file: string, text: string | null): void {
    if (text === null) this.overlays.delete(file);
    else this.overlays.set(file, text);
    this.send({ type: "overlay", file, text });
  }

  reload(): void {
    this.send({ type: "reload" });
  }

  /**
   * Asks for a check after `files` changed; its answer comes through the events. The first check
   * starts the thread: until then it would only compete for the CPU with the editor's first answer.
   */
  check(files: string[], answered: string[] = []): void {
    if (!this.worker && !this.local) this.start();
    this.seq++;
    if (this.waiting.size === 0) this.arm();
    this.waiting.set(this.seq, files);
    this.send({ type: "check", seq: this.seq, files, answered });
  }

  /** Stops the checker's thread (the server is exiting). */
  dispose(): void {
    clearTimeout(this.timer);
    void this.worker?.terminate();
    this.worker = null;
  }

  /** Before the thread starts, nothing is sent: it is given the project and the buffers as it starts. */
  private send(m: ToChecker): void {
    if (this.worker) this.worker.postMessage(m);
    else this.local?.(m);
  }

  /** Starts a checker and gives it the project and the open buffers. */
  private start(): void {
    this.spawn();
    if (this.root !== null) this.send({ type: "open", root: this.root });
    for (const [file, text] of this.overlays) this.send({ type: "overlay", file, text });
  }

  /** Starts the checker: on a worker thread when a built one exists, else on this thread. */
  private spawn(): void {
    if (WORKER_FILE === null) {
      // Loaded on demand so that the worker's code is not evaluated on this thread too.
      const queue: ToChecker[] = [];
      this.local = (m) => void queue.push(m);
      void import("./serve-checks.js").then(({ serveChecks }) => {
        this.local = serveChecks((m) => this.receive(m));
        for (const m of queue.splice(0)) this.local(m);
      });
      return;
    }
    // A worker that runs out of memory ends alone (ERR_WORKER_OUT_OF_MEMORY) with this thread's own limit.
    const maxOldGenerationSizeMb = Math.floor(getHeapStatistics().heap_size_limit / 2 ** 20);
    const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb }, stdout: false, stderr: false });
    worker.unref();
    worker.on("message", (m: FromChecker) => this.receive(m));
    worker.on("error", (e) => this.replace(worker, `the checker stopped: ${e.message}`));
    worker.on("exit", (code) => this.replace(worker, `the checker's thread exited with code ${code}`));
    this.worker = worker;
  }

  private receive(m: FromChecker): void {
    if (m.type === "progress") return void (this.waiting.size > 0 && this.arm());
    const seq = m.type === "result" ? m.result.seq : m.failure.seq;
    if (m.type === "failed" || m.result.scope === "whole") for (const n of this.waiting.keys()) if (n <= seq) this.waiting.delete(n);
    clearTimeout(this.timer);
    if (this.waiting.size > 0) this.arm();
    // A newer check was asked for: this answer is about texts that are no longer the editor's.
    if (seq !== this.seq) return;
    if (m.type === "result") this.events.result(m.result);
    else this.events.failed(m.failure);
  }

  /** The time limit of the check under way: each answer and each progress report starts it again. */
  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.worker) this.replace(this.worker, `the check went ${this.timeoutMs} ms without finishing an item and was stopped`);
    }, this.timeoutMs);
    this.timer.unref();
  }

  /**
   * The checker's thread ended or is stopped: every check it owed is reported as failed, and a new
   * thread takes the project and the open buffers. It checks again on the next change.
   */
  private replace(worker: Worker, detail: string): void {
    if (worker !== this.worker) return;
    this.worker = null;
    clearTimeout(this.timer);
    void worker.terminate();
    const owed = this.waiting.size > 0;
    const files = [...new Set([...this.waiting.values()].flat())];
    this.waiting.clear();
    if (owed) this.events.failed({ seq: this.seq, files, detail });
    this.start();
  }
}
