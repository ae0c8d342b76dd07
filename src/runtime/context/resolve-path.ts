// Dotted paths into hook and graph contexts, as the original's condition_evaluator.resolve_path.
import { pyStrip } from "../pystr.js";
import { isPyDict, pyGet, pyHas } from "../py-value.js";

const INT = /^[+-]?\d+(?:_\d+)*$/;

/** Python `int(s)` for list indices (whitespace, sign, underscores, leading zeros), else undefined. */
export function pyIndex(s: string): number | undefined {
  const t = pyStrip(s);
  return INT.test(t) ? Number(t.replaceAll("_", "")) : undefined;
}

function step(current: unknown, part: string): { value: unknown; stop: boolean } {
  if (isPyDict(current)) return { value: pyHas(current, part) ? pyGet(current, part) : null, stop: false };
  if (Array.isArray(current)) {
    const i = pyIndex(part);
    if (i === undefined) return { value: null, stop: true };
    const at = i < 0 ? current.length + i : i;
    if (at < 0 || at >= current.length) return { value: null, stop: true };
    return { value: current[at], stop: false };
  }
  return { value: null, stop: true };
}

/** `a.b[0].c`: brackets become dots, empty parts are skipped, a miss is null (era C). */
export function resolvePath(doc: unknown, path: string): unknown {
  if (!path) return doc;
  let current = doc;
  for (const part of path.replace(/\[(\d+)\]/g, ".$1").split(".")) {
    if (!part) continue;
    const r = step(current, part);
    if (r.stop) return null;
    current = r.value ?? null;
  }
  return current;
}

/** The dev test runner's copy: no bracket syntax, empty parts are looked up as keys. */
export function resolvePathTestRunner(doc: unknown, path: string): unknown {
  if (!path) return doc;
  let current = doc;
  for (const part of path.split(".")) {
    const r = step(current, part);
    if (r.stop) return null;
    current = r.value ?? null;
  }
  return current;
}
