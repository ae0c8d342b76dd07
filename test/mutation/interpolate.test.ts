// The original's directive interpolation (src/runtime/interpolate.ts). Every expected value below
// is what the original's own interpolate.py (../shared/oracle/original) returned for the same input.
import { describe, expect, it } from "vitest";
import { PyFloat } from "../../src/runtime/pystr.js";
import { DOLLAR_INPUT, ENV_REF, INPUT_REF, interpolateParsed, resolveDollarRefs, resolveEnvRefs, resolveInputRefs } from "../../src/runtime/interpolate.js";

const inputs = { a: "A", n: null, i: 3, d: { k: new PyFloat(1) }, x: "${inputs.a}", 日本: "J" };

describe("resolveInputRefs", () => {
  it("present values win over modifiers; ?, : and | modifiers for absent ones; others stay", () => {
    expect(resolveInputRefs("{input:a}|{input:a?}|{input:zz?}|{input:zz:def}|{input:zz|p|q}|{input:zz}|{input:n}|{input:i}|{input:d}|{input:日本}|{input:a-b}|{input:zz:}", inputs)).toBe(
      "A|A||def|p|q|{input:zz}|None|3|{'k': 1.0}|J|{input:a-b}|",
    );
    expect(resolveInputRefs("{input:a:def}{input:zz:}", inputs)).toBe("A");
    expect(resolveInputRefs("{input:zz:a:b}", inputs)).toBe("a:b");
  });

  it("then ${inputs.x}, also where the first pass wrote it", () => {
    expect(resolveInputRefs("{input:x} ${inputs.a} ${inputs.zz} ${inputs.i}", inputs)).toBe("A A ${inputs.zz} 3");
    expect(resolveInputRefs("no refs ${inputs.a}", inputs)).toBe("no refs A");
    expect(resolveInputRefs("nothing", inputs)).toBe("nothing");
  });

  it("own keys only, and undefined counts as absent (JavaScript has no other way to say it)", () => {
    expect(resolveInputRefs("{input:toString}|${inputs.constructor}|{input:u?}|${inputs.u}", { u: undefined })).toBe("{input:toString}|${inputs.constructor}||${inputs.u}");
  });

  it("resolveDollarRefs alone", () => {
    expect(resolveDollarRefs("${inputs.a}-${inputs.日本}-${inputs.zz}-{input:a}", inputs)).toBe("A-J-${inputs.zz}-{input:a}");
    expect(resolveDollarRefs("plain", inputs)).toBe("plain");
  });

  it("the patterns are the original's, with Python's Unicode \\w", () => {
    expect([INPUT_REF.source, DOLLAR_INPUT.source, ENV_REF.source]).toEqual([
      "\\{input:([\\p{L}\\p{N}_]+)(\\?|[:|][^}]*)?\\}",
      "\\$\\{inputs\\.([\\p{L}\\p{N}_]+)\\}",
      "\\{env:([\\p{L}\\p{N}_]+)(?::([^}]*))?\\}",
    ]);
  });
});

describe("resolveEnvRefs", () => {
  const env = { H: "/h", E: "", U: undefined };

  it("a set variable (even empty) wins, then the default, else the literal", () => {
    expect(resolveEnvRefs("{env:H}|{env:E:d}|{env:M:d}|{env:M}|{env:M:}|{env:H:d}|{env:U}|{env:U:u}", env)).toBe("/h||d|{env:M}||/h|{env:U}|u");
    expect(resolveEnvRefs("plain", env)).toBe("plain");
    expect(resolveEnvRefs("{env:toString}", env)).toBe("{env:toString}");
  });
});

describe("interpolateParsed", () => {
  it("body, content and raw get env then input refs; actions get input refs only; other fields none", () => {
    const parsed = {
      body: "{env:H} {input:a}",
      content: "{input:a}",
      raw: "{env:M:r}",
      other: "{input:a}",
      actions: [{ primary: "execute", item_id: "{input:a}", n: 3, desc: "{env:H}", params: { p: "{input:i}", q: 5 } }],
    };
    const out = interpolateParsed(parsed, inputs, { H: "/h" });
    expect(out).toEqual({
      body: "/h A",
      content: "A",
      raw: "r",
      other: "{input:a}",
      actions: [{ primary: "execute", item_id: "A", n: 3, desc: "{env:H}", params: { p: "3", q: 5 } }],
    });
    expect(parsed.body).toBe("{env:H} {input:a}");
    expect(parsed.actions[0]!.params.p).toBe("{input:i}");
  });

  it("an env value holding an input ref is then interpolated, as the original orders the passes", () => {
    expect(interpolateParsed({ body: "{env:V}" }, inputs, { V: "{input:a}" }).body).toBe("A");
  });

  it("leaves non-string fields, non-array actions and non-object params as they are", () => {
    expect(interpolateParsed({ body: 1, actions: "x" }, inputs, {})).toEqual({ body: 1, actions: "x" });
    const out = interpolateParsed({ actions: [{ params: ["{input:a}"] }, { params: null }, { k: "{input:a}" }] }, inputs, {});
    expect(out.actions).toEqual([{ params: ["{input:a}"] }, { params: null }, { k: "A" }]);
    // Params that are a string are a field like any other (the original would fail on them).
    expect(interpolateParsed({ actions: [{ params: "{input:a}" }] }, inputs, {}).actions).toEqual([{ params: "A" }]);
  });
});
