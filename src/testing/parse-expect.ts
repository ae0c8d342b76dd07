// `expect:` and `refuses:` of a case: each check read, and each that could never be checked reported.
import { isMap, isScalar, isSeq, type Node, type Pair } from "yaml";
import type { ItemKind } from "../model/source.js";
import { uncheckableExpectation } from "../diagnostics/codes.js";
import { didYouMean } from "../runtime/did-you-mean.js";
import { FIELDS, OBJECT_FIELDS, REFUSAL_KEYS } from "./fields.js";
import { compileLinear, UnsafeRegex } from "../runtime/context/linear-regex.js";
import { MATCHER_KEYS, type Expectation, type Matcher, type Pattern, type Refusal } from "./test-file.js";
import { locOf, mapOf, plain, stringsOf, type YamlContext } from "./yaml-nodes.js";

/** `expect:`: one expectation per field key. */
export function readExpectations(node: Node, kind: ItemKind, ctx: YamlContext): Expectation[] {
  const fields = mapOf(node, "expect", null, ctx);
  if (!fields) return [];
  const out: Expectation[] = [];
  for (const [field, pair] of fields) {
    const path = field.split(".");
    const loc = locOf(pair.key, ctx);
    if (!FIELDS[kind].includes(path[0]!)) {
      ctx.diagnostics.push(uncheckableExpectation(loc, `a ${kind} has no field '${field}' (its fields: ${FIELDS[kind].join(", ")})`, didYouMean(path[0]!, FIELDS[kind], 3)));
      continue;
    }
    if (path.length > 1 && (!OBJECT_FIELDS.has(path[0]!) || path.some((p) => p === ""))) {
      ctx.diagnostics.push(uncheckableExpectation(loc, `'${path[0]}' is text, so '${field}' names nothing inside it`));
      continue;
    }
    const matcher = readMatcher(pair.value, `expect.${field}`, ctx);
    if (matcher) out.push({ field, path, matcher, loc });
  }
  return out;
}

/** One field's matchers; null (after a diagnostic) when none can be checked. */
export function readMatcher(node: Node | null, what: string, ctx: YamlContext): Matcher | null {
  const pairs = mapOf(node, what, MATCHER_KEYS, ctx, uncheckableExpectation);
  if (!pairs) return null;
  const m: Matcher = {};
  for (const [key, pair] of pairs) readMatcherKey(m, key, pair, what, ctx);
  // A map whose keys were all reported already needs no second word.
  if (isMap(node) && node.items.length === 0) ctx.diagnostics.push(uncheckableExpectation(locOf(node, ctx), `${what} names no check (${MATCHER_KEYS.join(", ")})`));
  return Object.keys(m).length > 0 ? m : null;
}

function readMatcherKey(m: Matcher, key: string, pair: Pair<Node, Node>, what: string, ctx: YamlContext): void {
  const loc = locOf(pair.value ?? pair.key, ctx);
  const value = pair.value;
  if (key === "equals") return void (m.equals = { value: plain(value, ctx), loc });
  if (key === "snapshot") {
    if (isScalar(value) && value.value === true) m.snapshot = { loc };
    else ctx.diagnostics.push(uncheckableExpectation(loc, `${what}.snapshot must be true (leave it out to skip the snapshot)`));
    return;
  }
  const list = isSeq(value) ? value.items.map((n) => plain(n as Node, ctx)) : [plain(value, ctx)];
  if (list.length === 0 || list.some((x) => x === "" || x === null)) {
    ctx.diagnostics.push(uncheckableExpectation(loc, `${what}.${key} is empty, so it would hold of any value`));
    return;
  }
  if (key === "matches") {
    const regexes = list.map((x) => regexOf(x, loc, ctx)).filter((r): r is Pattern => r !== null);
    if (regexes.length === list.length) m.matches = { value: regexes, loc };
    return;
  }
  m[key as "contains" | "not_contains"] = { value: list, loc };
}

/**
 * A pattern comes from the checkout and the text it runs on from the item, so it is compiled by the
 * linear-time matcher hook conditions use: a backtracking engine would let `(a+)+$` stop the run
 * (and the language server's test worker). A pattern that matcher cannot run is refused, located.
 */
function regexOf(x: unknown, loc: Expectation["loc"], ctx: YamlContext): Pattern | null {
  if (typeof x !== "string") {
    ctx.diagnostics.push(uncheckableExpectation(loc, `a pattern must be a string, not ${JSON.stringify(x)}`));
    return null;
  }
  try {
    return { source: x, test: compileLinear(x).test };
  } catch (e) {
    const why = e instanceof UnsafeRegex ? e.message : String(e);
    ctx.diagnostics.push(uncheckableExpectation(loc, `'${x}' cannot be matched: ${why} (rye test runs patterns in time linear in the text: no backreferences or lookaround)`));
    return null;
  }
}

/** `refuses:`: which refusal the case expects. */
export function readRefusal(node: Node, ctx: YamlContext): Refusal | undefined {
  const pairs = mapOf(node, "refuses", REFUSAL_KEYS, ctx, uncheckableExpectation);
  if (!pairs) return undefined;
  const r: Refusal = { loc: locOf(node, ctx) };
  for (const key of ["missing", "type", "unknown"] as const) {
    const p = pairs.get(key);
    if (p) r[key] = stringsOf(p.value, `refuses.${key}`, ctx);
  }
  const error = pairs.get("error");
  if (error) r.error = readMatcher(error.value, "refuses.error", ctx) ?? undefined;
  const payload = pairs.get("payload");
  if (payload) {
    if (isMap(payload.value) && payload.value.items.length > 0) r.payload = plain(payload.value, ctx) as Record<string, unknown>;
    else ctx.diagnostics.push(uncheckableExpectation(locOf(payload.value ?? payload.key, ctx), "refuses.payload must be a map of the payload's keys to their values"));
  }
  if (pairs.size === 0) ctx.diagnostics.push(uncheckableExpectation(r.loc, `refuses names no refusal (${REFUSAL_KEYS.join(", ")})`));
  return r;
}
