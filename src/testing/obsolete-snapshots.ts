// Snapshot files no case of a whole run asks for (a case renamed or removed, a snapshot check
// dropped): reported, as Jest reports obsolete snapshots, and removed by --update. The folder is
// listed only when it and every folder above it is plain, so a linked `__snapshots__` never makes
// files elsewhere look obsolete, and each removal goes through snapshot-files.ts.
import { join, relative } from "node:path";
import { snapshotPath } from "./snapshots.js";
import { SNAPSHOT_FOLDER, removeSnapshot, snapshotEntry, snapshotFolderPlain } from "./snapshot-files.js";
import type { TestFile } from "./test-file.js";
import { testTree } from "./test-tree.js";

/** The snapshot files (relative to the project root) that no snapshot check of `files` names; throws PathRefused when the folder is not plain. */
export function obsoleteSnapshots(root: string, files: readonly TestFile[]): string[] {
  if (!snapshotFolderPlain(root)) return [];
  const wanted = new Set<string>();
  for (const f of files) for (const c of f.cases) for (const e of c.expect) if (e.matcher.snapshot) wanted.add(snapshotPath(f.kind, f.id, c.name, e.field));
  return testTree(join(root, SNAPSHOT_FOLDER)).files.map((abs) => relative(root, abs).split("\\").join("/")).filter((rel) => rel.endsWith(".snap") && !wanted.has(rel));
}

/** Removes each; throws PathRefused, having removed none, when a path is not plain. */
export function removeSnapshots(root: string, rels: readonly string[]): void {
  for (const rel of rels) snapshotEntry(root, rel);
  for (const rel of rels) removeSnapshot(root, rel);
}
