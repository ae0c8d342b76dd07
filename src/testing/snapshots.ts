// Stored snapshots: one plain file per case and field under `.ai/tests/__snapshots__/`, so a
// changed prompt shows in a pull request as a diff of the prompt itself. A missing snapshot is
// written (Jest's convention) unless the run is in CI mode; `--update` rewrites the ones that differ.
import { createHash } from "node:crypto";
import { readRegularText } from "../project/read-regular.js";
import { join } from "node:path";
import type { ItemKind } from "../model/source.js";
import { shown } from "./expectations.js";
import { lineDiff } from "./line-diff.js";
import { SNAPSHOT_FOLDER, PathRefused, snapshotEntry, writeSnapshot } from "./snapshot-files.js";
import { TEST_FOLDERS } from "./test-file.js";

export interface SnapshotOptions {
  /** The project root. */
  root: string;
  /** Rewrite snapshots that differ. */
  update: boolean;
  /** Fail on a missing snapshot instead of writing it. */
  ci: boolean;
}

export type SnapshotOutcome = { status: "matched" | "written" | "updated" } | { status: "failed"; message: string };

/** The snapshot file of one case's field, relative to the project root. */
export function snapshotPath(kind: ItemKind, id: string, caseName: string, field: string): string {
  const slug = caseName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "case";
  const tag = createHash("sha256").update(caseName).digest("hex").slice(0, 6);
  return [SNAPSHOT_FOLDER, TEST_FOLDERS[kind], ...id.split("/"), `${slug}-${tag}.${field}.snap`].join("/");
}

/** Compares `value` with its stored snapshot, writing or rewriting it as the options say. */
export function matchSnapshot(rel: string, value: unknown, options: SnapshotOptions): SnapshotOutcome {
  const text = typeof value === "string" ? value : `${shown(value)}\n`;
  try {
    return compare(rel, text, options);
  } catch (e) {
    const why = e instanceof PathRefused ? `refused: ${e.message}` : `the snapshot ${rel} cannot be written: ${(e as Error).message}`;
    return { status: "failed", message: why };
  }
}

/** Throws PathRefused when a link or special file lies on the snapshot's path. */
function compare(rel: string, text: string, options: SnapshotOptions): SnapshotOutcome {
  if (snapshotEntry(options.root, rel) === "absent") {
    if (options.ci && !options.update) return { status: "failed", message: `no stored snapshot at ${rel} (CI mode writes none; run rye test --update and commit it)` };
    writeSnapshot(options.root, rel, text);
    return { status: "written" };
  }
  let stored: string;
  try {
    stored = readRegularText(join(options.root, rel), { kind: "config", link: { links: "refuse" } });
  } catch (e) {
    return { status: "failed", message: `the stored snapshot ${rel} cannot be read: ${(e as Error).message}` };
  }
  if (stored === text) return { status: "matched" };
  if (options.update) {
    writeSnapshot(options.root, rel, text);
    return { status: "updated" };
  }
  return { status: "failed", message: `does not match the snapshot ${rel} (- stored, + now; rye test --update rewrites it):\n${lineDiff(stored, text)}` };
}
