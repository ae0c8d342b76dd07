/**
 * The closest candidate for "did you mean" hints: a case-insensitive match, else the nearest within
 * a small edit distance (a third of the name, at most `maxDistance`), else a candidate the name
 * abbreviates (`int` → `integer`). Ties go to the first candidate.
 */
export function didYouMean(name: string, candidates: Iterable<string>, maxDistance = Infinity): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(Math.max(1, Math.floor(name.length / 3)), maxDistance) + 1;
  let prefixed: string | undefined;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    if (c === name) continue;
    if (c.toLowerCase() === lower) return c;
    if (prefixed === undefined && name.length >= 3 && c.toLowerCase().startsWith(lower)) prefixed = c;
    // The distance is at least the difference in length: most candidates of a large project end here.
    if (Math.abs(c.length - name.length) >= bestDistance) continue;
    const dist = editDistance(name, c);
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  return best ?? prefixed;
}

/** For item ids: the nearest id within a few edits, else the only candidate in another folder with the same final name. */
export function didYouMeanId(id: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const near = didYouMean(id, list, 3);
  if (near) return near;
  const name = id.slice(id.lastIndexOf("/") + 1);
  const same = list.filter((c) => c !== id && c.slice(c.lastIndexOf("/") + 1) === name);
  return same.length === 1 ? same[0] : undefined;
}

/** The hint sentence appended to a message, or nothing. */
export const suggest = (s: string | undefined): string => (s === undefined ? "" : ` Did you mean '${s}'?`);

/** Optimal string alignment distance: a swap of two neighbours ("topci"/"topic") costs 1. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
