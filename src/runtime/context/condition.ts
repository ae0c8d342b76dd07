// Hook and graph conditions, as the original's condition_evaluator.matches.
import { pyEquals } from "../exec/substitute-params.js";
import { PyFloat, pyStr } from "../pystr.js";
import { compileLinear } from "./linear-regex.js";
import { resolvePath } from "./resolve-path.js";

type Condition = Record<string, unknown> | null | undefined;

const num = (v: unknown) => (v instanceof PyFloat ? v.value : v);

function compare(a: unknown, e: unknown): number | undefined {
  const x = num(a);
  const y = num(e);
  if ((typeof x === "number" || typeof x === "boolean") && (typeof y === "number" || typeof y === "boolean")) return Number(x) - Number(y);
  if (typeof x === "string" && typeof y === "string") return x < y ? -1 : x > y ? 1 : 0;
  return undefined; // Python raises TypeError here; the condition does not match.
}

/** Compiled patterns, by source: a hook's condition is evaluated on every event of every thread. */
const compiled = new Map<string, { test: (text: string) => boolean }>();

/**
 * A regex as the linear-time matcher runs it (linear-regex.ts): never V8's backtracking engine,
 * which the caller's text could keep busy for hours. A refused pattern is an error naming the rule
 * (the build reports it as RYE3009, so only output made some other way gets here).
 */
function linear(pattern: string): { test: (text: string) => boolean } {
  let m = compiled.get(pattern);
  if (!m) {
    try {
      m = compileLinear(pattern);
    } catch (e) {
      throw new Error(`Hook condition regex '${pattern}' is refused: ${(e as Error).message} (RYE3009)`);
    }
    if (compiled.size < 256) compiled.set(pattern, m);
  }
  return m;
}

const OPS: Record<string, (a: unknown, e: unknown) => boolean> = {
  eq: (a, e) => pyEquals(a, e),
  ne: (a, e) => !pyEquals(a, e),
  gt: (a, e) => a !== null && a !== undefined && (compare(a, e) ?? 0) > 0,
  gte: (a, e) => a !== null && a !== undefined && compare(a, e) !== undefined && compare(a, e)! >= 0,
  lt: (a, e) => a !== null && a !== undefined && (compare(a, e) ?? 0) < 0,
  lte: (a, e) => a !== null && a !== undefined && compare(a, e) !== undefined && compare(a, e)! <= 0,
  in: (a, e) => Array.isArray(e) && e.some((x) => pyEquals(a, x)),
  contains: (a, e) => a !== null && a !== undefined && pyStr(a).includes(String(e)),
  regex: (a, e) => a !== null && a !== undefined && linear(String(e)).test(pyStr(a)),
  exists: (a) => a !== null && a !== undefined,
};

/** Whether `doc` satisfies `condition` (`path`/`op`/`value`, or `any`/`all`/`not`); an empty condition matches. */
export function matches(doc: unknown, condition: Condition): boolean {
  if (!condition || Object.keys(condition).length === 0) return true;
  if ("any" in condition) return (condition.any as Condition[]).some((c) => matches(doc, c));
  if ("all" in condition) return (condition.all as Condition[]).every((c) => matches(doc, c));
  if ("not" in condition) return !matches(doc, condition.not as Condition);
  const op = typeof condition.op === "string" ? condition.op : "eq";
  const actual = resolvePath(doc, typeof condition.path === "string" ? condition.path : "");
  return (OPS[op] ?? (() => false))(actual, condition.value ?? null);
}
