// Reading a test file's YAML while keeping where each key and value was written.
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Node, type Pair } from "yaml";
import { LineIndex, type Diagnostic, type Location } from "../diagnostics/diagnostic.js";
import { badTestFile } from "../diagnostics/codes.js";
import { didYouMean } from "../runtime/did-you-mean.js";

/** Where nodes are, and the diagnostics found while reading them. */
export interface YamlContext {
  source: string;
  lines: LineIndex;
  diagnostics: Diagnostic[];
}

/** Deeper than any test needs: a hostile file cannot exhaust the stack while values are converted. */
const MAX_YAML_DEPTH = 64;

/** The document's root node, or null (with a located RYE9101) when the text is not YAML. */
export function parseYaml(text: string, ctx: YamlContext): Node | null {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) ctx.diagnostics.push(badTestFile(ctx.lines.location(ctx.source, e.pos[0], e.pos[1]), `not valid YAML: ${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`));
    return null;
  }
  return (doc.contents as Node | null) ?? null;
}

/** Where a node is (a missing node: the start of the file). */
export function locOf(node: Node | null | undefined, ctx: YamlContext): Location {
  const [start, end] = node?.range ?? [0, 0];
  return ctx.lines.location(ctx.source, start, Math.max(start, end));
}

/** A node's plain value (maps as plain objects without a prototype chain to reach, numbers as numbers). */
export function plain(node: Node | null | undefined, ctx: YamlContext, depth = 0): unknown {
  if (node == null) return null;
  if (depth > MAX_YAML_DEPTH) {
    ctx.diagnostics.push(badTestFile(locOf(node, ctx), `values nested deeper than ${MAX_YAML_DEPTH} levels`));
    return null;
  }
  if (isScalar(node)) return node.value;
  if (isAlias(node)) {
    // An alias could multiply a small file into a huge value; a test file writes its values out.
    ctx.diagnostics.push(badTestFile(locOf(node, ctx), "aliases (*name) are not read in test files; write the value out"));
    return null;
  }
  if (isSeq(node)) return node.items.map((n) => plain(n as Node, ctx, depth + 1));
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const p of node.items) Object.defineProperty(out, keyText(p), { value: plain(p.value as Node, ctx, depth + 1), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return (node as { toJSON?: () => unknown }).toJSON?.() ?? null;
}

export function keyText(p: Pair): string {
  return String(isScalar(p.key) ? p.key.value : p.key);
}

/**
 * A map's pairs by key, after reporting keys outside `allowed` (RYE9101, with the nearest allowed
 * key). `what` names the map in messages. Null, with a diagnostic, when `node` is not a map.
 */
export function mapOf(node: Node | null | undefined, what: string, allowed: readonly string[] | null, ctx: YamlContext, report = badTestFile): Map<string, Pair<Node, Node>> | null {
  if (!isMap(node)) {
    ctx.diagnostics.push(badTestFile(locOf(node, ctx), `${what} must be a map of keys to values`));
    return null;
  }
  const out = new Map<string, Pair<Node, Node>>();
  for (const p of node.items as Pair<Node, Node>[]) {
    const key = keyText(p);
    if (allowed && !allowed.includes(key)) {
      ctx.diagnostics.push(report(locOf(p.key, ctx), `${what} has no key '${key}' (its keys: ${allowed.join(", ")})`, didYouMean(key, allowed, 3)));
      continue;
    }
    out.set(key, p);
  }
  return out;
}

/** A scalar string value, or undefined with a RYE9101 when it is something else. */
export function stringOf(node: Node | null | undefined, what: string, ctx: YamlContext): string | undefined {
  if (isScalar(node) && typeof node.value === "string") return node.value;
  ctx.diagnostics.push(badTestFile(locOf(node, ctx), `${what} must be a string`));
  return undefined;
}

/** A list of strings (a single string is a list of one), or undefined with a RYE9101. */
export function stringsOf(node: Node | null | undefined, what: string, ctx: YamlContext): string[] | undefined {
  if (isScalar(node) && typeof node.value === "string") return [node.value];
  if (isSeq(node) && node.items.every((n) => isScalar(n) && typeof n.value === "string")) return node.items.map((n) => String((n as { value: unknown }).value));
  ctx.diagnostics.push(badTestFile(locOf(node, ctx), `${what} must be a string or a list of strings`));
  return undefined;
}
