import type { Diagnostic } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import { callFailurePosition, MAX_CALL_DEPTH, scanCalls } from "../parse/scan-calls.js";
import type { DirectiveCall } from "../runtime/directive.js";
import { checkDirectiveParams, checkToolParams, type CallArgs } from "./check-call-params.js";
import type { DirectiveEntry, LeafEntry } from "./resolve-context.js";

type Value = ({ kind: "str" | "num" | "const" | "input" | "prose"; value: unknown } | { kind: "dict"; entries: { key: string; value: Value; start: number; end: number }[] } | { kind: "list"; items: Value[] }) & { start: number };
type RawCall = { type: "call" | "broken_call" | "deep_call"; name: string; args?: { key: string; value: Value; start: number; end: number }[]; start: number; end: number; at?: number };

/** One call a directive makes, with its resolved target (null when dynamic or not found): what its module exports as `calls`. */
export type CallPlan = DirectiveCall;

/** What calls can resolve against: item lookups across spaces. */
export interface ItemIndex {
  /** A directive found in some space; one that exists but does not parse is found too, marked `failed`. */
  directive(id: string): DirectiveEntry | undefined;
  /** The space of the tool or knowledge item, found even when it has errors of its own. */
  has(kind: "tool" | "knowledge", id: string): string | undefined;
  /** The CONFIG_SCHEMA of the tool an id resolves to. */
  toolSchema(id: string): unknown;
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

const CALL_OPENER = /`[ \t\n\r]*rye_/;

/**
 * Parses the backtick calls of a directive body and checks each against the items of every space
 * (decisions.md #9): unknown targets, missing or unknown inputs of a called directive, and
 * capabilities the caller's permissions do not grant.
 */
export function resolveCalls(entry: LeafEntry, index: ItemIndex, permissions: readonly string[]): { calls: CallPlan[]; diagnostics: Diagnostic[] } {
  const body = entry.parsed.file.body;
  const diagnostics: Diagnostic[] = [];
  const calls: CallPlan[] = [];
  // The calls grammar allows blanks between the backtick and the callee (`` ` rye_load(…)` ``).
  if (!CALL_OPENER.test(body.text)) return { calls, diagnostics };
  const base = body.loc.start.offset;
  const loc = (s: number, e: number) => entry.parsed.lines.location(entry.parsed.source, base + s, base + e);
  for (const raw of scanCalls<RawCall>(body.text)) {
    if (raw.type === "deep_call") {
      diagnostics.push(d.callTooDeep(loc(raw.at!, raw.at! + 1), raw.name, MAX_CALL_DEPTH));
      continue;
    }
    if (raw.type === "broken_call") {
      diagnostics.push(d.unparsedCall(loc(...offendingToken(body.text, raw)), raw.name));
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
    // An untyped call names some other item: the directive's own id is never what it means.
    const self = !plan.item_type && !prefixed ? entry.id : null;
    const kinds = plan.item_type ? [plan.item_type] : prefixed ? [prefixed[1]!] : [...KINDS];
    plan.target = findTarget(bareId, kinds, self, index);
    if (!plan.target) {
      const known = kinds.filter((k): k is (typeof KINDS)[number] => (KINDS as readonly string[]).includes(k));
      diagnostics.push(d.callTargetNotFound(loc(at.value.start, at.end), plan.item_type ?? "item", bareId, known, self));
      continue;
    }
    const given = args.get("parameters");
    if (plan.primary === "execute" && given?.value.kind === "dict") {
      const call: CallArgs = { id: plan.target.id, at: loc(given.value.start, given.end), keys: given.value.entries.map((e) => ({ name: e.key, loc: loc(e.start, e.end), value: e.value })) };
      if (plan.target.kind === "directive") checkDirectiveParams(call, index.directive(plan.target.id), diagnostics);
      else if (plan.target.kind === "tool") checkToolParams(call, index.toolSchema(plan.target.id), diagnostics);
    }
    if (permissions.length > 0 && plan.primary !== "search") {
      const cap = `rye.${plan.primary}.${plan.target.kind}.${bareId.replaceAll("/", ".")}`;
      const slashed = `rye.${plan.primary}.${plan.target.kind}.${bareId}`;
      if (!permissions.some((p) => glob(p, cap) || glob(p, slashed))) diagnostics.push(d.callNotPermitted(loc(raw.start, raw.end), cap));
    }
  }
  return { calls, diagnostics };
}

/** The first kind under which `id` is found; `self`, the calling directive's id, never counts as a directive. */
function findTarget(id: string, kinds: readonly string[], self: string | null, index: ItemIndex): CallPlan["target"] {
  for (const kind of kinds) {
    if (kind === "directive" && id === self) continue;
    const space = kind === "directive" ? index.directive(id)?.space : kind === "tool" || kind === "knowledge" ? index.has(kind, id) : undefined;
    if (space) return { kind, id, space };
  }
  return null;
}

/** The span to underline in a call that does not parse: the token where parsing stopped. */
function offendingToken(text: string, raw: RawCall): [number, number] {
  const at = Math.min(Math.max(callFailurePosition(text, raw.start), raw.start), raw.end - 1);
  const token = /^[^\s,()=`]+/.exec(text.slice(at, raw.end - 1));
  return [at, at + (token ? token[0].length : 1)];
}
