// Whether a refusal payload is the one a case expects.
import { isDeepStrictEqual } from "node:util";
import { checkMatcher, shown, valueAt } from "./expectations.js";
import type { Refusal } from "./test-file.js";

/** The names a payload's error lists after `prefix` ("Missing required inputs: a, b"), or null when it is another error. */
function listed(error: string, prefix: string): string[] | null {
  if (!error.startsWith(prefix)) return null;
  return error.slice(prefix.length).split(". ")[0]!.split(", ").map((s) => s.trim());
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Every way `payload` differs from what `r` expects; empty when it is the expected refusal. */
export function checkRefusal(r: Refusal, payload: Record<string, unknown>): string[] {
  const error = typeof payload.error === "string" ? payload.error : "";
  const out: string[] = [];
  const lists: [keyof Refusal & ("missing" | "unknown"), string][] = [
    ["missing", "Missing required inputs: "],
    ["unknown", "Unknown parameters: "],
  ];
  for (const [key, prefix] of lists) {
    const want = r[key];
    if (!want) continue;
    const got = listed(error, prefix);
    if (got === null || !sameSet(got, want)) out.push(`expected the refusal "${prefix}${want.join(", ")}"\n  but it was ${JSON.stringify(error)}`);
  }
  if (r.type) {
    const named = [...error.matchAll(/'([^']+)' must be /g)].map((m) => m[1]!);
    if (!error.startsWith("Invalid input types: ") || !sameSet(named, r.type)) out.push(`expected a type refusal of ${r.type.map((n) => `'${n}'`).join(", ")}\n  but it was ${JSON.stringify(error)}`);
  }
  if (r.error) out.push(...checkMatcher(r.error, error).map((m) => `error ${m}`));
  for (const [key, want] of Object.entries(r.payload ?? {})) {
    const got = valueAt(payload, [key]);
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(got ?? null)), want)) out.push(`expected payload.${key} to equal ${shown(want)}\n  but was ${shown(got)}`);
  }
  return out;
}
