import { createHash } from "node:crypto";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { expect, test } from "vitest";
import { FileHashes } from "../../src/verify/file-hashes.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

test("hashes shared by this thread and worker threads equal each file's sha256, in order; absent, linked and null paths hash to null", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-hashes-"));
  const paths: (string | null)[] = [];
  const expected: (string | null)[] = [];
  for (let i = 0; i < 300; i++) {
    const path = join(dir, `f${i}.js`);
    // Sizes around the read buffer too (one byte under, exactly, over), so every way a read ends is covered.
    const big = { 7: (1 << 20) - 1, 8: 1 << 20, 9: (1 << 20) + 123 }[i];
    const text = big === undefined ? `export const n = ${i};\n`.repeat(i) : "x".repeat(big);
    writeFileSync(path, text);
    paths.push(path);
    expected.push(sha(text));
  }
  paths.push(join(dir, "absent.js"), null);
  expected.push(null, null);
  symlinkSync(paths[3]!, join(dir, "link.js"));
  paths.push(join(dir, "link.js"));
  expected.push(null);
  // Worker threads alone (where there is more than one core), this thread alone, and both sharing the list.
  // (Where workers ran, this thread hashed nothing: a worker that failed would have left it its share.)
  const elsewhere = new (class extends FileHashes {
    override of(path: string): string | null {
      if (availableParallelism() > 1) throw new Error(`hashed on this thread: ${path}`);
      return super.of(path);
    }
  })();
  expect(await elsewhere.start(paths, { minimum: 1, here: false }).finish()).toEqual(expected);
  expect(await new FileHashes().start(paths).finish()).toEqual(expected);
  expect(await new FileHashes().start(paths, { minimum: 1 }).finish()).toEqual(expected);
  // Workers booted ahead and then given a list under the minimum are let go: this thread hashes it.
  const ahead = new FileHashes();
  ahead.spawn();
  expect(await ahead.start(paths.slice(0, 20)).finish()).toEqual(expected.slice(0, 20));
  expect(new FileHashes().of(paths[0]!)).toBe(sha(""));
});

test.skipIf(process.platform === "win32")("a FIFO is not read and does not hang the hashing, on this thread or another", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-hashes-"));
  const fifo = join(dir, "pipe.js");
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  expect(new FileHashes().of(fifo)).toBeNull();
  expect(await new FileHashes().start([fifo], { minimum: 1, here: false }).finish()).toEqual([null]);
});
