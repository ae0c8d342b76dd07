import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parse, YAMLParseError } from "yaml";
import { yamlErrorLine } from "../../src/parse/yaml-error-line.js";

// Knowledge YAML is parsed without the package's pretty errors (costly on long lines of many errors);
// the first line of the error reported must read as the package's own, prettified, first line.
function both(text: string): [string, string] | null {
  try {
    parse(text, { version: "1.1" });
    return null;
  } catch (pretty) {
    try {
      parse(text, { version: "1.1", prettyErrors: false });
    } catch (plain) {
      // Other errors (an alias to no anchor, found as the value is built) carry no position either way.
      const first = plain instanceof YAMLParseError ? yamlErrorLine(text, plain.message, plain.pos[0] ?? -1) : (plain as Error).message.split("\n")[0]!;
      return [first, (pretty as Error).message.split("\n")[0]!];
    }
    throw new Error("only the pretty parse failed");
  }
}

const PIECES = ["a: ", "b", "&x ", "*x ", "!t ", "- ", "? ", "[", "]", "{", "}", ": ", "\n", "  ", " ", "'", '"', "#", "|", ">", "\t", "%", "@", "`", ",", "x".repeat(70), " ".repeat(90)];
const yaml = fc.array(fc.constantFrom(...PIECES), { maxLength: 20 }).map((a) => a.join(""));

describe("the first line of a YAML error, made without pretty errors", () => {
  test("on examples: long lines, errors at a line's start, on line 1", () => {
    const examples = ["a: &x &x 1", `k: ${"&a ".repeat(40)}v`, "a: 1\n   : b", "[", " \n]", "@", `x: ${"y".repeat(120)}\n ]`, "a:\n  - b\n c: d"];
    for (const text of examples) {
      const pair = both(text);
      if (pair) expect(pair[0], text).toBe(pair[1]);
    }
  });

  test("on generated documents", () => {
    let errors = 0;
    fc.assert(
      fc.property(yaml, (text) => {
        const pair = both(text);
        if (!pair) return;
        errors++;
        expect(pair[0], JSON.stringify(text)).toBe(pair[1]);
      }),
      { numRuns: 2000 },
    );
    expect(errors).toBeGreaterThan(100);
  });
});
