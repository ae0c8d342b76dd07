// The parts of "what a ${VAR} puts in is sealed": when expand-env.ts seals a substituted text, and
// how seal-text.ts puts texts (and the run's sealed values inside them) back.
import { describe, expect, it } from "vitest";
import { expandEnvDeep, expandEnvVars } from "../../src/runtime/exec/expand-env.js";
import { textSeal } from "../../src/runtime/exec/seal-text.js";
import { valueSeal } from "../../src/runtime/exec/seal-values.js";

/** A seal that spells each text it is asked for, so a test sees which texts were sealed. */
const spy = () => {
  const asked: string[] = [];
  return { asked, seal: (t: string) => (asked.push(t), `<${asked.length - 1}>`) };
};

describe("expandEnvVars / expandEnvDeep with a seal", () => {
  it("seals a text holding {, } or $, whatever the template around it", () => {
    for (const value of ["{x}", "a}", "${Y}", "$", "{"]) {
      const s = spy();
      expect(expandEnvVars("${G}", { G: value }, s.seal), value).toBe("<0>");
      expect(s.asked).toEqual([value]);
    }
  });

  it("seals every text of a template that holds {, } or $ outside its ${VAR}s, plain ones too", () => {
    for (const template of ["{${G}}", "{x${G}", "${G}x}", "$${G}", "${G}-{y}"]) {
      const s = spy();
      expandEnvVars(template, { G: "x" }, s.seal);
      expect(s.asked, template).toEqual(["x"]);
    }
  });

  it("leaves plain text in a plain template, whitespace, empty and missing values as they are", () => {
    const s = spy();
    expect(expandEnvVars("${T}", { T: "30" }, s.seal)).toBe("30");
    expect(expandEnvVars("${H}/bin", { H: "/h" }, s.seal)).toBe("/h/bin");
    expect(expandEnvVars("{x}${W}", { W: "  " }, s.seal)).toBe("{x}  ");
    expect(expandEnvVars("{x}${E}${M}", { E: "" }, s.seal)).toBe("{x}");
    expect(expandEnvVars("{x}${M:-d}", {}, s.seal)).toBe("{x}<0>");
    expect(s.asked).toEqual(["d"]);
  });

  it("without a seal, the original's text (the vectors' ports)", () => {
    expect(expandEnvVars("{${G}}", { G: "{x}" })).toBe("{{x}}");
    expect(expandEnvDeep({ a: ["${G}"] }, { G: "{x}" }, { shellQuote: false })).toEqual({ a: ["{x}"] });
  });

  it("pass 1 seals the quoted text when it quotes, in every string of a nested value", () => {
    const s = spy();
    const out = expandEnvDeep({ a: ["${G}", { b: "x${P}" }], n: 3 }, { G: "{x};", P: "plain" }, { shellQuote: true, seal: s.seal });
    expect(out).toEqual({ a: ["<0>", { b: "xplain" }], n: 3 });
    expect(s.asked).toEqual(["'{x};'"]);
  });
});

describe("textSeal", () => {
  it("puts each text back byte for byte, in strings, lists and objects, and leaves other data alone", () => {
    const t = textSeal(valueSeal());
    const a = t.seal("{x} ${Y}");
    const b = t.seal("}{");
    expect(a).toMatch(/^@rye-text-[0-9a-f]{16}-0@$/);
    expect(b).not.toBe(a);
    expect(t.restore({ k: [`p${a}q`, b, 7, null], n: { m: a } })).toEqual({ k: ["p{x} ${Y}q", "}{", 7, null], n: { m: "{x} ${Y}" } });
    expect(t.restore(`${a}|${b}|${a}`)).toBe("{x} ${Y}|}{|{x} ${Y}");
  });

  it("opens the run's sealed values inside a text before sealing it, and after restoring", () => {
    const values = valueSeal();
    const v = values.seal("{caller}") as string;
    const t = textSeal(values);
    const outer = t.seal(`a${v}b`);
    expect(t.restore(outer)).toBe("a{caller}b");
    expect(t.restore(v)).toBe("{caller}");
    const inner = t.seal("{x}");
    expect(t.restore(t.seal(`<${inner}>`))).toBe("<{x}>");
  });

  it("a whole token of a container value stays a token inside the text, then restores to its text", () => {
    const values = valueSeal();
    const d = values.seal({ "${K}": 1 }) as string;
    const t = textSeal(values);
    expect(t.restore(t.seal(d))).toEqual({ "${K}": 1 });
  });

  it("look-alikes and another seal's tokens stay text", () => {
    const t = textSeal(valueSeal());
    const other = textSeal(valueSeal());
    const foreign = other.seal("{x}");
    t.seal("{y}");
    for (const text of [foreign, "@rye-text-0123456789abcdef-0@", "@rye-text--0@"]) expect(t.restore(text)).toBe(text);
    const untouched = { a: 1 };
    expect(textSeal(valueSeal()).restore(untouched)).toBe(untouched);
  });
});
