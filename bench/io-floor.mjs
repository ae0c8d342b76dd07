// The floors the build and verify rows are held to: what the same file work costs with nothing else
// done, on this machine, in the same run.
//
//   node bench/io-floor.mjs write <project> <builtOut> <dest> <threads>
//     reads every file under <project>/.ai, then writes every file of <builtOut> (its bytes loaded
//     beforehand) to the same relative path under <dest>: a temporary file, its SHA-256, a rename.
//     The work is split over <threads> threads (the main one included), started before the clock.
//     Prints { ms, files, bytes } as a JSON line: the time from the first read to the last rename.
//   node bench/io-floor.mjs hash <dir>
//     reads and hashes every file under <dir> (a whole process, as `rye verify` is one).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** Every regular file under `dir`, as paths relative to it. */
function filesUnder(dir, prefix = "") {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    return e.isDirectory() ? filesUnder(dir, rel) : e.isFile() ? [rel] : [];
  });
}

/** Reads `reads`, then writes each [rel, bytes] under `dest` through a hashed, renamed temporary file. */
function work(reads, writes, dest) {
  let bytes = 0;
  for (const path of reads) bytes += readFileSync(path).length;
  const made = new Set();
  for (const [rel, data] of writes) {
    const path = join(dest, rel);
    const dir = dirname(path);
    if (!made.has(dir)) mkdirSync(dir, { recursive: true }), made.add(dir);
    createHash("sha256").update(data).digest("hex");
    writeFileSync(`${path}.tmp`, data);
    renameSync(`${path}.tmp`, path);
    bytes += data.length;
  }
  return bytes;
}

/** Every `n`th element of `xs` starting at `i`: the share of thread `i` of `n`. */
const share = (xs, i, n) => xs.filter((_, k) => k % n === i);

if (!isMainThread) {
  const { reads, writes, dest } = workerData;
  parentPort.once("message", () => parentPort.postMessage(work(reads, writes, dest)));
} else if (process.argv[2] === "write") {
  const [, , , project, builtOut, dest, threadArg] = process.argv;
  const threads = Math.max(1, Number(threadArg) || 1);
  const reads = filesUnder(join(project, ".ai")).map((rel) => join(project, ".ai", rel));
  const writes = filesUnder(builtOut).map((rel) => [rel, readFileSync(join(builtOut, rel))]);
  const workers = [];
  for (let i = 1; i < threads; i++) {
    const w = new Worker(new URL(import.meta.url), { workerData: { reads: share(reads, i, threads), writes: share(writes, i, threads), dest } });
    await new Promise((resolve) => w.once("online", resolve));
    workers.push(w);
  }
  const started = performance.now();
  const done = workers.map((w) => new Promise((resolve) => (w.once("message", resolve), w.postMessage("go"))));
  let bytes = work(share(reads, 0, threads), share(writes, 0, threads), dest);
  for (const b of await Promise.all(done)) bytes += b;
  const ms = performance.now() - started;
  for (const w of workers) await w.terminate();
  process.stdout.write(`${JSON.stringify({ ms, files: writes.length, reads: reads.length, bytes, threads })}\n`);
} else if (process.argv[2] === "hash") {
  const dir = process.argv[3];
  let n = 0;
  for (const rel of filesUnder(dir)) createHash("sha256").update(readFileSync(join(dir, rel))).digest("hex"), n++;
  process.stdout.write(`${n} files hashed\n`);
} else {
  console.error("usage: node bench/io-floor.mjs write <project> <builtOut> <dest> <threads> | hash <dir>");
  process.exit(2);
}
