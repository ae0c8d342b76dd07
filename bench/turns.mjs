// Two measurements taken in turns (A B A B …) and compared pair by pair: a shared machine's speed
// drifts within seconds, so a ratio of two medians taken minutes apart says little, while the ratio
// of two runs taken back to back holds on any machine. Every row of the bench that has a target is
// such a ratio, printed with both sides and their spread.

/** min, median and max of numbers. */
export function spread(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s.at(-1), runs: xs };
}

/**
 * Runs `a()` and `b()` in turns `rounds` times after one warm-up of each; each returns milliseconds
 * (or { ms, … }: the rest of the last run is kept as `lastA`/`lastB`). Returns each side's spread
 * and the spread of the pairwise ratios a/b.
 */
export async function inTurns(a, b, rounds = 5) {
  const ms = (r) => (typeof r === "number" ? r : r.ms);
  await a();
  await b();
  const as = [];
  const bs = [];
  let lastA;
  let lastB;
  for (let i = 0; i < rounds; i++) {
    lastA = await a();
    lastB = await b();
    as.push(ms(lastA));
    bs.push(ms(lastB));
  }
  return { a: spread(as), b: spread(bs), ratio: spread(as.map((x, i) => x / bs[i])), lastA, lastB };
}

/** "1.84× (1.71–2.02)": a ratio's median and its spread over the rounds. */
export function ratioText(r) {
  return `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
}

/** "412 ms (398–440)": one side's median and spread. */
export function sideText(s, unit = "ms") {
  const d = s.median < 20 ? 1 : 0;
  return `${s.median.toFixed(d)} ${unit} (${s.min.toFixed(d)}–${s.max.toFixed(d)})`;
}
