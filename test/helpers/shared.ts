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

/** A feature a test checks against ../shared, and the tests of the project's own fixtures that check it without ../shared. */
export interface SharedCoverage {
  /** The test file that reads ../shared (and skips, saying why, without it). */
  file: string;
  feature: string;
  /** [test file, a part of a test's full name]: each must match at least one test that runs and passes without ../shared. */
  coveredBy: ReadonlyArray<readonly [file: string, name: string]>;
}

/**
 * Every test file that reads ../shared, with the project's own tests that cover the same feature.
 * test/first-hour/without-shared.test.ts holds this list to the files that exist and runs each
 * named test without ../shared; a new file reading ../shared must add its row.
 */
export const SHARED_COVERAGE: readonly SharedCoverage[] = [
  { file: "test/corpus.test.ts", feature: "parsing and compiling real directives", coveredBy: [["test/parse/xml-simple.test.ts", "accepts a typical metadata block"], ["test/emit/render.test.ts", "every input form, Python str() values, and the seed 004 prompt"]] },
  { file: "test/agents/launch.test.ts", feature: "agent launch arguments stay literal", coveredBy: [["test/agents/launch.test.ts", "is one literal argument"]] },
  { file: "test/analyze/near-miss.test.ts", feature: "near-miss warnings", coveredBy: [["test/analyze/near-miss.test.ts", "placeholder kinds one edit away"], ["test/analyze/near-miss.test.ts", "markup the original never reads"]] },
  { file: "test/emit/python-values.test.ts", feature: "Python values through every entry point", coveredBy: [["test/emit/python-values.test.ts", "the compiled module"], ["test/runtime/pystr.test.ts", "floats use Python's repr"]] },
  { file: "test/emit/search-load-actions.test.ts", feature: "search and load actions", coveredBy: [["test/emit/search-load-actions.test.ts", "search and load elements are actions"]] },
  { file: "test/exec/vectors.test.ts", feature: "env and parameter templating, and values through a shell", coveredBy: [["test/exec/templating.test.ts", "expands upper-case names with defaults"], ["test/exec/templating.test.ts", "quotes like shlex.quote"], ["test/exec/resolve-env.test.ts", "layers OS env, .env, static vars"]] },
  { file: "test/parse/read-block-yaml.test.ts", feature: "knowledge metadata YAML", coveredBy: [["test/parse/read-block-yaml.test.ts", "readBlockYaml with the YAML 1.1 schema of knowledge metadata"]] },
  { file: "test/parse/vectors.test.ts", feature: "parsing directives as the original does", coveredBy: [["test/parse/xml-simple.test.ts", "accepts a typical metadata block"], ["test/parse/placeholders.test.ts", "on examples"]] },
  { file: "test/runtime/py-values.test.ts", feature: "Python values in metadata and validation", coveredBy: [["test/runtime/py-values.test.ts", "str() of Python values given from JavaScript"], ["test/runtime/py-values.test.ts", "validate: the executor's keys are options"]] },
  { file: "test/runtime/vectors.test.ts", feature: "input interpolation and validation", coveredBy: [["test/runtime/pystr.test.ts", "input refs: one pass"], ["test/emit/render.test.ts", "validate returns the original payloads"]] },
  { file: "test/sign/corpus.test.ts", feature: "signature lines of real files and rye verify", coveredBy: [["test/sign/verify-item.test.ts", "reports a changed item"], ["test/sign/signature-line.test.ts", "round-trips a line"]] },
  { file: "test/sign/sign-sources.test.ts", feature: "signing sources as sign_content does", coveredBy: [["test/sign/sign-sources.test.ts", "signSource re-signing a stale item"]] },
  { file: "test/sign/vectors.test.ts", feature: "signature lines, hashes and canonical JSON", coveredBy: [["test/sign/signature-line.test.ts", "covers only <directive>"], ["test/sign/integrity.test.ts", "sorts keys at every level"]] },
  { file: "test/thread/context-vectors.test.ts", feature: "context interpolation", coveredBy: [["test/thread/context-vectors.test.ts", "context interpolation (own cases)"]] },
  { file: "test/thread/corpus-context.test.ts", feature: "extends chains and context of real directives", coveredBy: [["test/thread/render-thread.test.ts", "contextPlan: chain root first"]] },
  { file: "test/thread/prompt-vectors.test.ts", feature: "the prompt a thread starts with", coveredBy: [["test/thread/render-thread.test.ts", "renderThread: system message and first user message"]] },
  { file: "test/tools/corpus-compile.test.ts", feature: "rye build over tools", coveredBy: [["test/tools/build-chain.test.ts", "follows executor ids from the tool to the primitive"], ["test/tools/read-python-metadata.test.ts", "reads strings with every prefix"]] },
  { file: "test/tools/corpus.test.ts", feature: "reading tool metadata", coveredBy: [["test/tools/read-python-metadata.test.ts", "reads numbers, booleans, None"], ["test/tools/read-yaml-tool.test.ts", "resolves plain scalars with YAML 1.1 rules"]] },
  { file: "test/tools/read-block-yaml.test.ts", feature: "tool YAML", coveredBy: [["test/tools/read-block-yaml.test.ts", "reads the block style tool files use as PyYAML does"]] },
  { file: "test/differential/oracle.test.ts", feature: "render and validate against the original's code", coveredBy: [["test/emit/render.test.ts", "every input form"], ["test/emit/render.test.ts", "validate returns the original payloads"]] },
];
