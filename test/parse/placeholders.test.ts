import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LineIndex } from "../../src/diagnostics/diagnostic.js";
import { parse as grammarScan } from "../../src/parse/generated/placeholders.js";
import { placeholdersWithin, scanPlaceholders, type PlaceholderSystem } from "../../src/parse/placeholders.js";

// grammar/placeholders.peggy is the specification of every templating pass; the scanner the
// compiler uses is a transcription into regexes. Both must split any text identically.
const SYSTEMS: PlaceholderSystem[] = ["InputRefs", "DollarInputs", "EnvRefs", "EnvVars", "ContextRefs", "Params", "Mixed"];

function viaGrammar(text: string, system: PlaceholderSystem, base: number) {
  return (grammarScan(text, { startRule: system }) as { start: number; end: number }[]).map(({ start, end, ...rest }) => ({ ...rest, offsets: [base + start, base + end] }));
}

function viaScanner(text: string, system: PlaceholderSystem, base: number) {
  const padded = " ".repeat(base) + text;
  return scanPlaceholders(text, system, { source: "x.md", lines: new LineIndex(padded), base }).map(({ loc, ...rest }) => ({ ...rest, offsets: [loc.start.offset, loc.end.offset] }));
}

/** Pieces that start, end, or nearly form a placeholder of some system, plus prose and awkward characters. */
const PIECES = ["{", "}", "$", "${", "{input:", "{env:", "${inputs.", ":", ":-", "|", "?", ".", "_", "x", "ab", "A", "Z9", "é", "日本", "😀", "\ud800", "\n", " ", "-", "input", "env", "inputs"];
const text = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 4, unit: "binary" }) }), { maxLength: 30 }).map((a) => a.join(""));

describe("placeholder scanner agrees with grammar/placeholders.peggy", () => {
  test.each(SYSTEMS)("%s on examples", (system) => {
    const examples = [
      "",
      "plain prose only",
      "Hi {input:name}, {input:x?} {input:y:def} {input:z|alt} {input:bad name} {input:a?b}",
      "${inputs.k} ${HOME} ${HOME:-/tmp} ${lower} ${a.b[0]} ${} {param} {} {env:X} {env:X:fb} {env:X:} {env:}",
      "{input:{input:x}} ${${X}} {{input:y}} $ { } {input:multi\nline}",
      "astral {input:😀} {input:日本} {input:é_1}",
    ];
    for (const t of examples) for (const base of [0, 7]) expect(viaScanner(t, system, base)).toEqual(viaGrammar(t, system, base));
  });

  test.each(SYSTEMS)("%s on generated text", (system) => {
    fc.assert(fc.property(text, (t) => {
      expect(viaScanner(t, system, 3)).toEqual(viaGrammar(t, system, 3));
    }), { numRuns: 400 });
  });
});

// A field of a directive (its body, its prompt) is a slice of the file: its placeholders are taken
// from the scan of the whole file, which must give what a scan of the slice itself gives.
describe("placeholders of a slice, from the scan of the whole text", () => {
  test.each(SYSTEMS)("%s: the same nodes as a scan of the slice, or null", (system) => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (t, x, y) => {
        runs++;
        const [start, end] = [x % (t.length + 1), y % (t.length + 1)].sort((a, b) => a - b) as [number, number];
        const lines = new LineIndex(t);
        const whole = scanPlaceholders(t, system, { source: "x.md", lines, base: 0 });
        const within = placeholdersWithin(whole, t, start, end, { source: "x.md", lines, base: 0 });
        const direct = scanPlaceholders(t.slice(start, end), system, { source: "x.md", lines, base: start });
        if (within === null) {
          // Only a placeholder of the whole crossing an end of the slice makes it decline.
          expect(whole.some((n) => n.type !== "text" && ((n.loc.start.offset < start && n.loc.end.offset > start) || (n.loc.start.offset < end && n.loc.end.offset > end)))).toBe(true);
          return;
        }
        answered++;
        expect(JSON.stringify(within)).toBe(JSON.stringify(direct));
      }),
      { numRuns: 600 },
    );
    expect(answered).toBeGreaterThan(runs / 2);
  });

  test("a slice that cuts a placeholder in two is scanned on its own", () => {
    const t = "Hi {input:name} there";
    const lines = new LineIndex(t);
    const whole = scanPlaceholders(t, "InputRefs", { source: "x.md", lines, base: 0 });
    expect(placeholdersWithin(whole, t, 5, 21, { source: "x.md", lines, base: 0 })).toBeNull();
    expect(JSON.stringify(placeholdersWithin(whole, t, 3, 15, { source: "x.md", lines, base: 0 }))).toBe(JSON.stringify(scanPlaceholders("{input:name}", "InputRefs", { source: "x.md", lines, base: 3 })));
  });
});
