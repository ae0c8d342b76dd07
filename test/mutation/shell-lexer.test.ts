// The shell reader's lexer (src/runtime/exec/shell-lexer.ts), checked against bash: the words it
// reads are the words bash passes to a command (after quote removal), a placeholder's quoting is how
// bash expands what stands there, the scripts it stops on are constructs bash reads differently or
// rejects, and `((` is arithmetic exactly where bash starts a command. Each live check re-runs bash
// and is skipped (with the reason printed) when bash is not installed; the tables hold what bash 5.2
// printed, so the mutants are judged without it.
//
// Mutants left alive (not counted on), each equivalent for every script bash accepts:
// - RESERVED "fi", "done", "}" and "in" → "": `((` right after them is a syntax error to bash
//   (`fi ((1))`, `done ((1))`, `} ((1))`, `for i in ((1))`), so how the reader reads it changes nothing.
// - `empty = false` initially → true: word() sets it before anything reads it.
// - the initial `text: ""` and `recs: []` of a word: both are overwritten before the word is returned.
// - `j < this.end` → `<=` in the comment, (( )), [ ], ${ } and backquote scans, `this.i < this.end`
//   → `<=` in the double-quote reader, `close < 0` → `<= 0`, `close >= this.end` → `>`: the extra
//   step reads the character at the end, undefined or the closing backquote, which none of them matches.
// - the `${name}` shortcut (its regex, the slice it reads, `simple` → false): a name with no quote,
//   placeholder or brace inside is read the same by the general `${…}` path.
// - `/^\{[\s|]/` → unanchored: it is tried on two characters from the `{`.
// - nested("backtick") → nested(""): only "paren" is told apart.
// - a trailing backslash at the end of the script (`?? ""`): bash keeps it as text (`ab\` is the word
//   `ab\`), the reader drops it; neither is the mutant's, but asserting the reader's `ab` would assert
//   a known difference from bash.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SCRIPT_NESTING, Poison, ShellLexer, type Rec, type Token, type WordTok } from "../../src/runtime/exec/shell-lexer.js";
import { which } from "./shell-probe.js";

const BASH = which("bash");
// A mutation run (scripts/mutate.mjs sets RYE_MUTATE_FILE) judges each mutant by the kept tables
// alone: re-running bash for each of some seven hundred mutants would take hours.
const LIVE = BASH !== null && process.env.RYE_MUTATE_FILE === undefined;
if (!LIVE) console.log(`shell-lexer.test.ts: the live comparisons with bash are skipped (${BASH === null ? "bash is not installed" : "a mutation run"})`);

/** Runs `script` with bash -c in an empty environment; stdout. */
function bash(script: string, env: Record<string, string> = {}): string {
  return spawnSync(BASH!, ["-c", script], { encoding: "utf8", env: { PATH: "/usr/bin:/bin", ...env }, cwd: "/" }).stdout;
}

/** Placeholders written as `{x}` (one lowercase letter, not right after `$`), as spans of the script. */
function spans(script: string): { start: number; end: number }[] {
  return [...script.matchAll(/(?<!\$)\{[a-z]\}/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** The lexer over `script` (placeholders `{x}`): top-level tokens, every record, nested lists. */
function lex(script: string) {
  const nested: Token[][] = [];
  const lexer = new ShellLexer(script, spans(script), (tokens) => nested.push(tokens));
  const tokens = lexer.list("top");
  return { tokens, recs: lexer.recs, nested };
}

const words = (tokens: Token[]) => tokens.filter((t): t is WordTok => t.kind === "word");
const shape = (tokens: Token[]) => tokens.map((t) => (t.kind === "op" ? `op:${JSON.stringify(t.op)}` : t.text === null ? "word:?" : `word:${JSON.stringify(t.text)}`));
/** Why the script is not read, or null when it is. */
function poison(script: string): string | null {
  try {
    lex(script);
    return null;
  } catch (e) {
    if (e instanceof Poison) return e.message;
    throw e;
  }
}

describe("literal words are the words bash passes on", () => {
  // Pieces of one simple command: no expansion, glob, brace, tilde or operator, so quote removal is
  // all bash does to them. `#` starts a comment only where a word starts, in both readers.
  const piece = fc.oneof(
    fc.constantFrom("a", "b", "Z", "1", "_", "-", ".", "/", "=", ":", "%", "+", "@", ",", "#", "x#y"),
    fc.constantFrom(" ", "  ", "\t", " \\\n ", "\\\n"),
    fc.constantFrom("\\a", "\\\\", "\\'", '\\"', "\\$", "\\`", "\\ ", "\\#", "\\;", "\\|", "\\&", "\\(", "\\>", "\\\t"),
    fc.array(fc.constantFrom("a", " ", '"', "\\", "$", "`", "\n", "#", ";", "(", "\t"), { maxLength: 5 }).map((xs) => `'${xs.join("")}'`),
    fc.array(fc.constantFrom("a", " ", "'", "\\\\", '\\"', "\\$", "\\`", "\\a", "\\\n", "\n", "#", ";", "(", "\t", "\\n"), { maxLength: 5 }).map((xs) => `"${xs.join("")}"`),
  );
  const command = fc.array(piece, { minLength: 1, maxLength: 10 }).map((xs) => xs.join(""));

  it.skipIf(!LIVE)("generated commands (live)", () => {
    fc.assert(
      fc.property(command, (script) => {
        const command = `printf '%s\\0' ${script}`;
        // A quote opened after a comment's newline is never closed: bash rejects the script too.
        if (poison(script) !== null) {
          expect(spawnSync(BASH!, ["-n", "-c", command]).status, JSON.stringify(script)).not.toBe(0);
          return;
        }
        const said = bash(command);
        const expected = said === "" ? [] : said.slice(0, -1).split("\0");
        // printf with no argument prints its format once, with an empty argument. A comment ends at
        // the newline (a backslash does not continue it), which ends printf's command.
        const { tokens } = lex(script);
        const end = tokens.findIndex((t) => t.kind === "op");
        const mine = words(end < 0 ? tokens : tokens.slice(0, end)).map((w) => w.text);
        expect(mine.length === 0 ? [""] : mine, JSON.stringify(script)).toEqual(expected);
      }),
      { numRuns: 150, seed: 424242 },
    );
  });

  // What bash printed for each (`printf '%s|' WORDS`), kept so the mutants are judged without bash.
  const SEEN: [string, string[]][] = [
    ["a\tb", ["a", "b"]],
    ["a\\\nb c", ["ab", "c"]],
    ["a \\\n b", ["a", "b"]],
    ["\\\nab", ["ab"]],
    ["a\\\\b \\$x \\'", ["a\\b", "$x", "'"]],
    ["\\a\\ b", ["a b"]],
    ["'a\"b\\c$x`'", ['a"b\\c$x`']],
    ["'a\nb'", ["a\nb"]],
    ["''", [""]],
    ['""', [""]],
    ["a''b", ["ab"]],
    ['"a\\"b\\\\c\\$d\\`e"', ['a"b\\c$d`e']],
    ['"a\\bc\\n"', ["a\\bc\\n"]],
    ['"a\\\nb"', ["ab"]],
    ['"x\ny"', ["x\ny"]],
    ["'#' a#b #c d", ["#", "a#b"]],
    ["x \\#y", ["x", "#y"]],
  ];
  it.each(SEEN)("%j", (script, expected) => {
    expect(words(lex(script).tokens).map((w) => w.text)).toEqual(expected);
  });
  it.skipIf(!LIVE)("each kept case is what bash prints (live)", () => {
    for (const [script, expected] of SEEN) expect(bash(`printf '%s|' ${script}`), JSON.stringify(script)).toBe(expected.map((w) => `${w}|`).join("") || "|");
  });

  it("a word knows where it ends, whether it was quoted, and whether it expands", () => {
    const script = `ab 'c d'  e"f"g $h i$(j) \`k\` "$l"`;
    const ws = words(lex(script).tokens);
    expect(ws.map((w) => script.slice(w.start, w.end))).toEqual(["ab", "'c d'", 'e"f"g', "$h", "i$(j)", "`k`", '"$l"']);
    expect(ws.map((w) => w.quoted)).toEqual([false, true, true, false, false, false, true]);
    expect(ws.map((w) => w.expands)).toEqual([false, false, false, true, true, true, true]);
    expect(ws.map((w) => w.text)).toEqual(["ab", "c d", "efg", null, null, null, null]);
  });
});

describe("the unquoted start of a word decides NAME= assignments, as in bash", () => {
  // bash assigns only when `NAME=` is unquoted literal text at the word's start.
  const CASES: [string, string, boolean][] = [
    ["a=1", "a=1", true],
    ["a=\\1", "a=", true],
    ["a='1'", "a=", true],
    ["'a'=1", "", false],
    ['"a"=1', "", false],
    ["a'=1'", "a", false],
    ["a\\=1", "a", false],
    ["\\a=1", "", false],
  ];
  it.each(CASES)("%s", (word, prefix) => {
    expect(words(lex(word).tokens)[0]!.prefix).toBe(prefix);
    expect(/^[A-Za-z_][A-Za-z0-9_]*=/.test(prefix)).toBe(CASES.find((c) => c[0] === word)![2]);
  });
  it.skipIf(!LIVE)("bash assigns in exactly those (live)", () => {
    for (const [word, , assigns] of CASES) expect(bash(`${word} 2>/dev/null; echo "[$a]"`), word).toBe(assigns ? "[1]\n" : "[]\n");
  });
});

describe("a placeholder's quoting is how bash expands what stands there", () => {
  // Each placeholder `{v}` stands where `$V` would be expanded: unquoted (split into words),
  // double-quoted (one word), single-quoted (not expanded) or in a comment (not read).
  const CASES: [string, Rec["quote"][]][] = [
    ["printf '<%s>' {v}", ["none"]],
    ["printf '<%s>' x{v}y", ["none"]],
    ["printf '<%s>' \"{v}\"", ["dq"]],
    ["printf '<%s>' \"a{v}b\" '{v}'", ["dq", "sq"]],
    ["printf '<%s>' 'a{v}'b", ["sq"]],
    ["printf '<%s>' $(printf %s {v})", ["none"]],
    ["printf '<%s>' \"$(printf %s {v})\"", ["none"]],
    ["printf '<%s>' . # {v}", ["comment"]],
  ];
  it.each(CASES)("%s", (script, quotes) => {
    expect(lex(script).recs.map((r) => r.quote)).toEqual(quotes);
  });
  it.skipIf(!LIVE)("bash: split, one word, literal, unread (live)", () => {
    const expands = { none: "<a><b>", dq: "<a b>", sq: "<$V>", comment: "" } as const;
    expect(bash(CASES[0]![0].replace("{v}", "$V"), { V: "a b" })).toBe(expands.none);
    expect(bash(CASES[2]![0].replace("{v}", "$V"), { V: "a b" })).toBe(expands.dq);
    expect(bash("printf '<%s>' '$V'", { V: "a b" })).toBe(expands.sq);
    expect(bash(CASES[7]![0].replace("{v}", "$V"), { V: "a b" })).toBe("<.>");
  });

  it("whether the value starts its word: only empty quotes, expansions or values before it", () => {
    const start = (script: string) => lex(script).recs.map((r) => r.atWordStart);
    expect(start("cat {x} ''{x} \"\"{x} a{x} 'a'{x} \\a{x}")).toEqual([true, true, true, false, false, false]);
    expect(start("cat \"{x}\" '{x}' \"a{x}\" 'a{x}' \"\\a{x}\" \"\\\n{x}\"")).toEqual([true, true, false, false, false, true]);
    expect(start("cat $E{x} {x}{y} $(true){x} `true`{x}")).toEqual([true, true, true, true, true]);
    expect(start("cat # {x}")).toEqual([false]);
  });
  it.skipIf(!LIVE)("bash: with the expansions empty, the value is the first text of the word (live)", () => {
    const first = (word: string) => bash(`printf '%s|' ${word.replace("{x}", "$V")}`, { V: "Z" }).startsWith("Z");
    for (const w of ["{x}", "''{x}", '""{x}', '"{x}"', "'{x}'".replace("{x}", "Z"), "$E{x}", "$(true){x}", '"\\\n{x}"']) expect(first(w), w).toBe(true);
    for (const w of ["a{x}", "'a'{x}", "\\a{x}", '"a{x}"', '"\\a{x}"']) expect(first(w), w).toBe(false);
  });
});

describe("`((` is an arithmetic command exactly where a command starts", () => {
  // bash runs `(( … ))` as arithmetic after these words and operators: `((x = 5))` sets x in the
  // shell (read as nested subshells it would run a command named x). Each is [before, after].
  const STARTS: [string, string][] = [
    ["", ""], ["if ", "; then :; fi"], ["while ", "; do break; done"], ["until ", "; do :; done"], ["! ", ""], ["{ ", "; }"],
    [": ; ", ""], [": && ", ""], ["false || ", ""], ["true | ", ""], ["( ", " )"], [":\n", ""], ["if :; then ", "; fi"],
    ["if false; then :; elif ", "; then :; fi"], ["if false; then :; else ", "; fi"], ["while :; do ", "; break; done"], ["for ", ""],
  ];
  const arith = (script: string) => lex(script).recs.map((r) => r.reason ?? "");
  it.each(STARTS)("%j((…))%j", (before, after) => {
    expect(arith(`${before}((1 + {x}))${after}`)).toEqual(["inside (( )) arithmetic"]);
  });
  it.skipIf(!LIVE)("bash reads each as arithmetic (live)", () => {
    for (const [before, after] of STARTS) {
      // `for ((…))` is the arithmetic for loop: its three parts are arithmetic too.
      const body = before === "for " ? "((x = 5; x < 5; x++)); do :; done" : `((x = 5))${after}`;
      // A pipeline's commands run in subshells: there its exit status tells (0 when x = 5 ran).
      if (before === "true | ") expect(bash("true | ((x = 5)) && echo '[5]'"), before).toBe("[5]\n");
      const said = before === "true | " ? "[5]\n" : before === "( " ? bash(`${before}((x = 5)); echo "[$x]"${after}`) : bash(`${before}${body}; echo "[$x]"`);
      expect(said, JSON.stringify(before)).toBe("[5]\n");
    }
  });

  it("after a plain word, a quoted or expanding word, or a redirection, `((` is no arithmetic command", () => {
    // bash: `echo ((1))` and `a > ((1))` are syntax errors; the reader must not refuse only the inside.
    for (const script of ["echo ((1 + {x}))", "'if' ((1 + {x}))", "$a ((1 + {x}))", "a > ((1 + {x}))", "a < ((1 + {x}))"]) {
      const got = poison(script) ?? lex(script).recs.map((r) => r.reason ?? "full").join();
      expect(got, script).not.toBe("inside (( )) arithmetic");
    }
  });
  it.skipIf(!LIVE)("bash rejects those (live)", () => {
    for (const script of ["echo ((1))", "'if' ((1))", "$a ((1))", "a > ((1))"]) expect(spawnSync(BASH!, ["-n", "-c", script]).status, script).not.toBe(0);
  });

  it("the arithmetic span ends at its own `))`, nested parentheses included", () => {
    const { tokens, recs } = lex("((a * (b + {x}) )) && echo {y}");
    expect(shape(tokens)).toEqual(['op:"(("', 'op:"&&"', 'word:"echo"', "word:?"]);
    expect(recs.map((r) => r.reason ?? "read")).toEqual(["inside (( )) arithmetic", "read"]);
    expect(poison("((a ) b))")).toBe("an unbalanced arithmetic expression");
    expect(poison("((a (b)")).toBe("an unclosed arithmetic expression");
    expect(poison("(( a )")).toBe("an unbalanced arithmetic expression");
    expect(poison("echo $((1 + (2)")).toBe("an unclosed arithmetic expression");
  });
});

describe("constructs the reader stops on (bash reads them differently or rejects them)", () => {
  const STOPS: [string, string][] = [
    ["cat <<EOF\n{x}\nEOF", "a here-document"],
    ["cat <<-EOF\n{x}\nEOF", "a here-document"],
    ["case {x} in (a) echo ;; esac", "a case statement"],
    ["case a in (a) echo ;& (b) echo ;; esac", "a case statement"],
    ["case a in (a) echo ;;& esac", "a case statement"],
    ["case {x} in a) echo ;; esac", "an unbalanced )"],
    ["f() { echo {x}; }", "a ( right after a word or redirection (a function definition, array, glob qualifier, extglob or process substitution)"],
    ["cat <(echo {x})", "a ( right after a word or redirection (a function definition, array, glob qualifier, extglob or process substitution)"],
    ["echo a)", "an unbalanced )"],
    ["echo $(echo {x}", "an unclosed $("],
    ["echo 'a", "an unterminated single quote"],
    ['echo "a', "an unterminated double quote"],
    ['echo "a\\"', "an unterminated double quote"],
    ["echo `a", "an unclosed backquote"],
    ["echo `a\\`", "an unclosed backquote"],
    ["echo ${a", "an unclosed ${"],
    ["echo ${a\\}", "an unclosed ${"],
    ["echo $'a", "an unterminated $'"],
    ["echo $'a\\'", "an unterminated $'"],
    ["echo $a[1", "an unclosed [ ] subscript or $[ ] arithmetic"],
    ["echo $[1", "an unclosed [ ] subscript or $[ ] arithmetic"],
    ["echo $a['1']", "quotes inside a [ ] subscript or $[ ] arithmetic"],
    ["echo ${ echo {x}; }", "a ${ …; } command substitution"],
    ["echo ${|echo {x}; }", "a ${ …; } command substitution"],
    ["echo ${a:-'{x}'}", "quotes or a command inside ${…}"],
    ["echo ${a:-$(echo {x})}", "quotes or a command inside ${…}"],
  ];
  it.each(STOPS)("%j", (script, why) => expect(poison(script)).toBe(why));

  it.skipIf(!LIVE)("the unterminated ones are syntax errors to bash (live)", () => {
    for (const [script, why] of STOPS) {
      if (!/unterminated|unclosed|unbalanced/.test(why) || why.includes("[") || script.startsWith("case")) continue;
      expect(spawnSync(BASH!, ["-n", "-c", script.replace(/\{x\}/g, "x")]).status, script).not.toBe(0);
    }
  });

  it("a ( after a blank, an operator, a ( or a backquote opens a subshell", () => {
    for (const script of ["(echo {x})", "a; (echo {x})", "a && (echo {x})", "a\n(echo {x})", "a|(echo {x})", "( (echo {x}) )", "\t(echo {x})"]) {
      expect(poison(script), script).toBeNull();
    }
    expect(poison("echo `(echo {x})`")).toBeNull();
    expect(poison("a=(1 {x})")).toMatch(/^a \( right after a word/);
    expect(poison("a>(echo {x})")).toMatch(/^a \( right after a word/);
  });

  it(`brackets nested up to ${MAX_SCRIPT_NESTING} deep are read; deeper is refused before reading`, () => {
    const deep = (n: number) => `${"$(".repeat(n)}{x}${")".repeat(n)}`;
    expect(poison(deep(MAX_SCRIPT_NESTING))).toBeNull();
    expect(poison(deep(MAX_SCRIPT_NESTING + 1))).toBe(`brackets nested deeper than ${MAX_SCRIPT_NESTING} levels`);
    // Placeholders are skipped, and closing brackets never count below zero.
    expect(poison(`${")".repeat(10)}`)).toBe("an unbalanced )");
    expect(poison(`echo ${"}".repeat(5)} ${"{".repeat(MAX_SCRIPT_NESTING)}`)).toBeNull();
    expect(poison(`echo ${"}".repeat(5)} ${"{".repeat(MAX_SCRIPT_NESTING + 1)}`)).toMatch(/nested deeper/);
  });
});

describe("expansions: what is followed, and what refuses the placeholders inside", () => {
  const reasons = (script: string) => lex(script).recs.map((r) => r.reason ?? "read");

  it("arithmetic, $'…' and $\"…\" strings, backslashes before a placeholder", () => {
    expect(reasons("echo $((1 + {x})) {y}")).toEqual(["inside $(( )) arithmetic", "read"]);
    expect(reasons("echo $[1 + {x}] {y}")).toEqual(["inside bash's $[ ] arithmetic", "read"]);
    expect(reasons("echo $'a{x}\\'b' {y}")).toEqual(["inside a $'…' string", "read"]);
    expect(reasons('echo $"a{x}" {y}')).toEqual(['inside a $"…" string', "read"]);
    expect(reasons('echo "$"{x}')).toEqual(["read"]);
    expect(reasons("echo \\{x} \"\\{y}\" $ {x}")).toEqual(["right after a backslash", "right after a backslash", "read"]);
    expect(reasons('echo ${a}{y} "${a}{x}"')).toEqual(["read", "read"]);
  });

  it("a placeholder right after $ is refused, quoted or not", () => {
    // `$XYZ` with XYZ the placeholder: its value would continue the parameter's name.
    const lexer = new ShellLexer('echo a$XYZ "$XYZ"', [{ start: 7, end: 10 }, { start: 13, end: 16 }], () => {});
    lexer.list("top");
    expect(lexer.recs.map((r) => [r.quote, r.reason])).toEqual([["none", "right after '$'"], ["dq", "right after '$'"]]);
  });

  it("braced expansions: plain names followed, operators refuse, subscripts refuse", () => {
    expect(reasons("echo ${a}{x} ${#a} ${10}{x} ${@}{x} ${a:-{x}} ${a}[{x}]")).toEqual(["read", "read", "read", "inside a ${…} expansion with operators", "inside a [ ] subscript after a parameter, which zsh evaluates as arithmetic"]);
    expect(reasons("echo ${a/b/{x}}")).toEqual(["inside a ${…} expansion with operators"]);
    expect(reasons("echo ${a{x}}")).toEqual(["inside a ${…} expansion with operators"]);
    expect(reasons("echo ${!a}{x} ${?}{x}")).toEqual(["read", "read"]);
    expect(reasons("echo ${a_1}[{x}]")).toEqual(["inside a [ ] subscript after a parameter, which zsh evaluates as arithmetic"]);
    expect(reasons("echo ${ab}{x}")).toEqual(["read"]);
    expect(reasons("echo ${123}{x}")).toEqual(["read"]);
  });

  it("unbraced names: their subscripts refuse, `:` after them refuses the rest of the word", () => {
    expect(reasons("echo $a[{x}] $ab[1][{y}] {x}")).toEqual([
      "inside a [ ] subscript after a parameter, which zsh evaluates as arithmetic",
      "inside a [ ] subscript after a parameter, which zsh evaluates as arithmetic",
      "read",
    ]);
    expect(reasons("echo $a:{x} {y} $a-{x}")).toEqual(["after an unbraced $name followed by ':', which zsh reads as modifiers", "read", "read"]);
    expect(reasons("echo $a:h$(echo {x}) {y}")).toEqual(["after an unbraced $name followed by ':', which zsh reads as modifiers", "read"]);
    expect(reasons("echo $#a[{x}] $+a[{y}] $1[{x}] $@[{x}]")).toEqual(Array(4).fill("inside a [ ] subscript after a parameter, which zsh evaluates as arithmetic"));
    expect(reasons("echo $%[{x}]")).toEqual(["read"]);
    expect(reasons("echo $[[{x}]]")).toEqual(["inside bash's $[ ] arithmetic"]);
    expect(reasons("echo $a[[1]{x}]")).toEqual(["inside a [ ] subscript after a parameter, which zsh evaluates as arithmetic"]);
  });

  it("command substitutions: nested lists handed to the caller, depth and afterText recorded", () => {
    const { tokens, recs, nested } = lex("echo $(printf %s {x}) a$(echo {y}) \"b$(echo {x})\" `echo {y}`");
    expect(shape(tokens)).toEqual(['word:"echo"', "word:?", "word:?", "word:?", "word:?"]);
    expect(nested.map(shape)).toEqual([['word:"printf"', 'word:"%s"', "word:?"], ['word:"echo"', "word:?"], ['word:"echo"', "word:?"], ['word:"echo"', "word:?"]]);
    expect(recs.map((r) => [r.depth, r.afterText ?? false])).toEqual([[1, false], [1, true], [1, true], [1, false]]);
    expect(lex("echo $(echo $(echo {x}))").recs.map((r) => r.depth)).toEqual([2]);
    expect(lex("echo $(echo (a) {x})").recs.map((r) => r.depth)).toEqual([1]);
  });

  it("a backquoted command with a backslash is not read: its placeholders are refused", () => {
    const { recs, nested } = lex("echo `echo \\$a {x}` {y}");
    expect(nested).toEqual([]);
    expect(recs.map((r) => r.reason ?? "read")).toEqual(["inside a backquoted command that uses backslashes", "read"]);
    expect(lex("echo `echo {x}`{y} z").tokens.length).toBe(3);
  });

  it("a word of digits before a redirection is its file descriptor", () => {
    expect(shape(lex("echo 2>f 12<f 2 >f '2'>f a2>f").tokens)).toEqual([
      'word:"echo"', 'word:""', 'op:">"', 'word:"f"', 'word:""', 'op:"<"', 'word:"f"', 'word:"2"', 'op:">"', 'word:"f"', 'word:"2"', 'op:">"', 'word:"f"', 'word:"a2"', 'op:">"', 'word:"f"',
    ]);
  });
  it.skipIf(!LIVE)("bash: 2>f redirects fd 2; 2 >f and '2'>f pass 2 on (live)", () => {
    expect(bash(`d=$(mktemp -d) && cd "$d" && printf '%s|' 2>e a 2 >o '2'>p; cat p; cd /; rm -r "$d"`)).toBe("a|2|2|");
  });
});

describe("operators", () => {
  it("each operator is one token, longest first", () => {
    const ops = ["<<<", "&>>", "&&", "||", "|&", ">>", "<>", "<&", ">&", ">|", "&>", ";", "&", "|", "<", ">"];
    for (const op of ops) expect(shape(lex(`a ${op} b`).tokens), op).toEqual(['word:"a"', `op:${JSON.stringify(op)}`, 'word:"b"']);
    expect(shape(lex("a;b&c|d\ne").tokens)).toEqual(['word:"a"', 'op:";"', 'word:"b"', 'op:"&"', 'word:"c"', 'op:"|"', 'word:"d"', 'op:"\\n"', 'word:"e"']);
  });

  it("a placeholder right before an operator character is a word, not an operator", () => {
    const lexer = new ShellLexer("echo ;x", [{ start: 5, end: 7 }], () => {});
    expect(shape(lexer.list("top"))).toEqual(['word:"echo"', "word:?"]);
    const hash = new ShellLexer("echo #x", [{ start: 5, end: 7 }], () => {});
    expect(shape(hash.list("top"))).toEqual(['word:"echo"', "word:?"]);
    expect(hash.recs.map((r) => r.quote)).toEqual(["none"]);
  });
});

describe("what each reader records, at the edges", () => {
  it("a placeholder in a refused span, after a backslash or after $ does not start its word", () => {
    for (const script of ["echo $((1 + {x}))", "echo \\{x}", 'echo "\\{x}"', "echo $'{x}'", "echo ${a:-{x}}", "echo $a[{x}]"]) {
      const r = lex(script).recs[0]!;
      expect([r.atWordStart, r.role], script).toEqual([false, "refuse"]);
    }
    expect(lex("echo $((1 + {x}))").recs[0]!.quote).toBe("none");
    expect(lex('echo "\\{x}"').recs[0]!.quote).toBe("dq");
    expect(lex("echo \\{x}").recs[0]!.quote).toBe("none");
  });

  it('$"…" refuses only the placeholders inside it', () => {
    expect(lex('echo {x} $"a{y}" {x}').recs.map((r) => r.reason ?? "read")).toEqual(["read", 'inside a $"…" string', "read"]);
  });

  it("a single-quoted placeholder stays literal text of its word; an expansion in double quotes does not", () => {
    expect(words(lex("echo 'a{x}b'").tokens).map((w) => w.text)).toEqual(["echo", "a{x}b"]);
    expect(words(lex('echo "$a b" "`echo` c" "a"b').tokens).map((w) => w.text)).toEqual(["echo", null, null, "ab"]);
    const { recs, nested } = lex('echo "`echo {x}`"');
    expect([recs.map((r) => [r.depth, r.quote]), nested.map(shape)]).toEqual([[[1, "none"]], [['word:"echo"', "word:?"]]]);
  });

  it("a braced expansion ends at its own closing brace", () => {
    expect(lex("echo ${a:-{bc}{x}} {y}").recs.map((r) => r.reason ?? "read")).toEqual(["inside a ${…} expansion with operators", "read"]);
  });

  it("only backslashes inside the backquotes stop them from being read", () => {
    // bash: `echo \\`echo hi`` prints \hi; the backslashes before the backquote are outside it.
    expect(lex("echo \\\\`echo {x}`").recs.map((r) => r.reason ?? "read")).toEqual(["read"]);
    expect(lex("echo `echo {x}` \\a").recs.map((r) => r.reason ?? "read")).toEqual(["read"]);
    expect(poison("echo `echo 'a` b'")).toBe("an unterminated single quote");
  });

  it("a word of digits before a redirection, and only of digits", () => {
    expect(shape(lex("echo 2a>f").tokens)).toEqual(['word:"echo"', 'word:"2a"', 'op:">"', 'word:"f"']);
  });
});
