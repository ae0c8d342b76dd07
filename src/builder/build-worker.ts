// A build worker (worker-pool.ts starts them): receives one ShareTask on its port, compiles its share
// of the items, and posts what it built in batches, then `done`; a failure is posted as `error`.
// Each post bumps and notifies the SIGNAL slot, on which the main thread waits without an event loop.
import { workerData, type MessagePort } from "node:worker_threads";
import { compileShare, crashDetail, ItemCrash, SIGNAL, type BuiltItem, type WorkerTask } from "./compile-share.js";
import { receiveSources } from "./shared-sources.js";
import { OutputError } from "../output/output-fs.js";

/** Items posted at a time: few messages, and the main thread can merge while workers still compile. */
const BATCH = 64;

export type WorkerMessage = { built: BuiltItem[] } | { done: true } | { error: SerializedError };

export interface SerializedError {
  message: string;
  stack?: string;
  output?: { path: string; code: OutputError["code"]; errno?: string; reason: string };
  /** Any other error: the item being compiled (null between items) and the error in one line. */
  crash?: { source: string | null; detail: string };
}

const { port, shared } = workerData as { port: MessagePort; shared: SharedArrayBuffer };
const flags = new Int32Array(shared);

const post = (message: WorkerMessage) => {
  port.postMessage(message);
  Atomics.add(flags, SIGNAL, 1);
  Atomics.notify(flags, SIGNAL);
};

port.once("message", (message: WorkerTask) => {
  try {
    let batch: BuiltItem[] = [];
    compileShare({ ...message, sources: receiveSources(message.sources) }, flags, (item) => {
      batch.push(item);
      if (batch.length >= BATCH) post({ built: batch }), (batch = []);
    });
    if (batch.length > 0) post({ built: batch });
    post({ done: true });
  } catch (e) {
    const output = e instanceof OutputError ? { path: e.path, code: e.code, errno: e.errno, reason: e.reason } : undefined;
    const crash = output ? undefined : e instanceof ItemCrash ? { source: e.source, detail: e.detail } : { source: null, detail: crashDetail(e) };
    post({ error: { message: (e as Error)?.message ?? String(e), stack: (e as Error)?.stack, output, crash } });
  }
  port.close();
});
