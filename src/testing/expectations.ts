// Checking one matcher against one value. A failure says what was expected and what was there.
import { isDeepStrictEqual } from "node:util";
import type { Matcher } from "./test-file.js";

/** A value as a failure message shows it: text as it is, anything else as JSON. */
export function shown(v: unknown): string {
  if (typeof v === "string") return v;
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? Number(x) : x), 2) ?? String(v);
}

const clip = (s: string, max = 400) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** Text quoted (its line breaks visible), any other value as its JSON: 4 and "4" read differently. */
const quote = (v: unknown) => (typeof v === "string" ? JSON.stringify(clip(v)) : clip(shown(v)));

/** The text a `contains` or `matches` looks in: text as it is, a list's elements, else the JSON text. */
function holds(value: unknown, part: unknown): boolean {
  if (typeof value === "string") return typeof part === "string" ? value.includes(part) : value.includes(shown(part));
  if (Array.isArray(value)) return value.some((x) => isDeepStrictEqual(normal(x), normal(part)) || (typeof x === "string" && typeof part === "string" && x === part));
  return shown(value).includes(typeof part === "string" ? part : shown(part));
}

/** YAML gives plain objects and numbers; a module may give objects with no prototype or bigints: compare as JSON values. */
function normal(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? Number(x) : x)) ?? "null");
}

/** Every failure of `m` (its snapshot aside) on `value`, with the matcher key it is of; empty when it holds. */
export function checkMatcherAt(m: Matcher, value: unknown): { key: "equals" | "contains" | "not_contains" | "matches"; message: string }[] {
  const out: { key: "equals" | "contains" | "not_contains" | "matches"; message: string }[] = [];
  if (m.equals && !isDeepStrictEqual(normal(value), normal(m.equals.value))) {
    out.push({ key: "equals", message: `expected to equal ${quote(m.equals.value)}\n  but was ${quote(value)}` });
  }
  for (const part of m.contains?.value ?? []) if (!holds(value, part)) out.push({ key: "contains", message: `expected to contain ${quote(part)}\n  in ${quote(value)}` });
  for (const part of m.not_contains?.value ?? []) if (holds(value, part)) out.push({ key: "not_contains", message: `expected not to contain ${quote(part)}\n  in ${quote(value)}` });
  for (const re of m.matches?.value ?? []) if (!re.test(shown(value))) out.push({ key: "matches", message: `expected to match /${re.source}/\n  but was ${quote(value)}` });
  return out;
}

/** The failures' messages alone. */
export const checkMatcher = (m: Matcher, value: unknown): string[] => checkMatcherAt(m, value).map((f) => f.message);

/** The value at `path` (dots already split) inside `root`, or undefined. Own keys only. */
export function valueAt(root: unknown, path: readonly string[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    if (v instanceof Map) v = v.get(key);
    else v = Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined;
  }
  return v;
}
