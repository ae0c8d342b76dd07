// A readable line diff for snapshot failures: `-` lines are the stored snapshot, `+` lines what the
// item gives now, with two lines of context around each change.

/** Longest texts compared line by line; beyond this the diff shows both texts whole. */
const MAX_LINES = 4000;
const CONTEXT = 2;

export function lineDiff(stored: string, received: string): string {
  const a = stored.split("\n");
  const b = received.split("\n");
  if (a.length * b.length > MAX_LINES * MAX_LINES / 4) return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)].join("\n");
  const ops = diffOps(a, b);
  const keep = new Set<number>();
  ops.forEach((op, i) => {
    if (op[0] !== " ") for (let j = i - CONTEXT; j <= i + CONTEXT; j++) keep.add(j);
  });
  const out: string[] = [];
  let skipped = false;
  ops.forEach((op, i) => {
    if (!keep.has(i)) return void (skipped = true);
    if (skipped) out.push("  …");
    skipped = false;
    out.push(`${op[0]} ${op[1]}`);
  });
  if (skipped) out.push("  …");
  return out.join("\n");
}

/** The edit script of `a` into `b` by longest common subsequence: " " kept, "-" removed, "+" added. */
function diffOps(a: string[], b: string[]): [string, string][] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: [string, string][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) ops.push([" ", a[i++]!]), j++;
    else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) ops.push(["-", a[i++]!]);
    else ops.push(["+", b[j++]!]);
  }
  while (i < n) ops.push(["-", a[i++]!]);
  while (j < m) ops.push(["+", b[j++]!]);
  return ops;
}
