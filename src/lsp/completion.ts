// Completion items for each cursor context: names the compiler knows, with what they are.
import type { ItemKind, SourceFile } from "../model/source.js";
import { PERMISSION_PRIMARIES } from "../parse/extract-metadata.js";
import { BUILTIN_PARAMS } from "../tools/check-scopes.js";
import { TS_TYPES } from "../analyze/analysis.js";
import type { CursorContext } from "./cursor-context.js";
import { describeItem, inputsOfText, paramMarkdown, paramsOf, type ParamInfo } from "./item-info.js";

/** An LSP CompletionItem (the fields this server fills). */
export interface Completion {
  label: string;
  /** LSP CompletionItemKind: 5 field, 6 variable, 14 keyword, 18 reference. */
  kind: 5 | 6 | 14 | 18;
  detail?: string;
  documentation?: { kind: "markdown"; value: string };
}

const PERMISSION_TAGS = [...PERMISSION_PRIMARIES, "acknowledge"];
const ITEM_TYPES: Record<string, ItemKind> = { directive: "directive", tool: "tool", knowledge: "knowledge" };

/** The completions for `ctx` in the file `path` whose current text is `text`, among `sources`. */
export function complete(ctx: CursorContext, text: string, path: string, sources: readonly SourceFile[]): Completion[] {
  switch (ctx.kind) {
    case "input":
      return inputsOfText(text, path).map((p) => param(p, 6));
    case "extends":
      return ids(sources, ["directive"]);
    case "context":
      return ids(sources, ["knowledge"]);
    case "call-id":
      return ids(sources, ctx.itemType && ITEM_TYPES[ctx.itemType] ? [ITEM_TYPES[ctx.itemType]!] : ["directive", "tool", "knowledge"]);
    case "call-param": {
      const kinds: ItemKind[] = ctx.itemType === "tool" ? ["tool"] : ctx.itemType === "directive" ? ["directive"] : ["directive", "tool"];
      const target = sources.find((s) => kinds.includes(s.kind) && s.id === ctx.target);
      return target ? paramsOf(target).map((p) => param(p, 5)) : [];
    }
    case "permission":
      return PERMISSION_TAGS.map((label) => ({ label, kind: 14, detail: "permission" }));
    case "input-type":
      return Object.keys(TS_TYPES).map((label) => ({ label, kind: 14, detail: `TypeScript: ${TS_TYPES[label]}` }));
    case "tool-param":
      return BUILTIN_PARAMS.map((label) => ({ label, kind: 6, detail: "runtime parameter" }));
    case "tool-env":
      return envNames(text).map((label) => ({ label, kind: 6, detail: "environment variable" }));
  }
}

function param(p: ParamInfo, kind: 5 | 6): Completion {
  return { label: p.name, kind, detail: `${p.type ?? "string"}${p.required ? ", required" : ""}`, documentation: { kind: "markdown", value: paramMarkdown(p) } };
}

/** Item ids of the given kinds across the spaces, the first file of each id describing it. */
function ids(sources: readonly SourceFile[], kinds: readonly ItemKind[]): Completion[] {
  const seen = new Map<string, Completion>();
  for (const s of sources) {
    if (!kinds.includes(s.kind) || seen.has(`${s.kind}:${s.id}`)) continue;
    const description = describeItem(s);
    seen.set(`${s.kind}:${s.id}`, { label: s.id, kind: 18, detail: `${s.kind}${s.space && s.space !== "project" ? ` (${s.space})` : ""}`, ...(description ? { documentation: { kind: "markdown", value: description } } : {}) });
  }
  return [...seen.values()];
}

/** Environment variable names a tool YAML itself defines: an interpreter's `var` and the keys of `env`. */
function envNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/\bvar:\s*["']?([A-Z_][A-Z0-9_]*)/g)) names.add(m[1]!);
  for (const m of text.matchAll(/^\s+([A-Z_][A-Z0-9_]*):/gm)) names.add(m[1]!);
  return [...names];
}
