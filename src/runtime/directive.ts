// What compiled directive modules call at run time. Kept small: the compiler has already split
// every string into literals and input references, so rendering is concatenation.
import { isPyWhitespace, pyStr, pyStrip } from "./pystr.js";
import { resolveDollarRefs, resolveEnvRefs, resolveInputRefs } from "./interpolate.js";
import { checkInputTypes, describe, validateInputs, type DeclaredInput } from "./validate.js";
import { PyFloat, isPyDict, pyDict, pyItems, type PyDict, type PyValue } from "./py-value.js";
import type { ExecutionOptions, Thread, ThreadOptions } from "./thread.js";

export type Params = Readonly<Record<string, unknown>>;
export type { DeclaredInput, ExecutionOptions, PyDict, PyValue };
export { PyFloat };

/** Options of a compiled directive's `render`. */
export interface RenderOptions {
  /** Environment for `{env:VAR}` refs; defaults to the process environment. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** What `render` returns: the original's interpolated fields plus the prompt its `_build_prompt` builds. */
export interface Rendered {
  body: string;
  content: string;
  raw: string;
  actions: Record<string, unknown>[];
  prompt: string;
}

/** A compiled directive's parsed metadata (the original parser's fields, minus body/content/raw). */
export interface DirectiveMetadata {
  name?: string;
  version?: string;
  extends?: string;
  description?: string;
  category?: string;
  author?: string;
  model?: Record<string, string>;
  /** `<limits>` attributes: an int (`number`, or `bigint` beyond 2^53), a float (`PyFloat`, `1.0` stays `1.0`), else the text. */
  limits?: Record<string, number | bigint | PyFloat | string>;
  permissions?: { tag: string; content: string }[];
  acknowledged_risks?: { risk: string; reason: string }[];
  hooks?: Record<string, unknown>[];
  context?: { system: string[]; before: string[]; after: string[]; suppress: string[] };
  inputs?: DeclaredInput[];
  outputs?: { name: string; type: string; required: boolean; description?: string }[];
  actions?: Record<string, unknown>[];
  templates: Record<string, string>;
  preamble: string;
  [metadataTag: string]: unknown;
}

/** Which knowledge lands where in a thread of a directive (extends chain resolved, suppressions applied). */
export interface DirectiveContextPlan {
  /** Item ids root first, the directive itself last. */
  chain: string[];
  system: string[];
  before: string[];
  after: string[];
  suppress: string[];
  /** The directive whose permissions apply: itself, or the root-most ancestor that has some. */
  permissionsFrom: string | null;
  hooks: { id: string; event: string; position: string; wrap: boolean; items: string[] }[];
}

/** A call the body instructs (`rye_execute(…)` etc.), with its target resolved at build time. */
export interface DirectiveCall {
  primary: string;
  item_type: string | null;
  item_id: string | null;
  parameters: Record<string, unknown> | null;
  target: { kind: string; id: string; space: string } | null;
}

/**
 * What a compiled directive module exports (its default export holds the same), for item id `Id`
 * and inputs `I`. Declared once here so the registry types each directive by its inputs alone.
 */
export interface DirectiveExports<Id extends string, I> {
  readonly id: Id;
  readonly metadata: DirectiveMetadata;
  /** Renders the directive for `inputs` exactly as the original runtime would. */
  render(inputs: I, options?: RenderOptions): Rendered;
  /** Checks untyped parameters (JSON, CLI) as the original does, with the original's payloads. */
  validate(params: unknown): ValidationResult<I>;
  /** The system message and first user message a thread of this directive starts with, in the original's order. */
  renderThread(inputs: I, options?: RenderOptions & ThreadOptions): Thread;
  /** Which knowledge lands where in a thread of this directive. */
  readonly contextPlan: DirectiveContextPlan;
  /** The calls the body instructs, with their targets resolved at build time. */
  readonly calls: DirectiveCall[];
}

/** `DirectiveExports` of a directive with no required input: `render()` needs no argument. */
export interface OptionalInputsExports<Id extends string, I> extends DirectiveExports<Id, I> {
  render(inputs?: I, options?: RenderOptions): Rendered;
  renderThread(inputs?: I, options?: RenderOptions & ThreadOptions): Thread;
}

/** A compiled directive module as `import * as` sees it. */
export interface DirectiveModule<Id extends string, I> extends DirectiveExports<Id, I> {
  readonly default: DirectiveExports<Id, I>;
}

/** A compiled directive module with no required input, as `import * as` sees it. */
export interface OptionalInputsModule<Id extends string, I> extends OptionalInputsExports<Id, I> {
  readonly default: OptionalInputsExports<Id, I>;
}

/** An `integer` input as callers pass it: a number, or a bigint beyond 2^53. */
export type IntInput = number | bigint;
/** A `number` or `float` input: a number, a bigint, or a `PyFloat` (a whole float that stays a float, `1.0`). */
export type NumberInput = number | bigint | PyFloat;
/** An `object` or `dict` input: a plain object, or a Map when the order of its keys matters. */
export type ObjectInput = Record<string, unknown> | ReadonlyMap<string, unknown>;

/** The inputs type of a directive module's type (`typeof directives["id"]`): what its `render` takes. */
export type InputsOf<M> = M extends DirectiveExports<string, infer I> ? I : never;

/** The process environment where there is one (Node), else empty. */
export function defaultEnv(): Readonly<Record<string, string | undefined>> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/** The parts of seed 004's `_build_prompt` that do not depend on inputs (null: part absent). */
export interface PromptParts {
  open: string | null;
  /** The first raw `<permissions>…</permissions>` block; undefined when it must be found in the interpolated content. */
  permissions: string | null | undefined;
  returns: string | null;
}

/** How an input reference renders: Python `str()` of a present value, else the compiled fallback. */
export function str(value: unknown, fallback = ""): string {
  return value === undefined ? fallback : typeof value === "string" ? value : pyStr(value);
}

/** Own-property read, for input names that also name Object.prototype members. */
export function own(p: Params, key: string): unknown {
  return Object.hasOwn(p, key) ? p[key] : undefined;
}

/**
 * The original's second pass over text whose `{input:}` refs are already resolved: `${inputs.x}`
 * anywhere in it, including inside input values (whose own `{input:}` text stays literal).
 */
export function dollarPass(text: string, p: Params, defaults: Params): string {
  return text.includes("${inputs.") ? resolveDollarRefs(text, withDefaults(p, defaults)) : text;
}

/** `dollarPass` unless the caller has shown that no inserted value holds a `$` (then it cannot match). */
export function secondPass(plain: boolean, text: string, p: Params, defaults: Params): string {
  return plain ? text : dollarPass(text, p, defaults);
}

/** True when `s` starts with a character Python's strip() keeps (so a strip stops there). */
export function solidStart(s: string): boolean {
  return s.length > 0 && !isPyWhitespace(s.charCodeAt(0));
}

/** True when `s` ends with a character Python's strip() keeps. */
export function solidEnd(s: string): boolean {
  return s.length > 0 && !isPyWhitespace(s.charCodeAt(s.length - 1));
}

/** A field holding `{env:…}` refs: env first, then input refs, exactly as the original interprets it. */
export function interpretWithEnv(text: string, p: Params, defaults: Params, env: Readonly<Record<string, string | undefined>>): string {
  return resolveInputRefs(resolveEnvRefs(text, env), withDefaults(p, defaults));
}

/** Inputs with declared defaults applied for absent keys, as validation does before interpolation. */
export function withDefaults(p: Params, defaults: Params): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(p)) if (p[k] !== undefined) out[k] = p[k];
  for (const k of Object.keys(defaults)) if (!(k in out)) out[k] = defaults[k];
  return out;
}

/** Throws when a required input is missing: the original would refuse to render at all. */
export function requireInputs(id: string, p: Params, required: readonly string[]): void {
  for (const name of required) {
    if (own(p, name) === undefined) {
      const missing = required.filter((n) => own(p, n) === undefined);
      throw new TypeError(`${id}: Missing required inputs: ${missing.join(", ")}`);
    }
  }
}

const PERMISSIONS_BLOCK = /(<permissions>[\s\S]*?<\/permissions>)/;

/**
 * The pieces of a compiled module's text that its constants are: `bounds` holds the start and end
 * of each in turn, or, as a string, two numbers in base 36 for each (`"1bt,6t,…"`): where it starts
 * counted from where the one before it ended (negative when it starts before that), and its length.
 * A module stores its item's text once and cuts the rest from it when it loads.
 */
export function slices(text: string, bounds: readonly number[] | string): string[] {
  const out: string[] = [];
  if (typeof bounds === "string") {
    const n = bounds.split(",");
    let end = 0;
    for (let i = 0; i + 1 < n.length; i += 2) {
      const start = end + parseInt(n[i]!, 36);
      end = start + parseInt(n[i + 1]!, 36);
      out.push(text.slice(start, end));
    }
    return out;
  }
  for (let i = 0; i + 1 < bounds.length; i += 2) out.push(text.slice(bounds[i], bounds[i + 1]));
  return out;
}

/** Seed 004's `_build_prompt`: tag, permissions, stripped body, return instruction, closing tag. */
export function buildPrompt(parts: PromptParts, content: string, body: string): string {
  const out: string[] = [];
  if (parts.open !== null) out.push(parts.open);
  const permissions = parts.permissions === undefined ? (PERMISSIONS_BLOCK.exec(content)?.[1] ?? null) : parts.permissions;
  if (permissions !== null) out.push(permissions);
  const stripped = pyStrip(body);
  if (stripped) out.push(stripped);
  if (parts.returns !== null) out.push(parts.returns);
  if (parts.open !== null) out.push("</directive>");
  return out.join("\n");
}

export type ValidationResult<I> =
  | {
      status: "success";
      inputs: I;
      declared_inputs: DeclaredInput[];
      /** The execution keys that were given (`model`, `limit_overrides`, `previous_thread_id`); absent when none was. */
      options?: ExecutionOptions;
    }
  | { status: "error"; error: string; item_id: string; declared_inputs?: DeclaredInput[] };

/** Parameter keys the original's directive executor removes before validating, with the type each must have. */
const EXECUTION_KEYS: Record<keyof ExecutionOptions, [string, (v: unknown) => boolean]> = {
  model: ["a string", (v) => typeof v === "string"],
  limit_overrides: ["an object", isPyDict],
  previous_thread_id: ["a string", (v) => typeof v === "string"],
};

/**
 * Splits the execution keys off `params` as the original's executor does (a null value counts as
 * absent), or names the ones whose value has the wrong type.
 */
function splitExecutionOptions(params: PyDict): { inputs: PyDict; options: ExecutionOptions; problems: string[] } {
  const rest: [string, unknown][] = [];
  const options: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [k, v] of pyItems(params)) {
    const name = String(k);
    const rule = Object.hasOwn(EXECUTION_KEYS, name) ? EXECUTION_KEYS[name as keyof ExecutionOptions] : undefined;
    if (!rule) rest.push([name, v]);
    else if (v === null || v === undefined) continue;
    else if (rule[1](v)) options[name] = v;
    else problems.push(`'${name}' must be ${rule[0]}, got ${describe(v)}`);
  }
  return { inputs: pyDict(rest), options, problems };
}

/**
 * `validate()` of a compiled directive: the original executor's removal of `model`,
 * `limit_overrides` and `previous_thread_id` (returned as `options`), the original's checks and
 * payloads, plus type checks (decisions.md #7).
 */
export function validateDirective<I>(id: string, declared: DeclaredInput[], params: unknown): ValidationResult<I> {
  if (!isPyDict(params)) {
    return { status: "error", error: "Parameters must be an object", item_id: id };
  }
  const split = splitExecutionOptions(params);
  if (split.problems.length > 0) {
    return { status: "error", error: `Invalid options: ${split.problems.join("; ")}`, item_id: id, declared_inputs: declared };
  }
  const result = validateInputs(declared, split.inputs);
  if (result.status === "error") {
    return { status: "error", error: result.error, item_id: id, declared_inputs: result.declared_inputs };
  }
  const problems = checkInputTypes(declared, split.inputs);
  if (problems.length > 0) {
    return { status: "error", error: `Invalid input types: ${problems.join("; ")}`, item_id: id, declared_inputs: declared };
  }
  const success = { status: "success" as const, inputs: result.inputs as I, declared_inputs: result.declared_inputs };
  return Object.keys(split.options).length > 0 ? { ...success, options: split.options } : success;
}
