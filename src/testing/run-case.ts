// Runs one case against its item: validate the inputs as a run does, then render (or plan, or run
// the tool) and check each expectation; or, for a case that expects a refusal, check the payload.
import type { CaseResult, Failure } from "./case-result.js";
import { checkMatcherAt, valueAt } from "./expectations.js";
import { checkRefusal } from "./refusals.js";
import { matchSnapshot, snapshotPath, type SnapshotOptions } from "./snapshots.js";
import type { DirectiveTarget, KnowledgeTarget, Targets, ToolTarget } from "./targets.js";
import type { Expectation, TestCase, TestFile } from "./test-file.js";
import { THREAD_FIELDS } from "./fields.js";

export interface RunOptions {
  snapshots: SnapshotOptions;
  /** Run tools for real, so `result` expectations can be checked. */
  runTools: boolean;
  /** The clock the run reads; fixed by --now so reports are the same every time. */
  clock: () => number;
}

/** A field's value, computed once per case on first use. */
type Fields = (name: string) => Promise<unknown>;

/** Runs `c` of `file`; never throws (an exception from the item is a failure of the case). */
export async function runCase(file: TestFile, c: TestCase, targets: Targets, options: RunOptions): Promise<CaseResult> {
  const started = options.clock();
  const result: CaseResult = { file, test: c, status: "passed", failures: [], durationMs: 0, snapshots: { written: 0, updated: 0 }, given: Object.keys(c.inputs), thread: false };
  if (targets.provenance) result.provenance = targets.provenance(file.kind, file.id);
  const skip = skipReason(file, c, targets, options);
  if (skip) return { ...result, status: "skipped", reason: skip };
  try {
    await runChecks(file, c, targets, options, result);
  } catch (e) {
    result.failures.push({ field: "run", message: `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`, loc: c.loc });
  }
  result.status = result.failures.length > 0 ? "failed" : "passed";
  result.durationMs = Math.max(0, options.clock() - started);
  return result;
}

function skipReason(file: TestFile, c: TestCase, targets: Targets, options: RunOptions): string | undefined {
  if (c.skip) return "skip: true";
  if (targets.absent.has(file.kind)) return `a bundle carries no ${file.kind} modules; run it with --out or from the sources`;
  if (file.kind === "tool" && !options.runTools && c.expect.some((e) => e.path[0] === "result")) return "it checks the result of a real run: rye test --run";
  // A dry run validates the chain only; the parameters are refused (or not) by a real run.
  if (file.kind === "tool" && !options.runTools && c.refuses) return "it checks the refusal of a real run: rye test --run";
  return undefined;
}

async function runChecks(file: TestFile, c: TestCase, targets: Targets, options: RunOptions, result: CaseResult): Promise<void> {
  if (targets.broken.get(file.kind)!.has(file.id)) {
    const moduleless = targets.moduleless?.has(`${file.kind}:${file.id}`) === true;
    const why = moduleless ? "compiles to no module (a primitive of a tool chain has none)" : "does not compile (its errors are listed above)";
    result.failures.push({ field: "compile", message: `${file.kind} '${file.id}' ${why}`, loc: c.loc });
    return;
  }
  const fields = fieldsOf(file, c, targets, options, result);
  if (fields === null) return;
  if (c.refuses) return void (await fields("refuses"));
  for (const e of c.expect) {
    if (THREAD_FIELDS.has(e.path[0]!)) result.thread = true;
    result.failures.push(...(await checkExpectation(file, c, e, fields, options.snapshots, result)));
  }
}

async function checkExpectation(file: TestFile, c: TestCase, e: Expectation, fields: Fields, snap: SnapshotOptions, result: CaseResult): Promise<Failure[]> {
  const value = valueAt({ [e.path[0]!]: await fields(e.path[0]!) }, e.path);
  if (value === undefined) return [{ field: e.field, message: `'${e.field}' has no value`, loc: e.loc }];
  // A failure points at the check that failed (its value in the test file).
  const out: Failure[] = checkMatcherAt(e.matcher, value).map((f) => ({ field: e.field, message: f.message, loc: e.matcher[f.key]!.loc }));
  if (e.matcher.snapshot) {
    const outcome = matchSnapshot(snapshotPath(file.kind, file.id, c.name, e.field), value, snap);
    if (outcome.status === "failed") out.push({ field: e.field, message: outcome.message, loc: e.matcher.snapshot.loc });
    else if (outcome.status !== "matched") result.snapshots[outcome.status]++;
  }
  return out;
}

/** The fields of the case's item, or null when the case ended at validation (a refusal, expected or not). */
function fieldsOf(file: TestFile, c: TestCase, targets: Targets, options: RunOptions, result: CaseResult): Fields | null {
  if (file.kind === "knowledge") return knowledgeFields(targets.knowledge.get(file.id)!);
  if (file.kind === "tool") return toolFields(file.id, targets.tool.get(file.id)!, c, targets, options, result);
  return directiveFields(targets.directive.get(file.id)!, c, result);
}

function once(compute: (name: string) => unknown | Promise<unknown>): Fields {
  const cache = new Map<string, Promise<unknown>>();
  return (name) => {
    if (!cache.has(name)) cache.set(name, Promise.resolve().then(() => compute(name)));
    return cache.get(name)!;
  };
}

function knowledgeFields(k: KnowledgeTarget): Fields {
  return once((name) => (name === "content" ? k.content : k.metadata));
}

function directiveFields(d: DirectiveTarget, c: TestCase, result: CaseResult): Fields | null {
  const params: Record<string, unknown> = { ...c.inputs };
  if (c.model !== undefined) params.model = c.model;
  if (c.limit_overrides !== undefined) params.limit_overrides = c.limit_overrides;
  const checked = d.validate(params);
  if (!refusalOutcome(c, checked, result)) return null;
  let rendered: Record<string, unknown> | undefined;
  let thread: { system: string; messages: { content: string }[] } | undefined;
  const render = () => (rendered ??= d.render(checked.inputs, { env: c.env }));
  const threadOf = () => (thread ??= d.renderThread(checked.inputs, { ...checked.options, env: c.env }));
  return once((name) => {
    if (name === "system") return threadOf().system;
    if (name === "user") return threadOf().messages[0]?.content;
    if (name === "context") return contextIds(d);
    if (name === "calls") return d.calls ?? [];
    if (name === "metadata") return d.metadata;
    return render()[name];
  });
}

/** True when the case goes on to render: the inputs were accepted and no refusal was expected. */
function refusalOutcome(c: TestCase, checked: { status: string } & Record<string, unknown>, result: CaseResult): boolean {
  const refused = checked.status !== "success" && checked.status !== "validation_passed";
  if (c.refuses) {
    if (!refused) result.failures.push({ field: "refuses", message: "expected a refusal, but the inputs were accepted", loc: c.refuses.loc });
    else result.failures.push(...checkRefusal(c.refuses, checked).map((message) => ({ field: "refuses", message, loc: c.refuses!.loc })));
    return false;
  }
  if (refused) result.failures.push({ field: "inputs", message: `the inputs were refused: ${String(checked.error ?? checked.status)}`, loc: c.loc });
  return !refused;
}

/** The knowledge ids a thread of the directive places, in the order it places them. */
function contextIds(d: DirectiveTarget): string[] {
  const p = d.contextPlan;
  if (!p) return [];
  return [...new Set([...p.hooks.flatMap((h) => h.items), ...p.system, ...p.before, ...p.after])];
}

function toolFields(id: string, t: ToolTarget, c: TestCase, targets: Targets, options: RunOptions, result: CaseResult): Fields | null {
  const run = (dryRun: boolean) => (targets.runTool ? targets.runTool(id, t, { ...c.inputs }, dryRun) : t.execute({ ...c.inputs }, { dryRun }));
  if (c.refuses) {
    return once(async () => {
      refusalOutcome(c, await run(false), result);
      return null;
    });
  }
  return once(async (name) => {
    if (name === "plan") return t.plan;
    if (name === "chain") return (t.plan?.chain ?? []).map((e) => e.item_id);
    if (name === "metadata") return t.metadata;
    return run(name === "dry_run");
  });
}
