import { describe, expect, it } from "vitest";
import { standaloneCopy } from "../../src/analyze/standalone-copy.js";
import { lookupView } from "../../src/analyze/resolve-context.js";
import { parseDirective } from "../../src/parse/parse-directive.js";
import { PyFloat } from "../../src/runtime/py-value.js";

describe("standaloneCopy", () => {
  it("copies arrays and plain objects and keeps their values", () => {
    const text = `${"x".repeat(40)} a description long enough to be a slice ${"y".repeat(40)}`;
    const value = { name: text.slice(41, 80), list: [text.slice(0, 20), 1, null, { deep: text.slice(5, 30) }], flag: true };
    const copy = standaloneCopy(value);
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(copy.list).not.toBe(value.list);
    expect(copy.list[3]).not.toBe(value.list[3]);
  });

  it("keeps a __proto__ key an own property and leaves the prototype alone", () => {
    const value = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": "b"}') as Record<string, unknown>;
    const copy = standaloneCopy(value);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: string }).polluted).toBeUndefined();
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
  });

  it("keeps keys named like Object.prototype's members own data properties, on plain and null-prototype objects", () => {
    const keys = ["constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];
    for (const proto of [Object.prototype, null]) {
      const value = Object.create(proto) as Record<string, unknown>;
      for (const k of keys) value[k] = `${k} holds a value long enough to be a slice`;
      const copy = standaloneCopy(value);
      expect(Object.getPrototypeOf(copy)).toBe(proto);
      for (const k of keys) expect(Object.getOwnPropertyDescriptor(copy, k)).toEqual({ value: value[k], writable: true, enumerable: true, configurable: true });
    }
  });

  it("copies every code unit of a string: multibyte text, an astral character, lone surrogates, quotes and controls", () => {
    const text = `${"x".repeat(20)}é €😀 \ud800 \udc00 "q" \\ \u0000\u001f\u2028 end${"y".repeat(20)}`;
    for (const [from, to] of [[20, text.length - 20], [0, text.length], [21, 34]]) {
      const piece = text.slice(from, to);
      const copy = standaloneCopy({ piece }).piece;
      expect(copy.length).toBe(piece.length);
      expect([...Array(copy.length).keys()].every((i) => copy.charCodeAt(i) === piece.charCodeAt(i))).toBe(true);
    }
  });

  it("keeps values that are not plain data as they are", () => {
    const float = new PyFloat(1);
    const map = new Map([["k", "v"]]);
    const copy = standaloneCopy({ float, map, big: 12345678901234567890n });
    expect(copy.float).toBe(float);
    expect(copy.map).toBe(map);
    expect(copy.big).toBe(12345678901234567890n);
  });

  it("stops copying past its depth limit instead of recursing without end", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(() => standaloneCopy(deep)).not.toThrow();
  });
});

describe("lookupView", () => {
  const text = `# T

\`\`\`xml
<directive name="callee" version="1.0.0">
  <metadata>
    <description>A callee.</description>
    <permissions><execute><tool>rye.file-system.*</tool></execute></permissions>
  </metadata>
  <inputs>
    <input name="needed_input" type="string" required="true">What the caller must give, described at length.</input>
    <input name="optional_input" type="string" required="false" default="fallback">Has a default.</input>
  </inputs>
</directive>
\`\`\`

Use {input:needed_input} and {input:optional_input}.
`;

  it("keeps what a caller checks (names, required, types, defaults) and the permissions, not the descriptions", () => {
    const parsed = parseDirective(text, "callee.md");
    expect(parsed.data).toBeTruthy();
    const view = lookupView({ id: "callee", space: "project", data: parsed.data!, locs: parsed.locs });
    expect(view.data.inputs).toEqual([
      { name: "needed_input", required: true, type: "string" },
      { name: "optional_input", required: false, type: "string", default: "fallback" },
    ]);
    expect(view.data.permissions).toEqual(parsed.data!.permissions);
    expect(view.data.permissions).not.toBe(parsed.data!.permissions);
  });
});
