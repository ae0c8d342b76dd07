// How the main thread hears of a build worker that fails: it blocks on a shared counter without an
// event loop, so every way a worker can end must wake it with a clear error, never leave it waiting.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { BuildWorkers, compileInParallel, workerOldGenerationMb } from "../../src/builder/worker-pool.js";
import { earlyWorkers } from "../../src/builder/compile-items.js";
import type { ShareTask } from "../../src/builder/compile-share.js";
import { OutputError } from "../../src/output/output-fs.js";

const example = fileURLToPath(new URL("../../.ai/directives/examples/", import.meta.url));

function task(): ShareTask {
  const ids = ["greet", "count_words"];
  return {
    sources: ids.map((id) => ({ kind: "directive", id: `examples/${id}`, path: `.ai/directives/examples/${id}.md`, text: readFileSync(join(example, `${id}.md`), "utf8") })),
    hookConfig: null,
    emitTs: false,
    version: "0.0.0",
    items: [0, 1],
    before: [[], []],
    chunk: 1,
    threads: 2,
    key: null,
    timestamp: "2026-01-01T00:00:00Z",
    outDir: join(mkdtempSync(join(tmpdir(), "rye-pool-")), "out"),
    owned: new Set(),
    trusted: false,
  };
}

/** A worker module: waits for its task, then runs `body` (with `post`, which signals as build-worker.ts does). */
const worker = (body: string) =>
  new URL(`data:text/javascript,${encodeURIComponent(`
import { workerData } from "node:worker_threads";
const { port, shared } = workerData;
const flags = new Int32Array(shared);
const post = (m) => { port.postMessage(m); Atomics.add(flags, 2, 1); Atomics.notify(flags, 2); };
port.once("message", () => { ${body} });
`)}`);

function failure(entry: URL): OutputError {
  try {
    compileInParallel(task(), 1, entry, false);
  } catch (e) {
    expect(e).toBeInstanceOf(OutputError);
    return e as OutputError;
  }
  throw new Error("the build did not fail");
}

describe("build workers that fail", () => {
  test("one that exits before it is done: RYE8006 naming the exit code", () => {
    const e = failure(worker(`post({ built: [] }); process.exit(9);`));
    expect(e.code).toBe("RYE8006");
    expect(e.reason).toBe("a build worker stopped unexpectedly (exit code 9); nothing was written (`--jobs 1` builds on this thread alone)");
  });

  test("one that outgrows its heap limit: stopped by V8 at the limit, RYE8006 says so", () => {
    // Up to 600 MB unless stopped: the limit for this task is ~257 MB, so reaching the exit means no limit was set.
    const e = failure(worker(`const keep = []; for (let i = 0; i < 600; i++) keep.push(new Array(131072).fill(i + 0.5)); process.exit(9);`));
    expect(e.code).toBe("RYE8006");
    expect(e.reason).toMatch(/^a build worker stopped unexpectedly \(exit code 1: .*(out of memory|memory limit).*\); nothing was written/i);
  });

  test("the heap limit grows with the project's sources and with its largest one", () => {
    expect(workerOldGenerationMb(2, 2_000)).toBe(258);
    // The generated 10k: a few KB per source.
    expect(workerOldGenerationMb(10_500, 4_000)).toBe(256 + 525 + 1);
    // One source of 4 MB (RYE_MAX_FILE_SIZE raised): 1 GB more for its parse.
    expect(workerOldGenerationMb(600, 4 * 1024 * 1024)).toBe(256 + 30 + 1024);
  });

  test("one that throws while loading: its error is named", () => {
    const e = failure(new URL(`data:text/javascript,${encodeURIComponent('throw new Error("cannot load the compiler");')}`));
    expect(e.reason).toMatch(/^a build worker stopped unexpectedly \(exit code 1: Error: cannot load the compiler\); nothing was written \(`--jobs 1` builds on this thread alone\)$/);
  });

  test("one that reports a failure to write: the same output error, at the same file", () => {
    const e = failure(worker(`post({ error: { message: "no space left on the device while writing /x/out/a.js", output: { path: "/x/out/a.js", code: "RYE8006", errno: "ENOSPC", reason: "no space left on the device while writing it" } } });`));
    expect([e.path, e.code, e.errno, e.reason]).toEqual(["/x/out/a.js", "RYE8006", "ENOSPC", "no space left on the device while writing it"]);
  });

  test("one that reports any other error: a build failure with its message", () => {
    const e = failure(worker(`post({ error: { message: "compiler bug" } });`));
    expect(e.reason).toBe("a build worker failed (compiler bug); nothing was written");
  });

  test("a worker that finishes: every item once, in order", () => {
    const built = compileInParallel(task(), 1, worker(`post({ done: true });`), false);
    expect(built.map((b) => b.at)).toEqual([0, 1]);
    expect(built.every((b) => b.outcome.compiled && b.records.length === 2 && b.staged.length === 2)).toBe(true);
  });
});

/** A worker module that cannot load: a build that starts workers from it fails. */
const unloadable = new URL(`data:text/javascript,${encodeURIComponent('throw new Error("a second set of workers was started");')}`);
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe("items as they arrive", () => {
  test("each built item is seen once, whichever thread built it, before the build returns", () => {
    // Claims item 0 as soon as it boots (before the task is posted) and reports it built with one lookup.
    const entry = new URL(`data:text/javascript,${encodeURIComponent(`
import { workerData } from "node:worker_threads";
const { port, shared } = workerData;
const flags = new Int32Array(shared);
Atomics.store(flags, 0, 1);
const post = (m) => { port.postMessage(m); Atomics.add(flags, 2, 1); Atomics.notify(flags, 2); };
port.once("message", () => {
  post({ built: [{ at: 0, outcome: { parseDiagnostics: [], diagnostics: [], compiled: true }, records: [], staged: [], lookups: [["knowledge", "from/worker"]] }] });
  post({ done: true });
});
`)}`);
    const pool = new BuildWorkers(1, entry, 2, 2_000);
    sleep(200);
    const seen: [number, string[]][] = [];
    const built = compileInParallel(task(), pool, unloadable, false, undefined, undefined, (item) => seen.push([item.at, item.lookups.map((l) => l.join(":"))]));
    expect(built.map((b) => b.at)).toEqual([0, 1]);
    expect(seen.sort((a, b) => a[0] - b[0])).toEqual([
      [0, ["knowledge:from/worker"]],
      [1, built[1]!.lookups.map((l) => l.join(":"))],
    ]);
  });
});

describe("build workers started before their task (a first build starts them while it reads)", () => {
  test("they take the task when it is posted, and no others are started", () => {
    const pool = new BuildWorkers(1, worker(`post({ done: true });`), 2, 2_000);
    sleep(200);
    const built = compileInParallel(task(), pool, unloadable, false);
    expect(built.map((b) => b.at)).toEqual([0, 1]);
  });

  test("closed unused, they stop", () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-pool-early-"));
    const beat = join(dir, "beat");
    // Touches a file every 10 ms for as long as it runs.
    const entry = new URL(`data:text/javascript,${encodeURIComponent(`import { writeFileSync } from "node:fs"; setInterval(() => writeFileSync(${JSON.stringify(beat)}, String(Date.now())), 10);`)}`);
    const pool = new BuildWorkers(1, entry, 2, 2_000);
    for (let i = 0; i < 300 && !statSync(beat, { throwIfNoEntry: false }); i++) sleep(10);
    expect(statSync(beat, { throwIfNoEntry: false })).toBeDefined();
    pool.close();
    sleep(200);
    const last = readFileSync(beat, "utf8");
    sleep(200);
    expect(readFileSync(beat, "utf8")).toBe(last);
  });

  test("are started for a first build of 500 files or more on more than one thread, sized by the files a build reads", () => {
    expect(earlyWorkers(1, { count: 10_000, largest: 4_000 }, 1 << 20)).toBeNull();
    expect(earlyWorkers(2, { count: 499, largest: 4_000 }, 1 << 20)).toBeNull();
    expect(earlyWorkers(2, { count: 10_000, largest: 4_000 }, 1 << 20)).toEqual({ workers: 1, sources: 10_000, largest: 4_000 });
    // Every thread gets at least a chunk of 32 items to claim.
    expect(earlyWorkers(64, { count: 640, largest: 4_000 }, 1 << 20)?.workers).toBe(19);
    // A file of 10 GB is reported (RYE1005), not read: it does not size a worker's heap.
    expect(earlyWorkers(2, { count: 600, largest: 10 * 1024 ** 3 }, 1 << 20)?.largest).toBe(1 << 20);
  });
});
