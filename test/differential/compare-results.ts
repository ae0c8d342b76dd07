// Compares what our compiled module returns with what the original returned for the same bytes.
// Every accepted difference is one of the named deviations below (README "Decisions and deviations").
import { PyFloat } from "../../src/runtime/pystr.js";
import type { OracleResult, Tagged } from "./run-oracle.js";

/** Differences that are decisions, not bugs. Each is checked to be exactly what it claims. */
export const DEVIATIONS = {
  /** decisions #6: "Valid inputs" listed in declaration order; the original listed a Python set (its order varied). */
  VALID_INPUTS_ORDER: "Valid inputs in declaration order",
  /** decisions #7: validate() also rejects values that do not fit their declared type; the original accepted any. */
  TYPE_CHECKS: "type checks in validate()",
  /** README "Each directive module exports": error payloads carry the directive's item_id as well. */
  ITEM_ID_IN_ERRORS: "item_id in error payloads",
} as const;

export type Deviation = keyof typeof DEVIATIONS;

/** Our value tagged as the oracle tags Python values. */
export function tagOurs(v: unknown): Tagged {
  if (v === null || v === undefined) return ["none"];
  if (typeof v === "boolean") return ["bool", v];
  if (typeof v === "bigint") return ["int", v.toString()];
  if (typeof v === "number") return Number.isInteger(v) ? ["int", BigInt(v).toString()] : ["float", v];
  if (v instanceof PyFloat) return ["float", Number.isNaN(v.value) ? "nan" : Number.isFinite(v.value) ? v.value : v.value > 0 ? "inf" : "-inf"];
  if (typeof v === "string") return ["str", v];
  if (Array.isArray(v)) return ["list", v.map(tagOurs)];
  if (v instanceof Map) return ["dict", [...v.entries()].map(([k, x]) => [k, tagOurs(x)])];
  if (typeof v === "object") return ["dict", Object.entries(v).map(([k, x]) => [k, tagOurs(x)])];
  return ["other", String(v)];
}

// Float tags compare by value, with -0.0 and 0.0 apart as Python's repr keeps them.
const same = (a: unknown, b: unknown) => JSON.stringify(a, (_k, x) => (Object.is(x, -0) ? "-0.0" : x)) === JSON.stringify(b, (_k, x) => (Object.is(x, -0) ? "-0.0" : x));

export interface Ours {
  validate: { status: string; error?: string; inputs?: unknown; declared_inputs: unknown; item_id?: string };
  render?: { body: string; content: string; raw: string; actions: unknown; prompt: string };
}

/** The differences between the two sides, each a line; and the deviations that applied. */
export function compare(ours: Ours, theirs: OracleResult, mismatched: readonly string[]): { differences: string[]; deviations: Deviation[] } {
  const differences: string[] = [];
  const deviations: Deviation[] = [];
  const tv = theirs.validate!;
  const ov = ours.validate;
  const { item_id, ...ovRest } = ov;
  if (ov.status === "error") {
    if (typeof item_id !== "string") differences.push("validate: error payload without item_id");
    else deviations.push("ITEM_ID_IN_ERRORS");
  } else if (item_id !== undefined) differences.push("validate: item_id on a success payload");

  if (!same(tagOurs(ovRest.declared_inputs), tv.declared_inputs)) differences.push(`validate.declared_inputs: ours ${JSON.stringify(tagOurs(ovRest.declared_inputs))}\n  original ${JSON.stringify(tv.declared_inputs)}`);
  if (ov.status === "error" && tv.status === "success" && ov.error?.startsWith("Invalid input types: ")) {
    // Only the inputs the generator gave an ill-fitting value may be named.
    const named = [...ov.error.matchAll(/'([^']+)' must be/g)].map((m) => m[1]!);
    if (named.length === 0 || named.some((n) => !mismatched.includes(n))) differences.push(`validate: type error for a fitting value: ${ov.error}`);
    else deviations.push("TYPE_CHECKS");
  } else if (ov.status !== tv.status) {
    differences.push(`validate.status: ours ${ov.status} (${ov.error ?? ""}), original ${tv.status} (${tv.error ?? ""})`);
  } else if (ov.status === "error") {
    const split = (e: string) => {
      const [head, valid] = e.split(". Valid inputs: ");
      return { head, valid: valid === undefined ? undefined : valid.split(", ").sort() };
    };
    const a = split(ov.error ?? "");
    const b = split(tv.error ?? "");
    if (a.head !== b.head || !same(a.valid, b.valid)) differences.push(`validate.error: ours ${JSON.stringify(ov.error)}, original ${JSON.stringify(tv.error)}`);
    else if (ov.error !== tv.error) deviations.push("VALID_INPUTS_ORDER");
  } else if (!same(tagOurs(ovRest.inputs), tv.inputs)) {
    differences.push(`validate.inputs: ours ${JSON.stringify(tagOurs(ovRest.inputs))}\n  original ${JSON.stringify(tv.inputs)}`);
  }

  const tr = theirs.render;
  if (tr && ours.render) {
    for (const field of ["body", "content", "raw", "prompt"] as const) {
      if (ours.render[field] !== tr[field]) differences.push(`render.${field}:\n  ours     ${JSON.stringify(ours.render[field])}\n  original ${JSON.stringify(tr[field])}`);
    }
    if (!same(tagOurs(ours.render.actions), tr.actions)) differences.push(`render.actions: ours ${JSON.stringify(tagOurs(ours.render.actions))}\n  original ${JSON.stringify(tr.actions)}`);
  } else if (tr && !ours.render) differences.push("render: the original rendered, ours did not");
  return { differences, deviations };
}
