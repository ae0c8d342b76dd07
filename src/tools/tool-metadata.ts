import type { Severity } from "../diagnostics/diagnostic.js";
import { readJsMetadata } from "./read-js-metadata.js";
import { readPythonMetadata, type Span } from "./read-python-metadata.js";
import { readYamlTool, type YamlTool } from "./read-yaml-tool.js";

/** Normalised tool metadata; a key is absent when the file does not set it (absent `executor_id` = primitive). */
export interface ToolMetadata {
  version?: unknown;
  tool_type?: unknown;
  executor_id?: unknown;
  category?: unknown;
  description?: unknown;
  config_schema?: unknown;
  env_config?: unknown;
  config?: unknown;
  anchor?: unknown;
  verify_deps?: unknown;
  config_resolve?: unknown;
  execution_params?: unknown;
  execution_owner?: unknown;
  native_async?: unknown;
  native_resume?: unknown;
}

/** A problem met while reading a tool file, located in that file. */
export interface MetadataProblem {
  severity: Severity;
  message: string;
  span?: Span;
}

/** Metadata of one tool file with the location of every field that was found. */
export interface ToolMetadataResult {
  metadata: ToolMetadata;
  /** Parser the original routes this extension to, or undefined when it has none. */
  parser?: "python/ast" | "yaml/yaml" | "javascript/javascript";
  spans: Partial<Record<keyof ToolMetadata, Span>>;
  problems: MetadataProblem[];
}

/** Extensions probed for a tool id, in the fixed order of the tool extractor's list (decisions.md #18). */
export const TOOL_EXTENSIONS = [".py", ".yaml", ".yml", ".json", ".js", ".ts", ".mjs", ".cjs", ".sh", ".toml"] as const;

/** The tool extractor's extension → parser map; other extensions yield no metadata at all. */
export const TOOL_PARSERS: Record<string, ToolMetadataResult["parser"]> = {
  ".py": "python/ast",
  ".yaml": "yaml/yaml",
  ".yml": "yaml/yaml",
  ".js": "javascript/javascript",
  ".ts": "javascript/javascript",
  ".mjs": "javascript/javascript",
  ".cjs": "javascript/javascript",
};

// [source key, metadata field] pairs, in the original's order. Each field takes the first source that
// has either spelling, checking the dunder/UPPER spelling before the bare one within a source.
const FIELDS: [string, keyof ToolMetadata][] = [
  ["__version__", "version"],
  ["__tool_type__", "tool_type"],
  ["__executor_id__", "executor_id"],
  ["__category__", "category"],
  ["__tool_description__", "description"],
  ["__execution_owner__", "execution_owner"],
  ["__native_async__", "native_async"],
  ["__native_resume__", "native_resume"],
  ["CONFIG_SCHEMA", "config_schema"],
  ["ENV_CONFIG", "env_config"],
  ["CONFIG", "config"],
  ["CONFIG_RESOLVE", "config_resolve"],
];
const BARE_NAMES: Partial<Record<keyof ToolMetadata, string>> = { description: "tool_description" };
// The original reads these only in their bare spelling. It never reads `execution_params`, so its
// runtimes' lists were ignored; we read it so a plan can honour it. YAML tools spell the description
// `description`, which the original's executor never needed; we fall back to it.
const BARE_ONLY: [string, keyof ToolMetadata][] = [
  ["anchor", "anchor"],
  ["verify_deps", "verify_deps"],
  ["execution_params", "execution_params"],
];

/** `_extract_metadata_from_parsed`: picks the metadata fields out of a parser's output. */
export function normalizeToolMetadata(parsed: Record<string, unknown>): { metadata: ToolMetadata; from: Partial<Record<keyof ToolMetadata, string>> } {
  const sources: Record<string, unknown>[] = [parsed];
  const data = parsed.data;
  if (data !== null && typeof data === "object" && !Array.isArray(data)) sources.push(data as Record<string, unknown>);
  const metadata: ToolMetadata = {};
  const from: Partial<Record<keyof ToolMetadata, string>> = {};
  const pick = (keys: string[], field: keyof ToolMetadata) => {
    for (const src of sources) {
      const key = keys.find((k) => Object.hasOwn(src, k));
      if (key !== undefined) {
        metadata[field] = src[key];
        from[field] = src === parsed ? key : `data.${key}`;
        return;
      }
    }
  };
  for (const [upper, field] of FIELDS) pick([upper, BARE_NAMES[field] ?? field], field);
  for (const [key, field] of BARE_ONLY) pick([key], field);
  if (!("description" in metadata)) pick(["description"], "description");
  return { metadata, from };
}

// Every later step (scope checks, plans, the emitted module) walks metadata recursively; a hostile
// file nested thousands deep would overflow the stack there. Real tools nest a handful of levels.
const MAX_DEPTH = 100;

/** Whether `value` holds lists or mappings nested more than `max` deep (walked without recursion). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Reads a tool file of any extension into normalised metadata, routed as the original routes parsers. */
export function readToolMetadata(text: string, ext: string): ToolMetadataResult {
  const parser = TOOL_PARSERS[ext];
  const problems: MetadataProblem[] = [];
  let parsed: Record<string, unknown> = {};
  let spans: Record<string, Span> = {};
  if (parser === "python/ast") {
    const py = readPythonMetadata(text);
    if (py.error) problems.push({ severity: "error", message: `${py.error.message}: the original uses no metadata from this file`, span: py.error.span });
    for (const a of py.assignments) {
      if (a.skipped && isMetadataName(a.name)) problems.push({ severity: "warning", message: `${a.name} is ignored: ${a.skipped}`, span: a.valueSpan });
    }
    parsed = py.error ? {} : { raw: text, ...py.values };
    spans = py.spans;
  } else if (parser === "yaml/yaml") {
    const yml = readYamlTool(text);
    if (yml.error) problems.push({ severity: "error", message: `Invalid YAML: ${yml.error.message}`, span: yml.error.span });
    for (const w of yml.warnings) problems.push({ severity: "warning", ...w });
    parsed = { data: yml.data, content: text };
    spans = prefixedSpans(yml, "data.");
  } else if (parser === "javascript/javascript") {
    const js = readJsMetadata(text);
    for (const p of js.problems) problems.push({ severity: "warning", message: p.message, span: p.span });
    parsed = { raw: text, ...js.values };
    spans = js.spans;
  } else {
    const start = { offset: 0, line: 1, column: 1 };
    problems.push({
      severity: "warning",
      message: `No metadata parser for '${ext}' files: the original reads no metadata, so this file acts as a primitive`,
      span: { start, end: start },
    });
  }
  if (nestedDeeperThan(parsed, MAX_DEPTH)) {
    const start = { offset: 0, line: 1, column: 1 };
    problems.push({ severity: "error", message: `Metadata nested more than ${MAX_DEPTH} levels deep: rye reads no metadata from this file`, span: { start, end: start } });
    parsed = {};
  }
  const { metadata, from } = normalizeToolMetadata(parsed);
  const fieldSpans: ToolMetadataResult["spans"] = {};
  for (const [field, key] of Object.entries(from) as [keyof ToolMetadata, string][]) {
    const s = spans[key];
    if (s) fieldSpans[field] = s;
  }
  return { metadata, parser, spans: fieldSpans, problems };
}

/** A YAML file's key locations under `prefix`, each looked up only when asked for (see readYamlTool). */
function prefixedSpans(yml: YamlTool, prefix: string): Record<string, Span> {
  return new Proxy({} as Record<string, Span>, {
    get: (_target, key) => (typeof key === "string" && key.startsWith(prefix) ? yml.spans[key.slice(prefix.length)] : undefined),
  });
}

function isMetadataName(name: string): boolean {
  return /^__\w+__$/.test(name) || FIELDS.some(([upper]) => upper === name);
}
