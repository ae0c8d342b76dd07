import { parsePyJson } from "../py-json.js";
import { pyStr } from "../pystr.js";
import { isPlainObject } from "./expand-env.js";
import type { ChainDict } from "./plan.js";
import type { ProcessResult } from "./run-process.js";
import { pyTruthy } from "./substitute-params.js";

/** What the executor reports for one run before it is shaped into a response. */
export interface ExecutionOutcome {
  success: boolean;
  data?: unknown;
  error?: string | null;
  /** Set when the process was killed at its timeout. */
  timed_out?: boolean;
  /** Set when stdout or stderr passed the capture cap. */
  truncated?: boolean;
}

/**
 * Reads a finished process as `_execute_chain` does: stdout that parses as JSON becomes `data`
 * (else `{stdout, stderr, return_code}`), and a JSON object with a falsy `success` marks failure,
 * its `error` (or `stderr`) becoming the message. JSON that is not an object is taken as data; the
 * original crashed on it with "'list' object has no attribute 'get'".
 */
export function interpretProcessResult(result: Pick<ProcessResult, "success" | "stdout" | "stderr" | "return_code">): ExecutionOutcome {
  let error: string | null = result.success ? null : result.stderr;
  let parsed: unknown;
  if (result.stdout) {
    try {
      parsed = parsePyJson(result.stdout);
    } catch {
      parsed = undefined;
    }
  }
  const object = isPlainObject(parsed) ? parsed : undefined;
  if (object && !pyTruthy(object.success ?? true) && !error) {
    const message = [object.error, object.stderr].find(pyTruthy) ?? "";
    error = typeof message === "string" ? message : pyStr(message);
  }
  const usable = parsed !== undefined && pyTruthy(parsed);
  return {
    success: result.success && (object && usable ? pyTruthy(object.success ?? true) : true),
    data: usable ? parsed : { stdout: result.stdout, stderr: result.stderr, return_code: result.return_code },
    error,
  };
}

/** The success response of `rye_execute` for a tool. */
export function toolSuccessResponse(itemId: string, data: unknown, chain: ChainDict[], durationMs: number) {
  return { status: "success", type: "tool", item_id: itemId, data, chain, metadata: { duration_ms: durationMs } };
}

/** The error response of `rye_execute` for a tool; `data` is included when the run produced any. */
export function toolErrorResponse(itemId: string, error: string | null | undefined, chain: ChainDict[], durationMs: number, data?: unknown) {
  const response: Record<string, unknown> = { status: "error", error: error ?? null, item_id: itemId, chain, metadata: { duration_ms: durationMs } };
  if (data !== undefined && data !== null) response.data = data;
  return response;
}

/** The dry-run response: the chain validated without running anything. */
export function dryRunResponse(itemId: string, chain: ChainDict[], validatedPairs: number) {
  return { status: "validation_passed", message: "Tool chain validation passed (dry run)", item_id: itemId, chain, validated_pairs: validatedPairs };
}

/** The dry-run response when validation fails (the original gives no chain here). */
export function chainValidationErrorResponse(itemId: string, issues: readonly string[]) {
  return { status: "error", error: `Chain validation failed: ${issues.join("; ")}`, item_id: itemId };
}
