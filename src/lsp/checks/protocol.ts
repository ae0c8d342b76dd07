// The messages between the language server's main thread (which answers requests) and the thread
// that checks the project. Plain data only: they cross a worker boundary by structured clone.
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { DeclaredInput } from "../../parse/directive-data.js";

/** From the main thread to the checker. Every message but `check` only updates its state. */
export type ToChecker =
  | { type: "open"; root: string }
  | { type: "overlay"; file: string; text: string | null }
  | { type: "reload" }
  /**
   * Check after `files` changed. `seq` grows with every check asked for; a newer one supersedes.
   * `answered`: opened files the main thread already gave a first answer.
   */
  | { type: "check"; seq: number; files: string[]; answered: string[] };

/** One answer of the checker, for the check numbered `seq` (and every older one it took in). */
export interface CheckResult {
  seq: number;
  /**
   * "opened": the first answer for directives just opened, from a check of them alone: only their
   * files are in `byFile`. "whole": the project's diagnostics, every file with any in `byFile`.
   */
  scope: "opened" | "whole";
  /** The files whose change this check took in (each gets a list, empty or not). */
  files: string[];
  /** Diagnostics by absolute file path. */
  byFile: [string, Diagnostic[]][];
  /** Declared inputs of the directives analysed since the last answer (null: no longer analysable). */
  analysed: [string, DeclaredInput[] | null][];
}

/** A check that threw: what the main thread reports, located at the files it was about. */
export interface CheckFailure {
  seq: number;
  files: string[];
  detail: string;
}

/** From the checker to the main thread. `progress`: a check under way has finished more items. */
export type FromChecker = { type: "result"; result: CheckResult } | { type: "failed"; failure: CheckFailure } | { type: "progress" };
