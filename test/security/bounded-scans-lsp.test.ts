// Decision #25, bounded work, for the LSP's input lookups: `<input … name="x"` declarations are
// found without reading the text again from each `<input` before the same `>`. Held by property
// tests to the regular expression search it replaced (kept here as the reference), and run on
// 1 MiB of `<input ` without a `>` (vitest's timeout is the only clock).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { inputSpans, tokenAt } from "../../src/lsp/token-at.js";

const MIB = 1024 * 1024;

/** inputSpans as it was: every pattern searched over the whole text. */
function oldInputSpans(text: string, name: string): [number, number][] {
  const out: [number, number][] = [];
  for (const re of [new RegExp(String.raw`<input\b[^>]*?\bname="(${name})"`, "gu"), new RegExp(String.raw`\{input:(${name})(?=[?:|}])`, "gu"), new RegExp(String.raw`\$\{inputs\.(${name})\}`, "gu")]) {
    for (const m of text.matchAll(re)) {
      const s = m.index! + m[0].lastIndexOf(m[1]!);
      out.push([s, s + name.length]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** The declaration tokenAt found before: the first `<input … name="…"` on the line whose name holds the cursor. */
function oldDeclarationAt(line: string, at: number): string | null {
  for (const m of line.matchAll(/<input\b[^>]*?\bname="([\p{L}\p{N}_]+)"/gu)) {
    const s = m.index + m[0].indexOf(m[1]!);
    if (at >= s && at <= s + m[1]!.length) return m[1]!;
  }
  return null;
}

const PIECES = ["<input", "<inputs", " ", "name=\"", "name=\"a\"", "name=\"b\"", "xname=\"a\"", "a", "\"", ">", "/>", "\n", "<", "é"];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((a) => a.join(""));

describe("input declarations", () => {
  test("are the spans the whole-text search finds", () => {
    fc.assert(fc.property(text, fc.constantFrom("a", "b"), (t, name) => {
      expect(inputSpans(t, name)).toEqual(oldInputSpans(t, name));
    }), { numRuns: 4000 });
  });

  test("under the cursor are the whole-text search's (a line without placeholders)", () => {
    fc.assert(
      fc.property(text.filter((t) => !t.includes("\n")), fc.nat(), (t, c) => {
        const at = c % (t.length + 1);
        const token = tokenAt(t, at);
        const old = oldDeclarationAt(t, at);
        expect(token && token.kind === "input" ? token.name : null).toBe(old);
      }),
      { numRuns: 4000 },
    );
  });

  test("1 MiB of `<input ` without a `>`", () => {
    const t = "<input ".repeat(Math.floor(MIB / 7));
    expect(inputSpans(t, "a")).toEqual([]);
    expect(tokenAt(t, 3)).toBeNull();
    const named = `${t}name="b"`;
    expect(inputSpans(named, "b")).toEqual([[named.length - 2, named.length - 1]]);
    expect(tokenAt(named, named.length - 2)).toEqual({ kind: "input", name: "b", start: named.length - 2, end: named.length - 1 });
  });
});
