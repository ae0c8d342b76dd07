// `rye test --coverage`: what no case exercised. Per directive: declared inputs no case gave, each
// optional placeholder (`{input:x?}`, `{input:x:default}`, `{input:x|fallback}`) whose value-given
// or value-absent side no case took, and knowledge its thread places that no case checked a thread
// field of; and every project item that has no test file at all.
import type { SourceFile } from "../model/source.js";
import type { CaseResult } from "./case-result.js";
import type { Report, Selection } from "./run-tests.js";
import { fileSelected } from "./select.js";
import type { DirectiveTarget, Targets } from "./targets.js";
import type { TestFile } from "./test-file.js";

export interface ItemCoverage {
  kind: string;
  id: string;
  /** No test file names this item. */
  untested: boolean;
  inputs: string[];
  branches: { placeholder: string; line: number; missing: "given" | "absent" }[];
  context: string[];
}

export interface Coverage {
  items: ItemCoverage[];
  /** How many of the counted things some case exercised, of how many there are. */
  covered: number;
  total: number;
}

/** `{input:name}` with a fallback: the same rule the placeholder grammar gives (`?`, `:default`, `|fallback`). */
const OPTIONAL_REF = /\{input:([\p{L}\p{N}_]+)(\?|[:|][^}]*)\}/gu;

export function coverageOf(report: Report, targets: Targets, files: readonly TestFile[], selection: Selection, sources: readonly SourceFile[]): Coverage {
  const tested = new Set(files.map((f) => `${f.kind}:${f.id}`));
  const items: ItemCoverage[] = [];
  let covered = 0;
  let total = 0;
  for (const kind of ["directive", "knowledge", "tool"] as const) {
    for (const id of [...targets[kind].keys()].sort()) {
      const file = files.find((f) => f.kind === kind && f.id === id);
      if (file && !fileSelected(file, selection.filters)) continue;
      if (!file && selection.filters.length > 0) continue;
      total++;
      if (!tested.has(`${kind}:${id}`)) {
        items.push({ kind, id, untested: true, inputs: [], branches: [], context: [] });
        continue;
      }
      covered++;
      if (kind !== "directive") continue;
      const ran = report.results.filter((r) => r.file === file && r.status !== "skipped" && !r.test.refuses);
      const source = sources.find((s) => s.kind === "directive" && s.id === id && (s.space ?? "project") === "project");
      const item = directiveCoverage(id, targets.directive.get(id)!, ran, source?.text ?? "");
      const missing = item.inputs.length + item.branches.length + item.context.length;
      const all = countAll(targets.directive.get(id)!, source?.text ?? "");
      total += all;
      covered += all - missing;
      if (missing > 0) items.push(item);
    }
  }
  return { items, covered, total };
}

function optionalRefs(text: string): { placeholder: string; input: string; line: number }[] {
  return [...text.matchAll(OPTIONAL_REF)].map((m) => ({ placeholder: m[0], input: m[1]!, line: text.slice(0, m.index).split("\n").length }));
}

function contextIds(d: DirectiveTarget): string[] {
  const p = d.contextPlan;
  return p ? [...new Set([...p.hooks.flatMap((h) => h.items), ...p.system, ...p.before, ...p.after])] : [];
}

/** Inputs, both sides of each optional placeholder, and each context item. */
function countAll(d: DirectiveTarget, text: string): number {
  return (d.metadata.inputs ?? []).length + 2 * optionalRefs(text).length + contextIds(d).length;
}

function directiveCoverage(id: string, d: DirectiveTarget, ran: readonly CaseResult[], text: string): ItemCoverage {
  const given = (name: string) => ran.some((r) => r.given.includes(name));
  const absent = (name: string) => ran.some((r) => !r.given.includes(name));
  const inputs = (d.metadata.inputs ?? []).map((i) => i.name).filter((n) => !given(n));
  const branches: ItemCoverage["branches"] = [];
  for (const ref of optionalRefs(text)) {
    if (!given(ref.input)) branches.push({ placeholder: ref.placeholder, line: ref.line, missing: "given" });
    if (!absent(ref.input)) branches.push({ placeholder: ref.placeholder, line: ref.line, missing: "absent" });
  }
  const context = ran.some((r) => r.thread) ? [] : contextIds(d);
  return { kind: "directive", id, untested: false, inputs, branches, context };
}

/** The coverage as a person reads it. */
export function coverageText(c: Coverage): string {
  const pct = c.total === 0 ? 100 : Math.floor((100 * c.covered) / c.total);
  const lines = ["", `Coverage: ${c.covered} of ${c.total} (${pct} %)`];
  for (const item of c.items) {
    if (item.untested) {
      lines.push(`  ${item.kind} ${item.id}: no test file`);
      continue;
    }
    lines.push(`  ${item.kind} ${item.id}:`);
    if (item.inputs.length) lines.push(`    inputs no case gives: ${item.inputs.join(", ")}`);
    for (const b of item.branches) lines.push(`    line ${b.line} ${b.placeholder}: no case runs it with the input ${b.missing}`);
    if (item.context.length) lines.push(`    context no case checks (system, user or context): ${item.context.join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}
