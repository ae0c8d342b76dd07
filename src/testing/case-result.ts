// What running one case found.
import type { Location } from "../diagnostics/diagnostic.js";
import type { TestCase, TestFile } from "./test-file.js";

export interface Failure {
  /** The field or refusal it is about, e.g. `prompt` or `refuses`. */
  field: string;
  message: string;
  loc: Location;
}

export interface CaseResult {
  file: TestFile;
  test: TestCase;
  status: "passed" | "failed" | "skipped";
  failures: Failure[];
  /** Why a skipped case did not run. */
  reason?: string;
  durationMs: number;
  snapshots: { written: number; updated: number };
  /** For coverage: the inputs the case gave, and whether it rendered the thread. */
  given: string[];
  thread: boolean;
  /** The tested item's provenance record, when it was loaded from a signed build or bundle. */
  provenance?: unknown;
}
