// The config reader's member finder against JSON.parse: for any JSON object, written compactly,
// indented, or with arbitrary whitespace between tokens, it finds exactly the members JSON.parse
// sees, in order, each span holding exactly that key and that value.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { membersOf, rootSpan, valueOf } from "../../src/project/json-members.js";

/** JSON text of `value` with `ws` spliced after every structural character and string. */
function spaced(value: unknown, ws: string[]): string {
  const text = JSON.stringify(value);
  let out = "";
  let k = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1) + (ws[k++ % ws.length] ?? "");
      i = j;
      continue;
    }
    out += c;
    if ("{}[],:".includes(c)) out += ws[k++ % ws.length] ?? "";
  }
  return out;
}

const object = fc.dictionary(fc.string(), fc.jsonValue());
const whitespace = fc.array(fc.stringMatching(/^[ \t\n\r]{0,3}$/), { minLength: 1, maxLength: 8 });

describe("json members", () => {
  it("finds every member JSON.parse finds, with spans holding the key and the value", () => {
    fc.assert(
      fc.property(object, whitespace, fc.constantFrom(0, 2, -1), (value, ws, indent) => {
        const text = indent === -1 ? spaced(value, ws) : JSON.stringify(value, null, indent);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        const members = membersOf(text, rootSpan(text));
        expect(members.map((m) => m.key)).toEqual(Object.keys(value));
        for (const m of members) {
          expect(JSON.parse(text.slice(m.keySpan.start, m.keySpan.end))).toBe(m.key);
          expect(valueOf(text, m.value)).toEqual(parsed[m.key]);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("names each value's kind and sees no members in a non-object", () => {
    const text = ' { "a" : [1, {"x": "}"}], "b": "q\\"}", "c": -1.5e3, "d": null, "e": {} } ';
    const kinds = membersOf(text, rootSpan(text)).map((m) => m.value.kind);
    expect(kinds).toEqual(["array", "string", "number", "literal", "object"]);
    expect(membersOf("[1,2]", rootSpan("[1,2]"))).toEqual([]);
    expect(rootSpan("  7 ").kind).toBe("number");
  });
});
