// What the editor shows about an item: its description, where it is, its inputs or parameters.
import type { ItemKind, SourceFile } from "../model/source.js";
import { parseDirective } from "../parse/parse-directive.js";
import { parseKnowledge } from "../parse/parse-knowledge.js";
import type { DeclaredInput } from "../runtime/validate.js";
import { readToolMetadata } from "../tools/tool-metadata.js";

/** A parameter a call may pass: a directive's input or a tool's CONFIG_SCHEMA property. */
export interface ParamInfo {
  name: string;
  type?: string;
  required: boolean;
  default?: unknown;
  description?: string;
}

const described = new Map<string, [text: string, description: string | undefined]>();

/** An item's one-line description, or undefined when it has none (or does not parse); kept per file text. */
export function describeItem(src: SourceFile): string | undefined {
  const known = described.get(src.path);
  if (known && known[0] === src.text) return known[1];
  const description = readDescription(src);
  described.set(src.path, [src.text, description]);
  return description;
}

function readDescription(src: SourceFile): string | undefined {
  if (src.kind === "directive") return parseDirective(src.text, src.path).data?.description;
  if (src.kind === "knowledge") {
    const data = parseKnowledge(src.text, src.path, src.ext ?? ".md").data;
    const text = data?.description ?? data?.title;
    return typeof text === "string" ? text : undefined;
  }
  const description = readToolMetadata(src.text, src.ext ?? ".py").metadata.description;
  return typeof description === "string" ? description : undefined;
}

/** The parameters a call to this item may pass, in declaration order. */
export function paramsOf(src: SourceFile): ParamInfo[] {
  if (src.kind === "directive") return (parseDirective(src.text, src.path).data?.inputs ?? []).map(fromInput);
  if (src.kind !== "tool") return [];
  const schema = readToolMetadata(src.text, src.ext ?? ".py").metadata.config_schema;
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(schema.properties).map(([name, p]) => ({
    name,
    required: required.has(name),
    ...(isRecord(p) && typeof p.type === "string" ? { type: p.type } : {}),
    ...(isRecord(p) && typeof p.description === "string" ? { description: p.description } : {}),
    ...(isRecord(p) && Object.hasOwn(p, "default") ? { default: p.default } : {}),
  }));
}

/** The declared inputs of a directive's text (the open buffer's, so completion follows typing). */
export function inputsOfText(text: string, path: string): ParamInfo[] {
  return (parseDirective(text, path).data?.inputs ?? []).map(fromInput);
}

/** Markdown describing a parameter, for completion details and hovers. */
export function paramMarkdown(p: ParamInfo): string {
  const facts = [p.type ?? "string", p.required ? "required" : "optional"];
  if (p.default !== undefined) facts.push(`default ${JSON.stringify(p.default)}`);
  return `**${p.name}** (${facts.join(", ")})${p.description ? `\n\n${p.description}` : ""}`;
}

/** Markdown describing an item, for hovers on ids. */
export function itemMarkdown(kind: ItemKind, id: string, src: SourceFile | undefined): string {
  if (!src) return `No ${kind} \`${id}\` in any space.`;
  const where = src.space && src.space !== "project" ? ` (${src.space} space)` : "";
  const description = describeItem(src);
  return `**${kind}** \`${id}\`${where}${description ? `\n\n${description}` : ""}\n\n${src.path}`;
}

function fromInput(i: DeclaredInput): ParamInfo {
  return { name: i.name, required: i.required === true, ...(i.type ? { type: i.type } : {}), ...(i.default !== undefined ? { default: i.default } : {}), ...(i.description ? { description: i.description } : {}) };
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
