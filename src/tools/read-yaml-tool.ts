import { Alias, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from "yaml";
import { LineIndex } from "../diagnostics/diagnostic.js";
import { dictKey, pyTruthy, resolveScalar, setKey } from "./py-yaml-scalars.js";
import { readBlockYaml, type YamlScalars } from "../parse/read-block-yaml.js";
import type { Span } from "./read-python-metadata.js";
import { MAX_YAML_DEPTH, yamlTooDeepAt } from "../parse/yaml-depth.js";
import { nestedDeeperThan } from "../runtime/py-value.js";

/** A YAML tool file read as PyYAML's `safe_load` reads it, with the place of every key. */
export interface YamlTool {
  /** `safe_load(text) or {}`; `{}` when the text is not valid YAML, as in the original parser. */
  data: unknown;
  /** Key paths such as `config.args[1]` or `env_config.env.PATH` to the span of the key (items: of the value). */
  spans: Record<string, Span>;
  error?: { message: string; span: Span };
  warnings: { message: string; span: Span }[];
}

/** PyYAML's `safe_load` scalars and mappings, and `or {}`, for the quick reader. */
export const PY_YAML: YamlScalars = {
  plain: (text) => resolveScalar(text, true, undefined, () => {}),
  set: (map, key, value) => (setKey(map, dictKey(key), value), true),
  document: (value) => (pyTruthy(value) ? value : {}),
};

/**
 * Parses a YAML tool or runtime file, keeping float-ness and key locations for diagnostics. Files in
 * the block style tools are written in take the quick reader; their key locations, needed only for a
 * diagnostic, are found by the full reading the first time they are asked for.
 */
export function readYamlTool(text: string): YamlTool {
  const top = new Map<string, [number, number]>();
  const data = readBlockYaml(text, PY_YAML, (key, offset, length) => top.set(dictKey(key), [offset, length]));
  if (data === undefined || nestedDeeperThan(data, MAX_YAML_DEPTH)) return readYamlFully(text);
  return { data, warnings: [], spans: quickSpans(text, top) };
}

/**
 * Key locations for a file the quick reader took: the top mapping's keys (where metadata fields
 * are) from what it recorded, any deeper path from the full reading, done the first time one is asked for.
 */
function quickSpans(text: string, top: ReadonlyMap<string, [number, number]>): Record<string, Span> {
  let index: LineIndex | undefined;
  let full: Record<string, Span> | undefined;
  const deeper = () => (full ??= readYamlFully(text).spans);
  return new Proxy({} as Record<string, Span>, {
    get(_target, path) {
      const at = typeof path === "string" ? top.get(path) : undefined;
      if (!at) return Reflect.get(deeper(), path);
      index ??= new LineIndex(text);
      return { start: index.position(at[0]), end: index.position(at[0] + at[1]) };
    },
    has: (_target, path) => Reflect.has(deeper(), path),
    ownKeys: () => Reflect.ownKeys(deeper()),
    getOwnPropertyDescriptor: (_target, path) => {
      const d = Reflect.getOwnPropertyDescriptor(deeper(), path);
      return d && { ...d, configurable: true };
    },
  });
}

/** The `yaml` package's reading of a tool file: any YAML, with errors, warnings and key locations. */
export function readYamlFully(text: string): YamlTool {
  const index = new LineIndex(text);
  const span = (range: readonly number[] | null | undefined): Span => ({
    start: index.position(range?.[0] ?? 0),
    end: index.position(range?.[1] ?? range?.[0] ?? 0),
  });
  const result: YamlTool = { data: {}, spans: {}, warnings: [] };
  // Measured before composing, which recurses once per level (see yaml-depth.ts).
  const deep = yamlTooDeepAt(text);
  if (deep !== -1) return { ...result, error: { message: `YAML nested deeper than ${MAX_YAML_DEPTH} levels; flatten it`, span: span([deep]) } };
  const doc = parseDocument(text, { schema: "failsafe", uniqueKeys: false });
  const firstError = doc.errors[0];
  if (firstError) {
    return { ...result, error: { message: firstError.message.split("\n")[0]!, span: span(firstError.pos) } };
  }
  const warn = (message: string, node: Node) => result.warnings.push({ message, span: span(node.range) });
  // Aliases are expanded where they are used: a few lines of anchors can stand for billions of values.
  let values = 0;
  const convert = (node: unknown, path: string): unknown => {
    if (++values > MAX_YAML_VALUES) throw new YamlTooLarge(node as Node);
    if (node instanceof Alias) return convert(node.resolve(doc as Document), path);
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      const explicit = node.items.filter((pair) => !(isScalar(pair.key) && pair.key.value === "<<" && pair.key.type === "PLAIN"));
      for (const pair of node.items.filter((p) => !explicit.includes(p))) mergeInto(out, convert(pair.value, path), pair.value as Node, warn);
      for (const pair of explicit) {
        const key = dictKey(convert(pair.key, path));
        const childPath = path ? `${path}.${key}` : key;
        result.spans[childPath] = span((pair.key as Node | null)?.range);
        setKey(out, key, convert(pair.value, childPath));
      }
      return out;
    }
    if (isSeq(node)) {
      return node.items.map((item, i) => {
        result.spans[`${path}[${i}]`] = span((item as Node | null)?.range);
        return convert(item, `${path}[${i}]`);
      });
    }
    if (isScalar(node)) return resolveScalar(node.value, node.type === "PLAIN", node.tag, (m) => warn(m, node));
    return null;
  };
  let data: unknown;
  try {
    data = convert(doc.contents, "");
  } catch (e) {
    if (!(e instanceof YamlTooLarge)) throw e;
    return { data: {}, spans: {}, warnings: [], error: { message: `YAML whose aliases expand to more than ${MAX_YAML_VALUES} values`, span: span(e.node?.range) } };
  }
  result.data = pyTruthy(data) ? data : {};
  return result;
}

/** Values a tool file's YAML may expand to, aliases counted each time they are used (real tools: a few hundred). */
export const MAX_YAML_VALUES = 100_000;

class YamlTooLarge extends Error {
  constructor(readonly node: Node | null) {
    super("too many YAML values");
  }
}

/** PyYAML's merge key: a mapping, or a list of mappings where earlier ones win; explicit keys win over all. */
function mergeInto(out: Record<string, unknown>, value: unknown, node: Node, warn: (m: string, n: Node) => void): void {
  const maps = Array.isArray(value) ? [...value].reverse() : [value];
  for (const m of maps) {
    if (m === null || typeof m !== "object" || Array.isArray(m)) {
      warn("a merge key (<<) needs a mapping or a list of mappings", node);
      continue;
    }
    for (const [k, v] of Object.entries(m)) setKey(out, k, v);
  }
}

