import { parse as parseYaml, YAMLParseError } from "yaml";
import { LineIndex, type Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { explainMissingFence } from "./explain-missing-fence.js";
import { readBlockYaml } from "./read-block-yaml.js";
import { normaliseNewlines, splitMarkdown } from "./split-markdown.js";
import { YAML_1_1 } from "./yaml-1-1-scalars.js";
import { yamlErrorLine } from "./yaml-error-line.js";
import { MAX_YAML_DEPTH, yamlTooDeepAt } from "./yaml-depth.js";
import { nestedDeeperThan } from "../runtime/py-value.js";
import type { KnowledgeData } from "../model/items.js";
import { knowledgeContent } from "./knowledge-content.js";

export interface ParsedKnowledge {
  source: string;
  data: KnowledgeData | null;
  diagnostics: Diagnostic[];
}

/**
 * Parses a knowledge `.md` (metadata in a ```yaml fence) or a pure `.yaml`/`.yml` file. YAML is read
 * with the 1.1 schema, as PyYAML's `safe_load` does (`yes`/`no` booleans, timestamps). `body` is the
 * content a thread is given (see knowledge-content.ts): the text after the fence, else the whole file.
 */
export function parseKnowledge(input: string, source: string, ext = ".md"): ParsedKnowledge {
  const text = normaliseNewlines(input);
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = [];
  const result: KnowledgeData = { body: "", raw: text };
  const file = ext === ".md" ? splitMarkdown(text, source, "yaml", lines) : null;
  if (file?.fence) {
    const data = readYaml(file.fence.content.text, file.fence.content.loc.start.offset, source, lines, diagnostics);
    if (data === undefined) return { source, data: null, diagnostics };
    if (data && typeof data === "object" && !Array.isArray(data)) Object.assign(result, data);
    result.body = knowledgeContent({ body: file.body.text, raw: text });
    return { source, data: result, diagnostics };
  }
  if (dashesFrontmatter(text)) {
    const at = text.indexOf("---");
    diagnostics.push(d.dashesFrontmatter(lines.location(source, at, at + 3)));
    return { source, data: null, diagnostics };
  }
  if (ext === ".md") {
    const why = explainMissingFence(text, "yaml");
    diagnostics.push(d.noMetadataFence(lines.location(source, why?.offset ?? 0, why?.offset ?? 0), "yaml", why?.hint));
    return { source, data: null, diagnostics };
  }
  let body = text;
  let base = 0;
  if (body.startsWith("<!--") && body.includes("-->")) {
    const end = body.indexOf("-->") + 3;
    const rest = body.slice(end).replace(/^\n+/, "");
    base = text.length - rest.length;
    body = rest;
  }
  const data = readYaml(body, base, source, lines, diagnostics);
  if (data && typeof data === "object" && !Array.isArray(data)) Object.assign(result, data);
  result.body = knowledgeContent(result);
  return { source, data: result, diagnostics };
}

/** The original rejects `---` frontmatter (after an optional leading comment) with a clear error. */
function dashesFrontmatter(text: string): boolean {
  let s = text.trimStart();
  if (s.startsWith("<!--")) {
    const end = s.indexOf("-->");
    if (end !== -1) s = s.slice(end + 3).trimStart();
  }
  return s.startsWith("---");
}

function readYaml(text: string, base: number, source: string, lines: LineIndex, out: Diagnostic[]): unknown {
  const quick = readBlockYaml(text, YAML_1_1);
  // Only a text the quick reader took and found too deep, or one it did not take, is measured on its CST.
  const deep = quick === undefined || nestedDeeperThan(quick, MAX_YAML_DEPTH) ? yamlTooDeepAt(text) : -1;
  if (deep !== -1) {
    out.push(d.yamlTooDeep(lines.location(source, base + deep, base + deep), MAX_YAML_DEPTH));
    return undefined;
  }
  if (quick !== undefined) return quick;
  try {
    return parseYaml(text, { version: "1.1", prettyErrors: false });
  } catch (e) {
    const offset = e instanceof YAMLParseError ? base + (e.pos[0] ?? 0) : base;
    const message = e instanceof YAMLParseError ? yamlErrorLine(text, e.message, e.pos[0] ?? -1) : e instanceof Error ? e.message.split("\n")[0]! : String(e);
    out.push(d.invalidYaml(lines.location(source, offset, offset), message));
    return undefined;
  }
}
