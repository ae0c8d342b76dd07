// The shape of a test file, `.ai/tests/<kind>/<id>.test.yaml`, once read: every case and
// expectation keeps where it was written, so a check or a failure can point at its line.
import type { Location } from "../diagnostics/diagnostic.js";
import type { ItemKind } from "../model/source.js";

/** The folder of `.ai/tests/` that holds test files for each kind of item. */
export const TEST_FOLDERS: Record<ItemKind, string> = { directive: "directives", tool: "tools", knowledge: "knowledge" };

/** How a test file's name ends. */
export const TEST_SUFFIX = ".test.yaml";

/** The matcher keys of an expectation (Vitest's toEqual, toContain, toMatch, toMatchSnapshot). */
export const MATCHER_KEYS = ["equals", "contains", "not_contains", "matches", "snapshot"] as const;
export type MatcherKey = (typeof MATCHER_KEYS)[number];

/** A `matches:` pattern as the linear-time matcher runs it: `test` has RegExp's answer (flag `u`). */
export interface Pattern {
  source: string;
  test(text: string): boolean;
}

/** One check on one value: `equals` a value, `contains`/`not_contains`/`matches` each a list (a single value is a list of one). */
export interface Matcher {
  equals?: { value: unknown; loc: Location };
  contains?: { value: unknown[]; loc: Location };
  not_contains?: { value: unknown[]; loc: Location };
  matches?: { value: Pattern[]; loc: Location };
  snapshot?: { loc: Location };
}

/** An expectation on one field of what an item gives (`prompt`, `system`, `metadata.name`, …). */
export interface Expectation {
  /** The field as written, e.g. `metadata.model.tier`. */
  field: string;
  /** `field` split at its dots. */
  path: string[];
  matcher: Matcher;
  loc: Location;
}

/** What a case expects when the item must refuse it. */
export interface Refusal {
  /** Inputs the payload must name as missing. */
  missing?: string[];
  /** Inputs the payload must name as of the wrong type. */
  type?: string[];
  /** Inputs the payload must name as unknown. */
  unknown?: string[];
  /** A check on the payload's `error` text. */
  error?: Matcher;
  /** Keys the payload must hold with exactly these values. */
  payload?: Record<string, unknown>;
  loc: Location;
}

export interface TestCase {
  name: string;
  loc: Location;
  inputs: Record<string, unknown>;
  /** Where each input's key was written. */
  inputLocs: Map<string, Location>;
  /** The executor's own options, passed beside the inputs as a run passes them. */
  model?: string;
  limit_overrides?: Record<string, unknown>;
  /** The environment `{env:VAR}` reads: only this, so a render never depends on the machine. */
  env: Record<string, string>;
  expect: Expectation[];
  refuses?: Refusal;
  skip: boolean;
  only: boolean;
}

export interface TestFile {
  kind: ItemKind;
  /** The id of the item the file tests: its path under `.ai/tests/<kind folder>/` without `.test.yaml`. */
  id: string;
  /** Relative to the project root, as diagnostics name sources. */
  path: string;
  text: string;
  cases: TestCase[];
  /** The whole file: where a problem with the file itself points. */
  loc: Location;
}
