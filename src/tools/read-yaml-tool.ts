import { Alias, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from "yaml";
import { LineIndex } from "../diagnostics/diagnostic.js";
import { PyFloat } from "../runtime/pystr.js";
import type { Span } from "./read-python-metadata.js";

/** A YAML tool file read as PyYAML's `safe_load` reads it, with the place of every key. */
export interface YamlTool {
  /** `safe_load(text) or {}`; `{}` when the text is not valid YAML, as in the original parser. */
  data: unknown;
  /** Key paths such as `config.args[1]` or `env_config.env.PATH` to the span of the key (items: of the value). */
  spans: Record<string, Span>;
  error?: { message: string; span: Span };
  warnings: { message: string; span: Span }[];
}

// PyYAML resolves plain scalars with YAML 1.1 rules that differ from the `yaml` package's (`1e5` and
// `1.5e3` are strings there, `0777` is octal), so scalars are read as text and resolved here.
const BOOL_RE = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const NULL_RE = /^(?:~|null|Null|NULL|)$/;
const INT_RE = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT_RE =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const TRUE_WORDS = new Set(["yes", "true", "on"]);

/** Parses a YAML tool or runtime file, keeping float-ness and key locations for diagnostics. */
export function readYamlTool(text: string): YamlTool {
  const index = new LineIndex(text);
  const span = (range: readonly number[] | null | undefined): Span => ({
    start: index.position(range?.[0] ?? 0),
    end: index.position(range?.[1] ?? range?.[0] ?? 0),
  });
  const doc = parseDocument(text, { schema: "failsafe", uniqueKeys: false });
  const result: YamlTool = { data: {}, spans: {}, warnings: [] };
  const firstError = doc.errors[0];
  if (firstError) {
    return { ...result, error: { message: firstError.message.split("\n")[0]!, span: span(firstError.pos) } };
  }
  const warn = (message: string, node: Node) => result.warnings.push({ message, span: span(node.range) });
  const convert = (node: unknown, path: string): unknown => {
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
  const data = convert(doc.contents, "");
  result.data = pyTruthy(data) ? data : {};
  return result;
}

function resolveScalar(raw: unknown, plain: boolean, tag: string | undefined, warn: (message: string) => void): unknown {
  const text = typeof raw === "string" ? raw : raw == null ? "" : String(raw);
  const explicit = tag?.replace(/^tag:yaml\.org,2002:/, "");
  if (explicit === "str") return text;
  if (explicit === "int") return toInt(text);
  if (explicit === "float") return toFloat(text);
  if (explicit === "bool") return TRUE_WORDS.has(text.toLowerCase());
  if (explicit === "null") return null;
  if (explicit !== undefined && explicit !== "map" && explicit !== "seq") warn(`tag ${tag} is kept as text`);
  if (!plain) return text;
  if (NULL_RE.test(text)) return null;
  if (BOOL_RE.test(text)) return TRUE_WORDS.has(text.toLowerCase());
  if (INT_RE.test(text)) return toInt(text);
  if (FLOAT_RE.test(text)) return toFloat(text);
  return text;
}

function toInt(text: string): number {
  let s = text.replace(/_/g, "");
  const sign = s.startsWith("-") ? -1 : 1;
  if (/^[-+]/.test(s)) s = s.slice(1);
  if (s === "0") return 0;
  if (s.startsWith("0b")) return sign * parseInt(s.slice(2), 2);
  if (s.startsWith("0x")) return sign * parseInt(s.slice(2), 16);
  if (s.startsWith("0")) return sign * parseInt(s, 8);
  if (s.includes(":")) return sign * sexagesimal(s);
  return sign * Number(s);
}

function toFloat(text: string): PyFloat {
  let s = text.replace(/_/g, "").toLowerCase();
  const sign = s.startsWith("-") ? -1 : 1;
  if (/^[-+]/.test(s)) s = s.slice(1);
  if (s === ".inf") return new PyFloat(sign * Infinity);
  if (s === ".nan") return new PyFloat(NaN);
  return new PyFloat(sign * (s.includes(":") ? sexagesimal(s) : Number(s)));
}

function sexagesimal(s: string): number {
  return s.split(":").reduce((acc, part) => acc * 60 + Number(part), 0);
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

/** Python truthiness, for `safe_load(content) or {}`. */
function pyTruthy(value: unknown): boolean {
  if (value instanceof PyFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Non-string keys are named as `json.dumps` names them. */
function dictKey(key: unknown): string {
  if (typeof key === "string") return key;
  if (key === null) return "null";
  if (typeof key === "boolean") return key ? "true" : "false";
  return String(key);
}

function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
