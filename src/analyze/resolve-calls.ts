import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { scanCalls } from "../parse/scan-calls.js";
import type { DirectiveCall } from "../runtime/directive.js";
import type { DirectiveEntry, LeafEntry } from "./resolve-context.js";

type Value = { kind: "str" | "num" | "const" | "input" | "prose"; value: unknown } | { kind: "dict"; entries: { key: string; value: Value }[] } | { kind: "list"; items: Value[] };
type RawCall = { type: "call" | "broken_call"; name: string; args?: { key: string; value: Value; start: number; end: number }[]; start: number; end: number };

/** One call a directive makes, with its resolved target (null when dynamic or not found): what its module exports as `calls`. */
export type CallPlan = DirectiveCall;

/** What calls can resolve against: item lookups across spaces. */
export interface ItemIndex {
  directive(id: string): DirectiveEntry | undefined;
  has(kind: "tool" | "knowledge", id: string): string | undefined;
}

const KINDS = ["tool", "directive", "knowledge"] as const;

function toJs(v: Value): unknown {
  if (v.kind === "dict") return Object.fromEntries(v.entries.map((e) => [e.key, toJs(e.value)]));
  if (v.kind === "list") return v.items.map(toJs);
  return v.value;
}

/** Glob match as Python's fnmatch with `*` only (capabilities use nothing else). */
const glob = (pattern: string, s: string) => globRegExp(pattern).test(s);

// A project has few distinct permission patterns and many calls checked against them.
const compiledGlobs = new Map<string, RegExp>();
function globRegExp(pattern: string): RegExp {
  let re = compiledGlobs.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
    if (compiledGlobs.size < 4096) compiledGlobs.set(pattern, re);
  }
  return re;
}

/**
 * Parses the backtick calls of a directive body and checks each against the items of every space
 * (decisions.md #9): unknown targets, missing or unknown inputs of a called directive, and
 * capabilities the caller's permissions do not grant.
 */
export function resolveCalls(entry: LeafEntry, index: ItemIndex, permissions: readonly string[]): { calls: CallPlan[]; diagnostics: Diagnostic[] } {
  const body = entry.parsed.file.body;
  const diagnostics: Diagnostic[] = [];
  const calls: CallPlan[] = [];
  if (!body.text.includes("`rye_")) return { calls, diagnostics };
  const base = body.loc.start.offset;
  const loc = (s: number, e: number) => entry.parsed.lines.location(entry.parsed.source, base + s, base + e);
  for (const raw of scanCalls<RawCall>(body.text)) {
    if (raw.type === "broken_call") {
      diagnostics.push(d.unparsedCall(loc(raw.start, raw.end), raw.name));
      continue;
    }
    const args = new Map((raw.args ?? []).map((a) => [a.key, a]));
    const str = (k: string) => {
      const v = args.get(k)?.value;
      return v && v.kind === "str" ? (v.value as string) : null;
    };
    const params = args.get("parameters")?.value;
    const plan: CallPlan = {
      primary: raw.name.slice(4),
      item_type: str("item_type"),
      item_id: str("item_id"),
      parameters: params?.kind === "dict" ? (toJs(params) as Record<string, unknown>) : null,
      target: null,
    };
    calls.push(plan);
    const id = plan.item_id;
    if (!id || plan.primary === "search" || /\{input:|\$\{|\{env:/.test(id)) continue;
    const at = args.get("item_id")!;
    // Era C writes `item_id="tool:…"` or omits item_type; both are resolved against every kind.
    const prefixed = /^(tool|directive|knowledge):(.*)$/.exec(id);
    const bareId = prefixed ? prefixed[2]! : id;
    const kinds = plan.item_type ? [plan.item_type] : prefixed ? [prefixed[1]!] : [...KINDS];
    for (const kind of kinds) {
      const space = kind === "directive" ? index.directive(bareId)?.space : kind === "tool" || kind === "knowledge" ? index.has(kind, bareId) : undefined;
      if (space) {
        plan.target = { kind, id: bareId, space };
        break;
      }
    }
    if (!plan.target) {
      diagnostics.push(d.callTargetNotFound(loc(at.start, at.end), plan.item_type ?? "item", bareId));
      continue;
    }
    if (plan.target.kind === "directive" && plan.primary === "execute" && plan.parameters) checkInputs(plan, index, loc(raw.start, raw.end), diagnostics);
    if (permissions.length > 0 && plan.primary !== "search") {
      const cap = `rye.${plan.primary}.${plan.target.kind}.${bareId.replaceAll("/", ".")}`;
      const slashed = `rye.${plan.primary}.${plan.target.kind}.${bareId}`;
      if (!permissions.some((p) => glob(p, cap) || glob(p, slashed))) diagnostics.push(d.callNotPermitted(loc(raw.start, raw.end), cap));
    }
  }
  return { calls, diagnostics };
}

function checkInputs(plan: CallPlan, index: ItemIndex, at: Diagnostic["loc"] & object, out: Diagnostic[]): void {
  const callee = index.directive(plan.target!.id);
  const declared = callee?.data.inputs ?? [];
  const given = Object.keys(plan.parameters!);
  const missing = declared.filter((i) => i.required && i.default === undefined && !given.includes(i.name)).map((i) => i.name);
  if (missing.length > 0) out.push(d.callMissingInput(at, plan.target!.id, missing));
  if (declared.length > 0) {
    const unknown = given.filter((g) => !declared.some((i) => i.name === g));
    if (unknown.length > 0) out.push(d.callUnknownInput(at, plan.target!.id, unknown, declared.map((i) => i.name)));
  }
}
