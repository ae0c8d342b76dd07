// The one escaper of emitted code (src/emit/escape.ts), checked by evaluating what it writes: a
// value must come back as the same data, never as code or a prototype change.
import { describe, expect, test } from "vitest";
import { access, concat, doc, json, key, lit } from "../../src/emit/escape.js";

const evaluate = (code: string): unknown => new Function(`"use strict"; return (${code});`)();

describe("lit", () => {
  test.each(["", "plain", 'a"b', "back\\slash", "`${x}`", "*/", "</script>", "\n\r\t", "\u0000\u001f", "\ud800", "é😀", "\u2028", "\u2029", "a\u2028b\u2029c"])("%j reads back as itself", (s) => {
    expect(evaluate(lit(s))).toBe(s);
  });

  test("line and paragraph separators are escaped, so the literal is one line in any JS parser", () => {
    expect(lit("a\u2028b\u2029c")).toBe('"a\\u2028b\\u2029c"');
    expect(lit("\u2029")).toBe('"\\u2029"');
    expect(lit("x")).toBe('"x"');
  });
});

describe("json", () => {
  test("plain values: JSON text, separators escaped, indent honoured", () => {
    expect(json({ a: 1, b: [true, null, "s"] })).toBe('{"a":1,"b":[true,null,"s"]}');
    expect(json({ a: "\u2028" })).toBe('{"a":"\\u2028"}');
    expect(json({ a: 1 }, 2)).toBe('{\n  "a": 1\n}');
    expect(json([])).toBe("[]");
    expect(json("s")).toBe('"s"');
  });

  test("a __proto__ key at the top becomes a computed key: data, not a prototype", () => {
    const v = JSON.parse('{"__proto__": {"polluted": true}, "b": 2}') as object;
    const code = json(v);
    expect(code).toBe('{["__proto__"]:{"polluted":true},"b":2}');
    const back = evaluate(code) as Record<string, unknown>;
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect((back as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test("with an indent the computed key keeps the layout", () => {
    expect(json(JSON.parse('{"__proto__": 1}'), 2)).toBe('{\n  ["__proto__"]: 1\n}');
  });

  test("nested in objects and arrays, beside other keys, including the empty key", () => {
    const v = JSON.parse('{"": 0, "x": [1, {"k": {"__proto__": {"p": 1}, "": "e"}}], "y": {"z": 2}}') as object;
    const code = json(v);
    const back = evaluate(code) as any;
    expect(back[""]).toBe(0);
    const inner = back.x[1].k;
    expect(Object.hasOwn(inner, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(inner[""]).toBe("e");
    expect(JSON.stringify(back)).toBe(JSON.stringify(v));
  });

  test("only one element of an array or one value of an object holds the key", () => {
    for (const text of ['[1, 2, {"__proto__": 3}]', '[{"__proto__": 3}, 1]', '{"a": 1, "b": {"__proto__": 3}, "c": 2}', '{"a": {"__proto__": 3}, "b": 1}']) {
      const back = evaluate(json(JSON.parse(text))) as any;
      expect(JSON.stringify(back), text).toBe(JSON.stringify(JSON.parse(text)));
      expect(JSON.stringify(back).includes('"__proto__":3'), text).toBe(true);
    }
  });

  test("a user string that spells the internal marker stays a string", () => {
    const v = JSON.parse('{"__proto__": 1, "s": "\\u0000rye:__proto__\\u0000", "t": "\\"\\u0000rye:__proto__\\u0000\\":"}') as object;
    const back = evaluate(json(v)) as Record<string, unknown>;
    expect(back.s).toBe("\u0000rye:__proto__\u0000");
    expect(back.t).toBe('"\u0000rye:__proto__\u0000":');
    expect(back.__proto__).toBe(1);
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
  });

  test("a __proto__ key 200 levels down is still data", () => {
    let v: unknown = JSON.parse('{"__proto__": {"deep": true}}');
    for (let i = 0; i < 200; i++) v = [v];
    const back = evaluate(json(v)) as unknown;
    let inner: any = back;
    for (let i = 0; i < 200; i++) inner = inner[0];
    expect(Object.hasOwn(inner, "__proto__")).toBe(true);
    expect(inner.deep).toBeUndefined();
  });

  test("the search for __proto__ keys reaches every level up to the emit limit (512), so no deep key is written as a prototype", () => {
    // Each level records whether the search asked it for an own `__proto__` (JSON.stringify never does).
    let deepestAsked = -1;
    let v: object = {};
    for (let level = 299; level >= 0; level--) {
      v = new Proxy({ k: v }, {
        getOwnPropertyDescriptor(target, prop) {
          if (prop === "__proto__") deepestAsked = Math.max(deepestAsked, level);
          return Reflect.getOwnPropertyDescriptor(target, prop);
        },
      });
    }
    expect(json(v)).toBe(`${'{"k":'.repeat(300)}{}${"}".repeat(300)}`);
    expect(deepestAsked).toBe(299);
    // A __proto__ key 400 levels down is still a computed key: data, not a prototype.
    let deep: unknown = JSON.parse('{"__proto__": {"polluted": true}}');
    for (let i = 0; i < 400; i++) deep = [deep];
    expect(json(deep)).toContain('["__proto__"]:');
  });

  test("a value deeper than the emit limit is refused, not written (arrays count too)", () => {
    let v: unknown = { k: 1 };
    for (let i = 0; i < 600; i++) v = [v];
    expect(() => json(v)).toThrow(RangeError);
    let w: unknown = { k: 1 };
    for (let i = 0; i < 500; i++) w = [w];
    expect(() => json(w)).not.toThrow();
  });

  test("null, numbers and strings beside a __proto__ key", () => {
    const v = JSON.parse('{"__proto__": null, "a": [null, 1, "s", true], "b": {"c": null}}') as object;
    const code = json(v);
    expect(code).toBe('{["__proto__"]:null,"a":[null,1,"s",true],"b":{"c":null}}');
    expect(Object.hasOwn(evaluate(code) as object, "__proto__")).toBe(true);
  });

  test("values of other types pass through as JSON does", () => {
    expect(json(null)).toBe("null");
    expect(json(0)).toBe("0");
    expect(json({ a: null, b: 0, c: "" })).toBe('{"a":null,"b":0,"c":""}');
    expect(json([null, { __proto__x: 1 }])).toBe('[null,{"__proto__x":1}]');
  });
});

describe("concat", () => {
  test("no parts is the empty string literal", () => {
    expect(concat([])).toBe('""');
    expect(evaluate(concat([]))).toBe("");
  });

  test("up to 64 parts are joined with +, more become an array join (V8 parses + chains recursively)", () => {
    const parts = (n: number) => Array.from({ length: n }, (_, i) => lit(String(i % 10)));
    expect(concat(parts(1))).toBe('"0"');
    expect(concat(parts(2))).toBe('"0"+"1"');
    expect(concat(parts(64))).toBe(parts(64).join("+"));
    expect(concat(parts(65))).toBe(`[${parts(65).join(",")}].join("")`);
    expect(evaluate(concat(parts(65)))).toBe(Array.from({ length: 65 }, (_, i) => String(i % 10)).join(""));
    expect(evaluate(concat(parts(64)))).toBe(Array.from({ length: 64 }, (_, i) => String(i % 10)).join(""));
  });
});

describe("doc", () => {
  test("cannot close a comment or break a line", () => {
    expect(doc("a */ b")).toBe("a *\\/ b");
    expect(doc("*/*/")).toBe("*\\/*\\/");
    expect(doc("one\ntwo")).toBe("one two");
    expect(doc("one\r\n\r\ntwo\u2028three\u2029four")).toBe("one two three four");
    expect(doc("plain")).toBe("plain");
  });
});

describe("key and access", () => {
  test("identifiers stay bare", () => {
    for (const name of ["a", "ab", "_x", "$", "a1", "A_b$9"]) {
      expect(key(name)).toBe(name);
      expect(access("o", name)).toBe(`o.${name}`);
    }
  });

  test("anything else is a string literal", () => {
    for (const name of ["a-b", "-a", "1a", "a b", "", "é", "a\n", "my-input", "ab-"]) {
      expect(key(name)).toBe(lit(name));
      expect(access("o", name)).toBe(`o[${lit(name)}]`);
    }
  });

  test("__proto__ as a key is computed, so an object literal gets an own property", () => {
    expect(key("__proto__")).toBe('["__proto__"]');
    const back = evaluate(`{${key("__proto__")}: 1}`) as object;
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(access("o", "__proto__")).toBe("o.__proto__");
  });
});
