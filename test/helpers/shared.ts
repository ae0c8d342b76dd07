import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { test } from "vitest";

/**
 * `../shared` beside the repository: present in development and CI, absent on a user's clone.
 * RYE_SHARED_DIR points elsewhere (a mutation sandbox lives deeper in the tree; a missing path
 * shows what a clone without it runs).
 */
export const SHARED_DIR = process.env.RYE_SHARED_DIR
  ? resolve(process.env.RYE_SHARED_DIR)
  : resolve(fileURLToPath(new URL("../../..", import.meta.url)), "shared");
export const hasShared = existsSync(resolve(SHARED_DIR, "vectors/rye-vectors.json"));
/** Shown as the reason when a suite that reads ../shared is skipped. */
export const SHARED_SKIP_REASON = `../shared not found at ${SHARED_DIR}: conformance vectors and corpus tests skipped`;

/**
 * Rows for a `test.each` (or loop of tests) generated from ../shared data. Without ../shared the
 * rows are empty and `test.each([])` registers nothing, so the group would vanish from the report:
 * one skipped test names the group and says why instead. With ../shared present, an empty group is
 * a failure (a renamed file or system would otherwise pass by testing nothing).
 */
export function sharedRows<T>(group: string, rows: readonly T[]): T[] {
  if (!hasShared) test.skip(`${group}: ${SHARED_SKIP_REASON}`, () => {});
  else if (rows.length === 0) test(`${group}: ../shared holds rows for this group`, () => {
    throw new Error(`no ${group} found in ${SHARED_DIR}`);
  });
  return [...rows];
}

export interface Check {
  op: string;
  path?: string;
  value?: unknown;
  field?: string;
}

export interface Vector {
  id: string;
  system: string;
  function: string;
  era: string;
  expected: any;
  expected_contains?: Check[];
  expected_is_exception?: boolean;
  notes: string;
  [key: string]: any;
}

let cache: Vector[] | undefined;

/** All public vectors (empty when ../shared is absent). */
export function loadVectors(): Vector[] {
  if (!hasShared) return [];
  cache ??= JSON.parse(readFileSync(resolve(SHARED_DIR, "vectors/rye-vectors.json"), "utf8")) as Vector[];
  return cache;
}

/** Vectors of one system and era, optionally filtered by the original function's name. */
export function vectorsFor(system: string, era = "current", fn?: string): Vector[] {
  return loadVectors().filter(
    (v) => v.system === system && v.era === era && (fn === undefined || v.function.split("::").pop()!.startsWith(fn)),
  );
}

/** Reads a dotted path with `[i]` indexes, as the vectors' README defines it. */
export function at(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  let cur: any = value;
  for (const part of path.replace(/\[(\d+)\]/g, ".$1").split(".").filter(Boolean)) {
    if (cur === null || cur === undefined) return undefined;
    cur = cur[part];
  }
  return cur;
}
