import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { FileHashes } from "../../src/verify/file-hashes.js";

test("hashes read on worker threads equal the file's sha256, and a missing file stays missing", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-hashes-"));
  const paths: string[] = [];
  const expected = new Map<string, string>();
  for (let i = 0; i < 300; i++) {
    const path = join(dir, `f${i}.js`);
    // Sizes around the worker's read buffer too, so a file read in several chunks is covered.
    const text = i === 7 ? "x".repeat((1 << 20) + 123) : `export const n = ${i};\n`.repeat(i);
    writeFileSync(path, text);
    paths.push(path);
    expected.set(path, createHash("sha256").update(text).digest("hex"));
  }
  const missing = join(dir, "absent.js");
  paths.push(missing);
  const hashes = new FileHashes();
  await hashes.prefetch(paths, 1);
  for (const [path, hash] of expected) expect(hashes.of(path)).toBe(hash);
  expect(hashes.of(missing)).toBeNull();
  // A file changed after the prefetch keeps the prefetched hash (one read per file, as before), which
  // also shows the hashes came from the workers; on one core there are none.
  writeFileSync(paths[3]!, "changed");
  if (availableParallelism() >= 2) expect(hashes.of(paths[3]!)).toBe(expected.get(paths[3]!));
});
