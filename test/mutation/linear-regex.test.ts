// The linear-time matcher for hook conditions' `op: regex` (src/runtime/context/linear-regex.ts):
// V8's own RegExp with the `u` flag is the oracle for every pattern it accepts, on every text. The
// generated patterns reach each construct the parser reads (quantifier forms and bounds, escapes of
// every length, classes with escaped brackets, group forms, anchors and word boundaries anywhere);
// the texts hold what the single-character tests and the assertions must tell apart (line
// terminators `.` does not match, astral and lone surrogate code points, word and non-word characters).
//
// Mutants left alive (not counted on), each equivalent:
// - the per-character memo (`hit === undefined && seen.size < 4096` and its parts): caching or not
//   changes only speed; the answer is V8's either way (its `??` fallback is killed below).
// - `options.length === 1 ? options[0] : alt` → always alt: an alternation of one option emits it alone.
// - a sequence's `items` starting with a stray element, `t: "rep"` → `""`, `op: "assert"` → `""`:
//   the stray node and the renamed kinds fall through to branches that emit or decide the same.
// - `m[3] === undefined` → false for `{n}`: the upper bound becomes NaN, and no optional copy is emitted.
// - the surrogate-pair regex without its last `{2}`, and V8's message prefix unanchored: a pattern
//   that compiled holds four hex digits there, and V8 puts the prefix first.
// - the lookaround regex unanchored: it is tried on four characters from a `(`; a later `(?=` is
//   refused with the same message when its own group is read.
// - the branch for other `(?` group forms (3 mutants, 2 without coverage): Node 20's V8 accepts no
//   other form (no inline modifiers), so it is not reached here; the test below checks both cases.
// - alternation's `!last` → true (either one): the last option's extra split goes to state 0, which
//   every position already holds, and its extra jump goes where it would fall through.
// - `isWord`'s `c !== undefined` → true and its regex unanchored at either end: each call gets one
//   code point or undefined (which the anchored test rejects as "undefined").
// - `from.reverse()` → `from`: the order states are visited in decides nothing without captures.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileLinear, MAX_GROUP_DEPTH, MAX_STATES, regexProblem, UnsafeRegex } from "../../src/runtime/context/linear-regex.js";

const ATOMS = [
  "a", "b", "A", "_", "1", "-", " ", "é", "😀", ".", "^", "$", "\\b", "\\B",
  "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\.", "\\\\", "\\/", "\\n", "\\r", "\\t", "\\0",
  "\\u0061", "\\u00e9", "\\u{62}", "\\u{1F600}", "\\uD83D\\uDE00", "\\uD83D", "\\x61", "\\x5F", "\\cJ", "\\cM",
  "\\p{L}", "\\P{L}", "\\p{Lu}", "\\p{Script=Latin}", "\\p{Emoji_Presentation}",
  "[ab]", "[^a]", "[a-c]", "[\\]a]", "[\\\\]", "[\\d_]", "[😀]", "[^😀]", "[\\u{1F600}-\\u{1F64F}]", "[.]", "[-a]", "[\\-a]", "[]", "[^]",
];
const QUANTIFIERS = ["", "", "", "*", "+", "?", "*?", "+?", "??", "{0}", "{1}", "{2}", "{0,1}", "{1,2}", "{2,3}", "{0,}", "{2,}", "{1,3}?", "{3,}?", "{0,0}"];

/** A group's quantifier without an upper bound, given one: see `pattern`. */
const BOUNDED: Record<string, string> = { "*": "{0,2}", "+": "{1,2}", "*?": "??", "+?": "{1,2}?", "{0,}": "{0,1}", "{2,}": "{2,3}", "{3,}?": "{3}?" };

/**
 * Patterns from those constructs, nested in every group form, with empty alternatives too. A bare
 * assertion takes no quantifier (V8 rejects `^*` under `u`; `(?:^)*` it takes), and each named group
 * gets its own name, so that most patterns are valid JavaScript. Only single characters repeat
 * without bound here: a group repeated without bound around other repetitions can make V8's
 * backtracking, the oracle, run for minutes on a ten-character text (those nests are cases below).
 */
const pattern: fc.Arbitrary<string> = fc.letrec((tie) => ({
  atom: fc.oneof(
    { depthSize: "xsmall", withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc.tuple(tie("alt"), fc.constantFrom("(", "(?:", "(?<g>")).map(([x, open]) => `${open}${x})`),
  ),
  quantified: fc.tuple(tie("atom"), fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => {
    const atom = a as string;
    if (/^(?:[$^]|\\[bB])$/.test(atom)) return atom;
    return atom.startsWith("(") ? `${atom}${BOUNDED[q] ?? q}` : `${atom}${q}`;
  }),
  seq: fc.array(tie("quantified"), { minLength: 0, maxLength: 3 }).map((xs) => (xs as string[]).join("")),
  alt: fc.array(tie("seq"), { minLength: 1, maxLength: 3 }).map((xs) => (xs as string[]).join("|")),
})).alt.map((p) => {
  let k = 0;
  return p.replace(/\(\?<g>/g, () => `(?<g${k++}>`);
});

const CHARS = ["a", "b", "A", "_", "1", " ", "-", ".", "\\", "]", "é", "😀", "\uD83D", "\uDE00", "\n", "\r", "\u2028", "\t", "/", "\u0000"];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 10 }).map((xs) => xs.join(""));

const RUNS = process.env.RYE_MUTATE_FILE === undefined ? 800 : 250;

/** V8's answer, the oracle: the pattern as written, with the `u` flag. */
const v8 = (p: string, s: string) => new RegExp(p, "u").test(s);

describe("the matcher answers as V8's RegExp with the u flag", () => {
  it("every accepted pattern on generated texts", () => {
    let accepted = 0;
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (p, texts) => {
        if (regexProblem(p) !== null) return;
        accepted++;
        const m = compileLinear(p);
        for (const s of texts) expect(m.test(s), `/${p}/u on ${JSON.stringify(s)}`).toBe(v8(p, s));
      }),
      // Fewer runs in a mutation run (scripts/mutate.mjs sets RYE_MUTATE_FILE), once per mutant.
      { numRuns: RUNS, seed: 20261127 },
    );
    // Most generated patterns are valid JavaScript (the rest hold a `\\0` before a digit and the
    // like): the property must not pass by refusing everything.
    expect(accepted).toBeGreaterThan(RUNS * 0.6);
  });

  // Each case a construct whose reading the parser or the automaton must get right, on texts where a
  // wrong reading changes the answer.
  const CASES: [string, string[]][] = [
    ["^a$", ["a", "ba", "ab", "", "aa"]],
    ["a$|^b", ["xa", "bx", "ab", "x"]],
    ["^$", ["", "a"]],
    ["\\bab\\b", ["ab", "ab c", "xab", "ab_", "-ab-", "a b"]],
    ["\\Bb\\B", ["abc", "b", "ab", "bc", "-b-"]],
    ["a\\b", ["a", "a-", "ab", "a_"]],
    ["\\b", ["", "-", "a"]],
    ["\\B", ["", "-", "a", "--"]],
    ["(?:^|-)x", ["x", "-x", "ax", "a-x"]],
    ["(?:a|b)c", ["ac", "bc", "cc", "c"]],
    ["a|b|c", ["a", "b", "c", "d", ""]],
    ["ab|cd|ef", ["ab", "cd", "ef", "ad", "cf", "eb"]],
    ["x(?:a|b|)y", ["xy", "xay", "xby", "xcy", "xaby"]],
    ["(|a)b", ["b", "ab"]],
    ["^(?:a|b|c)$", ["a", "b", "c", "d", "ab", ""]],
    ["^a{3}$", ["aa", "aaa", "aaaa"]],
    ["^a{2,}$", ["a", "aa", "aaaaa"]],
    ["^a{2,3}$", ["a", "aa", "aaa", "aaaa"]],
    ["^a{0,2}$", ["", "a", "aa", "aaa"]],
    ["^a{0}b$", ["b", "ab"]],
    ["^(?:ab){2}$", ["ab", "abab", "ababab"]],
    ["^(?:a|bc){1,2}$", ["a", "bc", "abc", "bca", "bcbc", "abca"]],
    ["^a*?b+?c??$", ["b", "ab", "abc", "aabbc", "c"]],
    ["^a{1,2}?$", ["a", "aa", "aaa"]],
    ["^a+$", ["", "a", "aaaa", "ab"]],
    ["^a*$", ["", "aaa", "ba"]],
    ["^a?$", ["", "a", "aa"]],
    ["^(?:a*)*$", ["", "aaa", "b"]],
    ["^(?:a?)+b$", ["b", "ab", "aab", "a"]],
    ["^(?:)+$", ["", "a"]],
    ["^(?:|a){2}$", ["", "a", "aa", "aaa"]],
    ["^(?:^a|b$)+$", ["a", "b", "ab", "ba"]],
    ["^(?<n>a|b)+$", ["ab", "abc"]],
    ["^.$", ["a", "😀", "\n", "\r", "\u2028", "\u2029", "\uD83D", "ab"]],
    ["^..$", ["😀", "a😀", "\uD83D\uDE00"]],
    ["^😀$", ["😀", "\uD83D", "😀😀"]],
    ["^é+$", ["é", "éé", "e"]],
    ["^[😀a]$", ["😀", "a", "\uDE00"]],
    ["^[^😀]$", ["😀", "a", "\uD83D"]],
    ["^\\uD83D\\uDE00$", ["😀", "\uD83D"]],
    ["^\\uD83D$", ["\uD83D", "😀"]],
    ["^\\u{1F600}$", ["😀", "u"]],
    ["^\\u0061\\x62\\cJ$", ["ab\n", "ab", "abJ", "u0061"]],
    ["^\\x41b$", ["Ab", "x41b"]],
    ["^\\cMx$", ["\rx", "cMx", "Mx"]],
    ["^\\p{Lu}\\P{Lu}$", ["Ab", "aB", "AB"]],
    ["^\\p{Script=Greek}+$", ["αβ", "ab"]],
    ["^\\u{62}{2}$", ["bb", "b"]],
    ["^[\\]a]+$", ["]a]", "b"]],
    ["^[\\\\]$", ["\\", "]"]],
    ["^[a-c\\d]{2}$", ["a1", "c9", "d1", "a"]],
    ["^\\.\\\\\\/$", [".\\/", "a\\/"]],
    ["^\\d\\D\\w\\W\\s\\S$", ["1a_ \tx", "1a_  x", "a1_ \tx"]],
    ["^\\0$", ["\u0000", "0"]],
    // An escape at the very start of the pattern, and after an astral character.
    ["\\.a", ["x.a", "xa"]],
    ["\\d+", ["a1", "a"]],
    ["😀\\d", ["😀1", "😀", "1"]],
    ["a", ["", "a", "ba", "b"]],
    ["", ["", "x"]],
    ["ab", ["xaab", "aab", "ba", "a"]],
    // Short enough for V8's backtracking to answer.
    ["(a+)+b", [`${"a".repeat(16)}`, `${"a".repeat(16)}b`]],
  ];

  it.each(CASES)("/%s/u", (p, texts) => {
    expect(regexProblem(p), p).toBeNull();
    const m = compileLinear(p);
    for (const s of texts) expect(m.test(s), `/${p}/u on ${JSON.stringify(s)}`).toBe(v8(p, s));
  });

  it("a matcher answers the same each time it is asked (its per-character memo changes nothing)", () => {
    const m = compileLinear("^[a-c\\d]+$");
    for (const s of ["abc1", "abd", "abc1", "abd"]) expect(m.test(s), s).toBe(v8("^[a-c\\d]+$", s));
    // More distinct characters than the memo holds: the test past it is still V8's.
    const wide = compileLinear("^\\p{L}+$");
    const letters = Array.from({ length: 5000 }, (_, k) => String.fromCodePoint(0x4e00 + k)).join("");
    expect(wide.test(letters)).toBe(true);
    expect(wide.test(`${letters}1`)).toBe(false);
    for (const s of ["1", "a", "一1"]) expect(wide.test(s), s).toBe(v8("^\\p{L}+$", s));
  });
});

describe("what the matcher refuses, and what it names", () => {
  const refused = (p: string) => {
    const why = regexProblem(p);
    expect(why, p).not.toBeNull();
    expect(() => compileLinear(p), p).toThrow(UnsafeRegex);
    return why!;
  };

  it("a pattern V8 rejects under the u flag, with V8's reason and without its prefix", () => {
    for (const p of ["(?P<n>a)", "(", "a{2,1}", "\\q", "[b-a]", "(?<n>a)(?<n>b)", "\\u{110000}"]) {
      const why = refused(p);
      expect(why, p).toMatch(/^it is not a valid JavaScript regular expression \(/);
      expect(why, p).not.toMatch(/Invalid regular expression: /);
      expect(() => new RegExp(p, "u"), p).toThrow(SyntaxError);
    }
    expect(refused("a)")).toBe("it is not a valid JavaScript regular expression (/a)/u: Unmatched ')')");
  });

  it("backreferences, by number and by name", () => {
    for (const p of ["(a)\\1", "(a)(b)(c)(d)(e)(f)(g)(h)(i)\\9", "(?<n>a)\\k<n>"]) expect(refused(p), p).toBe("it uses a backreference (\\1, \\k<name>), which no linear-time matcher can follow");
  });

  it("lookahead and lookbehind, each form", () => {
    for (const p of ["a(?=b)", "a(?!b)", "(?<=b)a", "(?<!b)a"]) expect(refused(p), p).toBe("it uses a lookahead or lookbehind ((?=, (?!, (?<=, (?<!), which a linear-time matcher cannot follow");
  });

  it("a group form other than (, (?: and (?<name> that V8 accepts (inline modifiers)", () => {
    let modifiers = true;
    try {
      new RegExp("(?i:a)", "u");
    } catch {
      modifiers = false;
    }
    if (modifiers) expect(refused("(?i:a)b")).toBe("it uses a group form ((?i…) the linear-time matcher does not follow");
    else expect(refused("(?i:a)b")).toMatch(/not a valid JavaScript regular expression/);
  });

  it("repetitions and states past the limits; at the limits still accepted", () => {
    expect(regexProblem(`a{${MAX_STATES}}`)).toBeNull();
    expect(compileLinear(`a{${MAX_STATES}}`).test(`b${"a".repeat(MAX_STATES)}`)).toBe(true);
    expect(compileLinear(`a{${MAX_STATES}}`).test("a".repeat(MAX_STATES - 1))).toBe(false);
    expect(refused(`^a{${MAX_STATES}}$`)).toMatch(/compiles to more than/);
    expect(refused(`a{${MAX_STATES + 1}}`)).toBe(`it repeats a part more than ${MAX_STATES} times`);
    expect(refused(`a{0,${MAX_STATES + 1}}`)).toBe(`it repeats a part more than ${MAX_STATES} times`);
    expect(refused(`(?:){${MAX_STATES + 1},}`)).toBe(`it repeats a part more than ${MAX_STATES} times`);
    expect(regexProblem(`(?:){${MAX_STATES}}`)).toBeNull();
    expect(regexProblem(`a{0,${MAX_STATES}}`)).not.toBe(`it repeats a part more than ${MAX_STATES} times`);
    expect(refused("(?:ab){501}")).toBe(`it compiles to more than ${MAX_STATES} states (long repetitions such as {500} count each copy)`);
    expect(regexProblem("(?:ab){500}")).toBeNull();
    expect(refused("(?:a|b){400}")).toMatch(/compiles to more than/);
    // The growth check counts the states emitted before each part: a part starting at state 1000 is
    // still emitted, one starting past it is not.
    expect(regexProblem(`a{${MAX_STATES - 1}}bc`)).toBeNull();
    expect(refused(`a{${MAX_STATES}}bc`)).toMatch(/compiles to more than/);
    // An empty group's copies add only branch states: {0,1000} of it fits, {0,1001} repeats too often.
    expect(regexProblem(`(?:){0,${MAX_STATES}}`)).toBeNull();
    expect(refused(`(?:){0,${MAX_STATES + 1}}`)).toBe(`it repeats a part more than ${MAX_STATES} times`);
  });

  it(`groups nested ${MAX_GROUP_DEPTH} deep are read; one deeper is refused`, () => {
    const nest = (n: number) => `${"(".repeat(n)}a${")".repeat(n)}`;
    expect(regexProblem(nest(MAX_GROUP_DEPTH))).toBeNull();
    expect(compileLinear(nest(MAX_GROUP_DEPTH)).test("xa")).toBe(true);
    expect(refused(nest(MAX_GROUP_DEPTH + 1))).toBe(`it nests groups more than ${MAX_GROUP_DEPTH} deep`);
    expect(refused(`${"(?:".repeat(MAX_GROUP_DEPTH + 1)}a${")".repeat(MAX_GROUP_DEPTH + 1)}`)).toMatch(/nests groups/);
  });

  it("the limits are as documented", () => {
    expect(MAX_STATES).toBe(1000);
    expect(MAX_GROUP_DEPTH).toBe(32);
  });
});
