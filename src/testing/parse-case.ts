// One case of a test file, read from its YAML node.
import { isMap, isScalar, isSeq, type Node } from "yaml";
import type { ItemKind } from "../model/source.js";
import { badTestFile, uncheckableExpectation } from "../diagnostics/codes.js";
import { CASE_KEYS } from "./fields.js";
import { readExpectations, readRefusal } from "./parse-expect.js";
import type { TestCase } from "./test-file.js";
import { locOf, mapOf, plain, stringOf, type YamlContext } from "./yaml-nodes.js";

/** Reads a case; null when it has no usable name (the rest of it cannot be reported on by name). */
export function readCase(node: Node, kind: ItemKind, ctx: YamlContext): TestCase | null {
  const pairs = mapOf(node, "a case", CASE_KEYS, ctx);
  if (!pairs) return null;
  const loc = locOf(node, ctx);
  const nameNode = pairs.get("name");
  if (!nameNode) {
    ctx.diagnostics.push(badTestFile(loc, "a case needs a name (name: …)"));
    return null;
  }
  const name = stringOf(nameNode.value, "a case's name", ctx);
  if (name === undefined) return null;
  const c: TestCase = { name, loc: locOf(nameNode.value, ctx), inputs: {}, inputLocs: new Map(), env: {}, expect: [], skip: false, only: false };
  readInputs(c, pairs.get("inputs")?.value ?? null, ctx);
  const model = pairs.get("model");
  if (model) c.model = stringOf(model.value, "model", ctx);
  const limits = pairs.get("limit_overrides");
  if (limits) {
    if (isMap(limits.value)) c.limit_overrides = plain(limits.value, ctx) as Record<string, unknown>;
    else ctx.diagnostics.push(badTestFile(locOf(limits.value, ctx), "limit_overrides must be a map (turns: 3, spend: 0.5, …)"));
  }
  const env = pairs.get("env");
  if (env) readEnv(c, env.value, ctx);
  for (const flag of ["skip", "only"] as const) {
    const p = pairs.get(flag);
    if (!p) continue;
    if (isScalar(p.value) && typeof p.value.value === "boolean") c[flag] = p.value.value;
    else ctx.diagnostics.push(badTestFile(locOf(p.value, ctx), `${flag} must be true or false`));
  }
  const expect = pairs.get("expect");
  const refuses = pairs.get("refuses");
  if (expect) c.expect = readExpectations(expect.value as Node, kind, ctx);
  if (refuses) c.refuses = readRefusal(refuses.value as Node, ctx);
  if (expect && refuses) ctx.diagnostics.push(uncheckableExpectation(locOf(expect.key, ctx), "a case that expects a refusal renders nothing, so its expect: is never checked; make it a case of its own"));
  if (!expect && !refuses) ctx.diagnostics.push(uncheckableExpectation(c.loc, `case '${name}' has neither expect: nor refuses:, so it would pass whatever the item does`));
  return c;
}

function readInputs(c: TestCase, node: Node | null, ctx: YamlContext): void {
  if (node === null || (isScalar(node) && node.value === null)) return;
  const pairs = mapOf(node, "inputs", null, ctx);
  if (!pairs) return;
  for (const [key, p] of pairs) {
    Object.defineProperty(c.inputs, key, { value: plain(p.value, ctx), enumerable: true, writable: true, configurable: true });
    c.inputLocs.set(key, locOf(p.key, ctx));
  }
}

function readEnv(c: TestCase, node: Node | null, ctx: YamlContext): void {
  const pairs = mapOf(node, "env", null, ctx);
  if (!pairs) return;
  for (const [key, p] of pairs) {
    if (isScalar(p.value) && p.value.value !== null && !isSeq(p.value)) c.env[key] = String(p.value.value);
    else ctx.diagnostics.push(badTestFile(locOf(p.value ?? p.key, ctx), `env.${key} must be a string`));
  }
}

/** The cases of a file's root node (`cases: [...]`), reporting duplicate names. */
export function readCases(root: Node | null, kind: ItemKind, ctx: YamlContext): TestCase[] {
  const top = mapOf(root, "a test file", ["cases"], ctx);
  const list = top?.get("cases");
  if (!top) return [];
  if (!list || !isSeq(list.value) || list.value.items.length === 0) {
    ctx.diagnostics.push(badTestFile(locOf(list?.value ?? root, ctx), "a test file holds a non-empty list of cases (cases: - name: …)"));
    return [];
  }
  const cases: TestCase[] = [];
  const seen = new Set<string>();
  for (const item of list.value.items as Node[]) {
    const c = readCase(item, kind, ctx);
    if (!c) continue;
    if (seen.has(c.name)) ctx.diagnostics.push(badTestFile(c.loc, `two cases are named '${c.name}'; a filter (-t) and a report name a case by its name`));
    seen.add(c.name);
    cases.push(c);
  }
  return cases;
}

