// How fast the file system creates files right now, and a wait until that is its usual speed.
//
// ext4 without a journal (the disk of the machines in docs/performance.md) does not hand out an
// inode freed in the last minute (the last six while its inode table is not yet written back):
// each new file scans past every recently freed inode of its block group (find_inode_bit and
// recently_deleted in fs/ext4/ialloc.c). After a test run or another bench deleted tens of
// thousands of files nearby, creating a file took 0.1–0.6 ms instead of ~30 µs, and a cold build
// of 10k directives (21k files) 7–10 s instead of ~5 s. Builds are measured once that has passed;
// the report says how long the bench waited and what it saw.
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Files made per probe, in folders of 100 as a build makes them; they stay until the bench deletes its folder (deleting them would start the wait over). */
const FILES = 2000;
const PER_FOLDER = 100;
/** Creating a file this fast or faster counts as settled. */
export const SETTLED_US = 60;
const PAUSE_S = 15;
const MAX_WAIT_S = 240;

/**
 * Writes everything written so far to the disk (`sync`): a freed inode's table then no longer
 * waits to be written back, which shortens the kernel's wait for it to a minute, and a timed build
 * does not share the cores and the disk with writing back what was generated just before it.
 * Where `sync` is missing, nothing is waited for.
 */
export function flushWrites() {
  try {
    execFileSync("sync", [], { stdio: "ignore" });
  } catch {
    // Not on this platform: nothing the bench can ask for.
  }
}

/** Microseconds to create, write and close one small file in new folders under `dir`. */
function probe(dir) {
  const bytes = Buffer.alloc(1024, 97);
  const t = performance.now();
  let folder = "";
  for (let i = 0; i < FILES; i++) {
    if (i % PER_FOLDER === 0) mkdirSync((folder = join(dir, `d${i / PER_FOLDER}`)), { recursive: true });
    const fd = openSync(join(folder, `f${i}`), "wx");
    writeSync(fd, bytes);
    closeSync(fd);
  }
  return ((performance.now() - t) * 1000) / FILES;
}

const sleep = (s) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, s * 1000);

/**
 * Probes `dir` until creating a file takes at most SETTLED_US, for at most MAX_WAIT_S seconds.
 * Returns the probes (µs per file), the seconds waited, and whether it settled.
 */
export function settleFileSystem(dir, log) {
  const probes = [];
  let waited = 0;
  for (;;) {
    flushWrites();
    const us = probe(join(dir, `p${probes.length}`));
    probes.push(Number(us.toFixed(1)));
    if (us <= SETTLED_US) return { probes, waitedS: waited, settled: true };
    if (waited >= MAX_WAIT_S) return { probes, waitedS: waited, settled: false };
    log(`file system: creating a file takes ${us.toFixed(0)} µs (settled: ≤ ${SETTLED_US}); files deleted recently are still being released, probing again in ${PAUSE_S} s…`);
    sleep(PAUSE_S);
    waited += PAUSE_S;
  }
}
