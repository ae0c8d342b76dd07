// System 1 (`${VAR}`) and its helpers (src/runtime/exec/expand-env.ts), per rye-reference.md §2.2;
// shlex.quote results were checked with CPython 3.11.
import { describe, expect, it } from "vitest";
import { PyFloat } from "../../src/runtime/pystr.js";
import { ENV_VAR_PATTERN, defineKey, expandEnvDeep, expandEnvVars, isPlainObject, shellQuote } from "../../src/runtime/exec/expand-env.js";

const env = { HOME: "/h", EMPTY: "", SEMI: "a;b", Q: "it's $x", _U: "u", A1: "one", lower: "low" };

describe("expandEnvVars", () => {
  it("upper-case names, `_` and digits after the first character; defaults only for absent names", () => {
    expect(expandEnvVars("${HOME}|${_U}|${A1}|${MISSING}|${MISSING:-dflt}|${EMPTY:-dflt}|${HOME:-dflt}", env)).toBe("/h|u|one||dflt||/h");
    expect(expandEnvVars("${MISSING:-}|${MISSING:-a:-b}", env)).toBe("|a:-b");
  });

  it("leaves every other form alone", () => {
    const text = "${lower} ${1A} ${state.x} $HOME ${X-d} ${A :-x} ${} ${HOME";
    expect(expandEnvVars(text, env)).toBe(text);
  });

  it("no quoting, and own keys only", () => {
    expect(expandEnvVars("${SEMI} ${Q}", env)).toBe("a;b it's $x");
    expect(expandEnvVars("[${CONSTRUCTOR}]", Object.create({ CONSTRUCTOR: "inherited" }))).toBe("[]");
    expect(expandEnvVars("[${X}]", { X: undefined })).toBe("[]");
    expect(expandEnvVars("[${X:-d}]", { X: undefined })).toBe("[d]");
  });

  it("empty text stays empty", () => {
    expect(expandEnvVars("", env)).toBe("");
  });

  it("the pattern is the original's", () => {
    expect(ENV_VAR_PATTERN.source).toBe("\\$\\{([A-Z_][A-Z0-9_]*(?::-[^}]*)?)\\}");
    expect(ENV_VAR_PATTERN.flags).toBe("g");
  });
});

describe("shellQuote is shlex.quote", () => {
  it.each([
    ["", "''"],
    ["abc", "abc"],
    ["@%+=:,./-_x9", "@%+=:,./-_x9"],
    ["a b", "'a b'"],
    ["it's", `'it'"'"'s'`],
    ["é", "'é'"],
    ["a$b", "'a$b'"],
    ["a\nb", "'a\nb'"],
    ["''", `''"'"''"'"''`],
  ])("%j → %s", (value, quoted) => {
    expect(shellQuote(value)).toBe(quoted);
  });
});

describe("expandEnvDeep (the executor's pass 1)", () => {
  it("quotes a value holding any shell metacharacter, only when asked", () => {
    for (const c of ["$", "`", ";", "|", "&", "<", ">", "(", ")", "{", "}", "[", "]", "\\"]) {
      expect(expandEnvDeep("${V}", { V: `a${c}b` }, { shellQuote: true }), c).toBe(`'a${c}b'`);
      expect(expandEnvDeep("${V}", { V: `a${c}b` }, { shellQuote: false }), c).toBe(`a${c}b`);
    }
    expect(expandEnvDeep("${V}", { V: "a b'c" }, { shellQuote: true })).toBe("a b'c");
    expect(expandEnvDeep("${Q}", env, { shellQuote: true })).toBe(`'it'"'"'s $x'`);
  });

  it("missing and empty values are empty; defaults apply to absent names only", () => {
    expect(expandEnvDeep("[${MISSING}][${EMPTY:-d}][${MISSING:-d;e}]", env, { shellQuote: true })).toBe("[][]['d;e']");
    expect(expandEnvDeep("${HOME}/x", env, { shellQuote: true })).toBe("/h/x");
  });

  it("walks arrays and plain objects, keeps other values, keeps __proto__ as a key", () => {
    const value = JSON.parse('{"a": ["${HOME}", 1, null, {"b": "${SEMI}"}], "__proto__": "${HOME}", "c": true}') as object;
    const out = expandEnvDeep(value, env, { shellQuote: true }) as Record<string, unknown>;
    expect(out.a).toEqual(["/h", 1, null, { b: "'a;b'" }]);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(out.__proto__).toBe("/h");
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.c).toBe(true);
    const f = new PyFloat(1);
    expect(expandEnvDeep(f, env, { shellQuote: true })).toBe(f);
  });
});

describe("isPlainObject and defineKey", () => {
  it("plain objects only", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject(undefined)).toBe(false);
    expect(isPlainObject(1)).toBe(false);
    expect(isPlainObject("s")).toBe(false);
    expect(isPlainObject(new PyFloat(1))).toBe(false);
    expect(isPlainObject(new Map())).toBe(false);
    expect(isPlainObject(Object.create({}))).toBe(false);
  });

  it("defineKey sets data, even __proto__, as an ordinary enumerable, writable, configurable key", () => {
    const o: Record<string, unknown> = {};
    defineKey(o, "__proto__", 1);
    defineKey(o, "b", 2);
    expect(Object.hasOwn(o, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(["__proto__", "b"]);
    const d = Object.getOwnPropertyDescriptor(o, "b")!;
    expect([d.value, d.enumerable, d.writable, d.configurable]).toEqual([2, true, true, true]);
  });
});
