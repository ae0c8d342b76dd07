import { PyFloat } from "../runtime/pystr.js";

// PyYAML resolves plain scalars with YAML 1.1 rules that differ from the `yaml` package's (`1e5` and
// `1.5e3` are strings there, `0777` is octal), so scalars are read as text and resolved here.
const BOOL_RE = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const NULL_RE = /^(?:~|null|Null|NULL|)$/;
const INT_RE = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT_RE =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const TRUE_WORDS = new Set(["yes", "true", "on"]);

export function resolveScalar(raw: unknown, plain: boolean, tag: string | undefined, warn: (message: string) => void): unknown {
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

/** Python truthiness, for `safe_load(content) or {}`. */
export function pyTruthy(value: unknown): boolean {
  if (value instanceof PyFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Non-string keys are named as `json.dumps` names them. */
export function dictKey(key: unknown): string {
  if (typeof key === "string") return key;
  if (key === null) return "null";
  if (typeof key === "boolean") return key ? "true" : "false";
  return String(key);
}

export function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
