// One opaque token per caller value (src/runtime/exec/seal-values.ts). Expected renderings are
// Python's: str({'a': 1}) is "{'a': 1}", str([]) is "[]" (CPython 3.11).
import { describe, expect, it } from "vitest";
import { PyFloat } from "../../src/runtime/pystr.js";
import { mayHoldTemplate, valueSeal } from "../../src/runtime/exec/seal-values.js";

const TOKEN = /^@rye-value-[0-9a-f]{16}-(\d+)@$/;

describe("mayHoldTemplate", () => {
  it("strings with { or $ may; other strings and scalars may not", () => {
    for (const v of ["{", "}{", "$", "a${X}", "{tool_path}"]) expect(mayHoldTemplate(v), v).toBe(true);
    for (const v of ["", "abc", "}", "@rye-value-x-0@", 0, 5, true, false, null, undefined, new PyFloat(1)]) expect(mayHoldTemplate(v), String(v)).toBe(false);
  });

  it("a container may when its str() holds { or $, never when empty", () => {
    expect(mayHoldTemplate({ a: 1 })).toBe(true);
    expect(mayHoldTemplate(new Map([["k", 1]]))).toBe(true);
    expect(mayHoldTemplate(["$"])).toBe(true);
    expect(mayHoldTemplate([[{}]])).toBe(true);
    expect(mayHoldTemplate([1, "a", true, null])).toBe(false);
    expect(mayHoldTemplate([])).toBe(false);
    expect(mayHoldTemplate({})).toBe(false);
    expect(mayHoldTemplate(new Map())).toBe(false);
  });
});

describe("valueSeal", () => {
  it("leaves values that hold no template as they are (same reference)", () => {
    const s = valueSeal();
    const list = [1, "a"];
    for (const v of ["plain", 3, null, true, list, [], {}]) expect(s.seal(v)).toBe(v);
  });

  it("replaces a value by one token with no templating character, numbered in order", () => {
    const s = valueSeal();
    const a = s.seal("${X}") as string;
    const b = s.seal({ "${K}": ["{y}"] }) as string;
    expect(a).toMatch(TOKEN);
    expect(b).toMatch(TOKEN);
    expect(TOKEN.exec(a)![1]).toBe("0");
    expect(TOKEN.exec(b)![1]).toBe("1");
    expect(a.slice(0, -3)).toBe(b.slice(0, -3));
    expect(a).not.toMatch(/[{}$]/);
  });

  it("two seals never share a token", () => {
    expect(valueSeal().seal("{a}")).not.toBe(valueSeal().seal("{a}"));
  });

  it("a whole token comes back as the raw value, typed; a token inside text as its str()", () => {
    const s = valueSeal();
    const dict = { "${K}": 1, "}{tool_path}{": [true, null, "it's"] };
    const d = s.seal(dict) as string;
    const t = s.seal("{x}$") as string;
    expect(s.restore(d)).toBe(dict);
    expect(s.restore(t)).toBe("{x}$");
    expect(s.restore(`<${d}|${t}>`)).toBe(`<{'\${K}': 1, '}{tool_path}{': [True, None, "it's"]}|{x}$>`);
    expect(s.restore(` ${d}`)).toBe(` {'\${K}': 1, '}{tool_path}{': [True, None, "it's"]}`);
  });

  it("restores through arrays and plain objects, keeps other values and __proto__ keys", () => {
    const s = valueSeal();
    const t = s.seal("${A}") as string;
    const input = JSON.parse(`{"__proto__": "${t}", "l": ["${t}", 1, null], "n": 2}`) as Record<string, unknown>;
    const out = s.restore(input) as Record<string, unknown>;
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(out["__proto__"]).toBe("${A}");
    expect(out.l).toEqual(["${A}", 1, null]);
    expect(out.n).toBe(2);
  });

  it("a token of another seal, or with no value behind it, is text", () => {
    const s = valueSeal();
    const other = valueSeal().seal("{z}") as string;
    expect(s.restore(other)).toBe(other);
    s.seal("{a}");
    expect(s.restore(other)).toBe(other);
    expect(s.restore(`x${other}`)).toBe(`x${other}`);
  });

  it("with nothing sealed, restore returns its argument itself", () => {
    const s = valueSeal();
    const v = { a: ["x"] };
    expect(s.restore(v)).toBe(v);
  });
});
