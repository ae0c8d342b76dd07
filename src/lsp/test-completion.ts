// Completion in a test file (`.ai/tests/<kind>/<id>.test.yaml`): where the cursor sits in the YAML
// (which keys enclose it, a key or a value) decides what is offered: case keys, the tested item's
// inputs, the fields an expectation may name, the checks of a field, refusal kinds and item ids.
import type { ItemKind, SourceFile } from "../model/source.js";
import { CASE_KEYS, FIELDS, REFUSAL_KEYS } from "../testing/fields.js";
import { MATCHER_KEYS } from "../testing/test-file.js";
import { describeItem, paramMarkdown, type ParamInfo } from "./item-info.js";
import type { Completion } from "./completion.js";

/** Where the cursor is: the keys that enclose it, and the key whose value it is writing (if any). */
export interface YamlSpot {
  parents: string[];
  valueOf: string | null;
}

interface Line {
  /** Indent of the line's first dash, or of its text when it has none. */
  dashAt: number;
  /** Indent of the text after any dashes. */
  textAt: number;
  dashed: boolean;
  key: string | null;
  /** The text after `key:`, or the whole text when there is no key. */
  rest: string;
}

function readLine(line: string): Line | null {
  const m = /^( *)((?:- +|-$)*)(.*)$/.exec(line)!;
  const text = m[3]!;
  if (text.startsWith("#")) return null;
  const kv = /^([A-Za-z_][\w.-]*)\s*:(?:\s+(.*)|$)/.exec(text);
  return { dashAt: m[1]!.length, textAt: m[1]!.length + m[2]!.length, dashed: m[2]!.length > 0, key: kv ? kv[1]! : null, rest: kv ? (kv[2] ?? "") : text };
}

/** The spot of the end of `before` (the text up to the cursor), read from indentation alone so half-written YAML still answers. */
export function yamlSpot(before: string): YamlSpot {
  const lines = before.split("\n");
  const cur = readLine(lines[lines.length - 1]!.replace(/\r$/, ""));
  if (!cur) return { parents: [], valueOf: null };
  const parents: string[] = [];
  let limit = cur.dashed ? cur.dashAt : cur.textAt;
  for (let i = lines.length - 2; i >= 0 && limit > 0; i--) {
    const l = readLine(lines[i]!.replace(/\r$/, ""));
    if (!l || l.rest.trim() === "" && l.key === null) continue;
    if (l.key !== null && l.textAt < limit) {
      parents.unshift(l.key);
      limit = l.textAt;
    }
    if (l.dashed && l.dashAt < limit) limit = l.dashAt;
  }
  if (cur.key !== null) return { parents, valueOf: cur.key };
  // `- x` under a key is one of its list's values, except a new case, which is a map of keys.
  if (cur.dashed && parents.length > 0 && parents.join(".") !== "cases") return { parents: parents.slice(0, -1), valueOf: parents[parents.length - 1]! };
  return { parents, valueOf: null };
}

/** What the tested item is, for completion: its kind, the inputs it declares, and every source (for ids). */
export interface TestedItem {
  kind: ItemKind;
  inputs: readonly ParamInfo[];
  sources: readonly SourceFile[];
}

/** The completions at the end of `before` in a test file of `item`. */
export function completeTestFile(before: string, item: TestedItem): Completion[] {
  const { parents, valueOf } = yamlSpot(before);
  const at = parents.join(".");
  if (valueOf === null) return keysAt(at, parents, item);
  if (at === "cases.refuses" && ["missing", "type", "unknown"].includes(valueOf)) return item.inputs.map(input);
  // `inputs: { who: Ada, ` written inline: the next key is an input's name.
  if (at === "cases" && valueOf === "inputs" && /^\{(?:[^}:]*:[^,}]*,)*\s*[\w-]*$/.test(before.slice(before.lastIndexOf("inputs:") + 7).trim())) return item.inputs.map(input);
  if (at === "cases" && (valueOf === "skip" || valueOf === "only")) return ["true", "false"].map((label) => ({ label, kind: 14 }));
  if (valueOf === "snapshot") return [{ label: "true", kind: 14 }];
  // An id inside a check of `context`, `chain` or `calls` (`contains: [id]`, or `- id` under it).
  const field = parents[1] === "expect" && parents.length >= 3 ? parents[2]!.split(".")[0] : undefined;
  const kinds: ItemKind[] | undefined = field === "context" ? ["knowledge"] : field === "chain" ? ["tool", "directive"] : field === "calls" ? ["directive", "tool"] : undefined;
  return kinds ? ids(item.sources, kinds) : [];
}

function keysAt(at: string, parents: readonly string[], item: TestedItem): Completion[] {
  const keys = (labels: readonly string[], detail: string, kind: 5 | 14 = 5): Completion[] => labels.map((label) => ({ label, kind, detail }));
  if (at === "") return keys(["cases"], "the list of cases");
  if (at === "cases") return keys(CASE_KEYS, "case key");
  if (at === "cases.inputs" || at === "cases.refuses.payload") return item.inputs.map(input);
  if (at === "cases.expect") return keys(FIELDS[item.kind], `field of a ${item.kind}`);
  if (parents.length === 3 && parents[1] === "expect") return keys(MATCHER_KEYS, "check", 14);
  if (at === "cases.refuses") return keys(REFUSAL_KEYS, "refusal", 14);
  if (at === "cases.refuses.error") return keys(MATCHER_KEYS, "check", 14);
  return [];
}

function input(p: ParamInfo): Completion {
  return { label: p.name, kind: 6, detail: `${p.type ?? "string"}${p.required ? ", required" : ""}`, documentation: { kind: "markdown", value: paramMarkdown(p) } };
}

/** Item ids of the given kinds across the spaces (a thread's context may come from any of them). */
function ids(sources: readonly SourceFile[], kinds: readonly ItemKind[]): Completion[] {
  const seen = new Map<string, Completion>();
  for (const s of sources) {
    if (!kinds.includes(s.kind) || seen.has(s.id)) continue;
    const description = describeItem(s);
    seen.set(s.id, { label: s.id, kind: 18, detail: s.kind, ...(description ? { documentation: { kind: "markdown", value: description } } : {}) });
  }
  return [...seen.values()];
}
