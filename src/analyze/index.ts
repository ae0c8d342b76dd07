import { DiagnosticBag, type Diagnostic, type LineIndex } from "../diagnostics/diagnostic.js";
import { extensionPlaceholder } from "../diagnostics/codes.js";
import type { Span, TemplateNode } from "../parse/ast.js";
import { mayContain, placeholdersWithin, scanPlaceholders } from "../parse/placeholders.js";
import type { DirectiveLocations } from "../parse/directive-data.js";
import type { AnalyzeInput, CompiledText, DeclaredAt, DirectiveAnalysis } from "./analysis.js";
import type { CheckContext } from "./checks/context.js";
import { reportForeignPlaceholders } from "./checks/report-foreign-placeholders.js";
import { reportHookRegexes } from "./checks/report-hook-regexes.js";
import { reportHookTemplates } from "./checks/report-hook-templates.js";
import { reportInputDeclarations } from "./checks/report-input-declarations.js";
import { reportInputReferences } from "./checks/report-input-references.js";
import { reportNameMismatch } from "./checks/report-name-mismatch.js";
import { reportUninterpolatedPlaceholders } from "./checks/report-uninterpolated-placeholders.js";
import { reportUnmatchablePlaceholders } from "./checks/report-unmatchable-placeholders.js";
import { reportMisspeltKinds } from "./checks/report-misspelt-kinds.js";
import { reportUnreadMarkup } from "./checks/report-unread-markup.js";

const CHECKS = [
  reportInputDeclarations,
  reportInputReferences,
  reportUninterpolatedPlaceholders,
  reportUnmatchablePlaceholders,
  reportForeignPlaceholders,
  reportNameMismatch,
  reportHookTemplates,
  reportHookRegexes,
  reportUnreadMarkup,
  reportMisspeltKinds,
];

/** Runs every directive check; returns the analysis for emit, or null when there are errors. */
export function analyzeDirective({ id, parsed }: AnalyzeInput): { analysis: DirectiveAnalysis | null; diagnostics: Diagnostic[] } {
  const bag = new DiagnosticBag();
  parsed.diagnostics.forEach((x) => bag.add(x));
  const data = parsed.data;
  if (!data) return { analysis: null, diagnostics: bag.items };
  const { text } = parsed.file;
  const where = { source: parsed.source, lines: parsed.lines, base: 0 };
  const refs: CheckContext["refs"] = [];
  // The input-ref scan of the whole file serves both the checks and the `raw` field's segments.
  const rawSegments = mayContain(text, "InputRefs") ? scanPlaceholders(text, "InputRefs", where) : null;
  for (const node of rawSegments ?? []) if (node.type === "input_ref") refs.push(node);
  if (mayContain(text, "DollarInputs")) {
    for (const node of scanPlaceholders(text, "DollarInputs", where)) if (node.type === "dollar_input") refs.push(node);
  }
  refs.sort((a, b) => a.loc.start.offset - b.loc.start.offset);
  if (mayContain(text, "EnvRefs")) {
    for (const node of scanPlaceholders(text, "EnvRefs", where)) if (node.type === "env_ref") bag.add(extensionPlaceholder(node.loc, node.raw));
  }
  const ctx: CheckContext = { id, parsed, data, refs, bag };
  for (const check of CHECKS) check(ctx);
  // Reported in file order, as tsc does; the sort is stable for diagnostics at one position.
  bag.items.sort((a, b) => (a.loc?.start.offset ?? 0) - (b.loc?.start.offset ?? 0));
  if (bag.hasErrors) return { analysis: null, diagnostics: bag.items };
  const span = (s: Span) => ({ text: s.text, base: s.loc.start.offset });
  const fence = parsed.file.fence!;
  const file = rawSegments && { nodes: rawSegments, text };
  const analysis: DirectiveAnalysis = {
    id,
    source: parsed.source,
    data,
    inputs: data.inputs ?? [],
    body: compileText(span(parsed.file.body), true, parsed.source, parsed.lines, file),
    content: compileText(span(fence.content), true, parsed.source, parsed.lines, file),
    raw: compileText({ text, base: 0 }, true, parsed.source, parsed.lines, file),
    actions: compileActions(data.actions ?? [], parsed.source, parsed.lines),
    diagnostics: bag.items,
    declared: declaredAt(parsed.locs),
  };
  return { analysis, diagnostics: bag.items };
}

/** Where the directive, its inputs and its outputs were written: what its declarations map to. */
function declaredAt(locs: DirectiveLocations): DeclaredAt {
  return { root: locs.root.start, inputs: locs.inputs.map((i) => (i.name ?? i.element).start), outputs: locs.outputs.map((o) => o.start) };
}

/**
 * Splits a field into literal text and input refs, or marks it for the run-time interpreter. `file`:
 * the input-ref scan of the whole file the field is a slice of (at `s.base`), which holds the field's.
 */
function compileText(s: { text: string; base: number }, envPass: boolean, source: string, lines: LineIndex, file: { nodes: TemplateNode[]; text: string } | null = null): CompiledText {
  const where = { source, lines, base: s.base };
  // `{env:…}` runs first and its values may form or break input refs, so such fields are interpreted.
  if (envPass && mayContain(s.text, "EnvRefs") && scanPlaceholders(s.text, "EnvRefs", where).some((n) => n.type !== "text")) {
    return { text: s.text, segments: null, env: true };
  }
  // The whole file (`raw`) is the scan itself.
  const within = () =>
    !file ? null : s.base === 0 && s.text.length === file.text.length ? file.nodes : placeholdersWithin(file.nodes, file.text, s.base, s.base + s.text.length, { source, lines, base: 0 });
  const segments = mayContain(s.text, "InputRefs")
    ? (within() ?? scanPlaceholders(s.text, "InputRefs", where))
    : [{ type: "text" as const, value: s.text, loc: lines.location(source, s.base, s.base + s.text.length) }];
  return { text: s.text, segments, env: false };
}

/** Every top-level string of an action and every string param, as `_interpolate_parsed` visits them. */
function compileActions(actions: NonNullable<AnalyzeInput["parsed"]["data"]>["actions"] & object, source: string, lines: LineIndex) {
  const out: DirectiveAnalysis["actions"] = [];
  actions.forEach((action, i) => {
    for (const [k, v] of Object.entries(action)) {
      if (typeof v === "string") out.push({ key: [String(i), k], text: compileText({ text: v, base: 0 }, false, source, lines) });
    }
    for (const [k, v] of Object.entries(action.params ?? {})) {
      out.push({ key: [String(i), "params", k], text: compileText({ text: v, base: 0 }, false, source, lines) });
    }
  });
  return out;
}
