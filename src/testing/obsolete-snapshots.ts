// Snapshot files no case of a whole run asks for (a case renamed or removed, a snapshot check
// dropped): reported, as Jest reports obsolete snapshots, and removed by --update.
import { rmSync } from "node:fs";
import { join, relative } from "node:path";
import { snapshotPath } from "./snapshots.js";
import type { TestFile } from "./test-file.js";
import { testTree } from "./test-tree.js";

/** The snapshot files (relative to the project root) that no snapshot check of `files` names. */
export function obsoleteSnapshots(root: string, files: readonly TestFile[]): string[] {
  const wanted = new Set<string>();
  for (const f of files) for (const c of f.cases) for (const e of c.expect) if (e.matcher.snapshot) wanted.add(snapshotPath(f.kind, f.id, c.name, e.field));
  const base = join(root, ".ai", "tests", "__snapshots__");
  return testTree(base).files.map((abs) => relative(root, abs).split("\\").join("/")).filter((rel) => rel.endsWith(".snap") && !wanted.has(rel));
}

export function removeSnapshots(root: string, rels: readonly string[]): void {
  for (const rel of rels) rmSync(join(root, rel), { force: true });
}
