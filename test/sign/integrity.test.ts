import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, computeIntegrity, pyFloat } from "../../src/sign/index.js";

describe("canonical_json / compute_integrity", () => {
  it("sorts keys at every level and drops whitespace", () => {
    expect(canonicalJson({ b: [3, { z: 1, a: 2 }], a: null, t: true, f: false })).toBe('{"a":null,"b":[3,{"a":2,"z":1}],"f":false,"t":true}');
  });

  it("escapes like ensure_ascii=True", () => {
    expect(canonicalJson({ s: 'é"\\\n\t\u0001\u007f🎉' })).toBe('{"s":"\\u00e9\\"\\\\\\n\\t\\u0001\\u007f\\ud83c\\udf89"}');
  });

  it("sorts keys by code point, as Python does", () => {
    expect(canonicalJson({ "\uffff": 1, "🎉": 2 })).toBe('{"\\uffff":1,"\\ud83c\\udf89":2}');
  });

  it("writes Python float reprs for marked floats and integers as integers", () => {
    expect(canonicalJson([pyFloat(1), pyFloat(1e20), pyFloat(-0), pyFloat(0.1), pyFloat(1e16), pyFloat(1e15), pyFloat(1.5e-5), pyFloat(0.0001)])).toBe(
      "[1.0,1e+20,-0.0,0.1,1e+16,1000000000000000.0,1.5e-05,0.0001]",
    );
    expect(canonicalJson([1, 0, -3, 2.5, 1e21, 2 ** 60])).toBe("[1,0,-3,2.5,1000000000000000000000,1152921504606846976]");
    expect(canonicalJson([pyFloat(NaN), pyFloat(-Infinity)])).toBe("[NaN,-Infinity]");
  });

  it("hashes the canonical text", () => {
    const data = { b: 2, a: 1 };
    expect(computeIntegrity(data)).toBe(createHash("sha256").update('{"a":1,"b":2}').digest("hex"));
    expect(computeIntegrity({ a: 1, b: 2 })).toBe(computeIntegrity(data));
  });
});
