// System 3: `${dotted.path}` against a hook or graph context (rye-reference.md §2.4, era C):
// whole expressions keep their type, mixed text uses str() with missing as "", `a || b`
// fallbacks, `| pipe` filters, then `{input:…}` refs from ctx.inputs.
import { parsePyJson, pyJsonDumps } from "../py-json.js";
import { replaceBeforeLastCloser } from "../interpolate.js";
import { pyStr } from "../pystr.js";
import { isPyDict as isDict, pyGet, pyHas, pyItems, pyKeys } from "../py-value.js";
import { resolvePath } from "./resolve-path.js";

const PIPES: Record<string, (v: unknown) => unknown> = {
  json: (v) => pyJsonDumps(v),
  from_json: (v) => (typeof v === "string" ? parsePyJson(v) : v),
  length: (v) => (typeof v === "string" ? [...v].length : Array.isArray(v) ? v.length : isDict(v) ? pyKeys(v).length : 0),
  keys: (v) => (isDict(v) ? pyKeys(v) : []),
  upper: (v) => pyStr(v).toUpperCase(),
  lower: (v) => pyStr(v).toLowerCase(),
};

/** One `${…}` expression: `a || b` (first non-null) then pipes; pipes skip null values. */
export function resolveExpr(ctx: unknown, expr: string): unknown {
  const split = /(?<!\|)\|(?!\|)/.exec(expr);
  const pathExpr = (split ? expr.slice(0, split.index) : expr).trim();
  const pipes = split ? expr.slice(split.index + 1) : null;
  let value: unknown = null;
  for (const part of pathExpr.includes("||") ? pathExpr.split("||") : [pathExpr]) {
    value = resolvePath(ctx, part.trim());
    if (value !== null && value !== undefined) break;
  }
  if (pipes !== null && value !== null && value !== undefined) {
    for (const name of pipes.split("|").map((p) => p.trim())) {
      const pipe = PIPES[name];
      if (pipe) value = pipe(value);
    }
  }
  return value ?? null;
}

const WHOLE = /^\$\{([^}]+)\}\n?$/;
const EXPR = /\$\{([^}]+)\}/g;
const INPUT_REF = /\{input:([\p{L}\p{N}_]+)(\?|[:|][^}]*)?\}/gu;

/** Interpolates strings, and recursively dicts and lists; other values are returned unchanged. */
export function interpolateContext(template: unknown, ctx: Record<string, unknown>): unknown {
  if (typeof template === "string") {
    const whole = WHOLE.exec(template);
    if (whole) return resolveExpr(ctx, whole[1]!);
    let out = template.includes("${")
      ? replaceBeforeLastCloser(template, EXPR, (_m, expr: string) => {
          const v = resolveExpr(ctx, expr);
          return v === null || v === undefined ? "" : pyStr(v);
        })
      : template;
    const inputs = ctx.inputs;
    if (isDict(inputs) && pyKeys(inputs).length > 0 && out.includes("{input:")) {
      out = replaceBeforeLastCloser(out, INPUT_REF, (m, key: string, mod: string | undefined) =>
        pyHas(inputs, key) ? pyStr(pyGet(inputs, key)) : mod === "?" ? "" : mod ? mod.slice(1) : m,
      );
    }
    return out;
  }
  if (Array.isArray(template)) return template.map((t) => interpolateContext(t, ctx));
  if (template instanceof Map) return new Map(pyItems(template).map(([k, v]) => [k, interpolateContext(v, ctx)]));
  if (isDict(template)) return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, interpolateContext(v, ctx)]));
  return template;
}

/** Interpolates an action's `item_id` and `params`, leaving its other fields as they are. */
export function interpolateAction(action: Record<string, unknown>, ctx: Record<string, unknown>): Record<string, unknown> {
  const out = { ...action };
  if ("item_id" in out) out.item_id = interpolateContext(out.item_id, ctx);
  if ("params" in out) out.params = interpolateContext(out.params, ctx);
  return out;
}
