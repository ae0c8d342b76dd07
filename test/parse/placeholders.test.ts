import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { LineIndex } from "../../src/diagnostics/diagnostic.js";
import { parse as grammarScan } from "../../src/parse/generated/placeholders.js";
import { scanPlaceholders, type PlaceholderSystem } from "../../src/parse/placeholders.js";

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
