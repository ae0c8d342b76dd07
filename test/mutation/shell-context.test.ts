// The shell reader and classifier (src/runtime/exec/shell-lexer.ts, shell-context.ts,
// data-commands.ts): the role of each placeholder — full (any value), inert, or refused — and its
// quoting, for every construct the reader follows or refuses.
import { describe, expect, it } from "vitest";
import { stringFormat } from "../../src/runtime/exec/data-commands.js";
import { classifyScript } from "../../src/runtime/exec/shell-context.js";
import { scriptPlaceholders } from "../../src/runtime/exec/shell-script.js";

const names = new Set(["x", "y", "HOME"]);
const classify = (script: string) => classifyScript(script, scriptPlaceholders(script, (n) => names.has(n)));
/** `role/quote` of each placeholder, `!` marking a refused leading '-'. */
const roles = (script: string) => classify(script).map((r) => `${r.role}${r.noDash ? "!" : ""}/${r.quote}`);
const reason = (script: string) => classify(script)[0]!.reason;

describe("values any position takes: data commands and redirections", () => {
  it("data commands' arguments, quoted or not, with the leading-dash rule", () => {
    expect(roles("echo {x}")).toEqual(["full!/none"]);
    expect(roles("echo a{x} '{y}' \"{x}\"")).toEqual(["full/none", "full!/sq", "full!/dq"]);
    expect(roles("cat {x}")).toEqual(["full!/none"]);
    expect(roles("cat -- {x}")).toEqual(["full/none"]);
    expect(roles("echo -- {x}")).toEqual(["full!/none"]);
    expect(roles("rm -f -- {x} {y}")).toEqual(["full/none", "full/none"]);
    expect(roles("'cat' {x}")).toEqual(["full!/none"]);
    // Quotes do not stop a value from starting the word: "-n" is still an option.
    expect(roles('cat "{x}" \'{y}\' ""{x} \'\'"{y}"')).toEqual(["full!/dq", "full!/sq", "full!/none", "full!/dq"]);
    expect(roles('cat "a{x}" \'a\'{y} a"{x}" \\a{x}')).toEqual(["full/dq", "full/none", "full/dq", "full/none"]);
    // Expansions and values before it may be empty: the placeholder may still start the word.
    expect(roles('cat "$HOME"{y} $E"{x}" ${E}{y} $(true){x} `true`{y} {x}{y}')).toEqual(["full!/none", "full!/dq", "full!/none", "full!/none", "full!/none", "full!/none", "full!/none", "full!/none"]);
    expect(roles('cat $(printf %s {x}) "$(echo a{y})" a$(printf %s {x}) a"$(printf %s {y})"')).toEqual(["full!/none", "full!/none", "full/none", "full/none"]);
    expect(roles("cat -- $(printf %s {x})")).toEqual(["full/none"]);
    for (const c of ["ls", "mkdir", "touch", "cp", "mv", "head", "tail", "wc", "sort", "uniq", "cut", "basename", "dirname", "realpath", "tee"]) {
      expect(roles(`${c} -- {x}`), c).toEqual(["full/none"]);
    }
  });

  it("printf: data after a %s-only literal format, inert otherwise, refused with an option", () => {
    expect(roles("printf '%s\\n' {x}")).toEqual(["full/none"]);
    expect(roles("printf -- '<%-5s|%b|%c|%%>' {x}")).toEqual(["full/none"]);
    expect(roles("printf {x}")).toEqual(["inert/none"]);
    expect(roles("printf '%d' {x}")).toEqual(["inert/none"]);
    expect(roles("printf '%*s' 3 {x}")).toEqual(["inert/none"]);
    expect(roles('printf "$f" {x}')).toEqual(["inert/none"]);
    expect(roles("printf -v v {x}")).toEqual(["refuse/none"]);
    expect(roles("printf")).toEqual([]);
    expect(stringFormat("a%sb%5.2s%-s%%%b%c")).toBe(true);
    for (const f of ["%d", "%i", "%x", "%f", "%e", "%g", "%o", "%u", "%*s", "%.*s", "%q", "%", "a%"]) expect(stringFormat(f), f).toBe(false);
  });

  it("redirection targets", () => {
    expect(roles("echo hi > {x}")).toEqual(["full/none"]);
    expect(roles("cat < {x} >> {y}")).toEqual(["full/none", "full/none"]);
    expect(roles("echo hi >| {x}; cat <> {y}")).toEqual(["full/none", "full/none"]);
    expect(roles("echo hi 2> {x}")).toEqual(["full/none"]);
    expect(roles("echo hi >& {x}")).toEqual(["inert/none"]);
    expect(roles("cat <& {x}")).toEqual(["inert/none"]);
    expect(roles("echo hi &> {x}")).toEqual(["refuse/none"]);
    expect(roles("echo hi &>> {x}")).toEqual(["refuse/none"]);
    expect(roles("cat <<< {x}")).toEqual(["refuse/none"]);
    expect(roles("> {x} echo hi")).toEqual(["full/none"]);
  });

  it("command substitutions inside a data argument keep their own role", () => {
    expect(roles('echo "$(echo {x})"')).toEqual(["full!/none"]);
    expect(roles("echo `echo {x}`")).toEqual(["full!/none"]);
    expect(roles('echo "$(python3 -c {x})"')).toEqual(["inert/none"]);
  });
});

describe("inert positions", () => {
  it("other commands, assignments, for lists and what flows into them", () => {
    expect(roles("python3 -c {x}")).toEqual(["inert/none"]);
    expect(roles("[ {x} -gt 0 ]")).toEqual(["inert/none"]);
    expect(roles("test -v {x}")).toEqual(["inert/none"]);
    expect(roles("cd {x}")).toEqual(["inert/none"]);
    expect(roles("x={x}")).toEqual(["inert/none"]);
    expect(roles("x+={x} cat")).toEqual(["inert/none"]);
    expect(roles("x=$(echo {x})")).toEqual(["inert/none"]);
    expect(roles("for i in a {x} b; do echo $i; done")).toEqual(["inert/none"]);
    expect(roles("for i in {x}\ndo echo; done")).toEqual(["inert/none"]);
    expect(roles("cmd $(cat {x})")).toEqual(["inert/none"]);
    expect(reason("python3 -c 'import sys' {x}")).toBe("as an argument of python3, which is not one of rye's data commands");
    // A value naming the file an interpreter runs names its program: refused (unseen-programs.ts).
    expect(reason("python3 {x}")).toBe("`python3 …` runs python3 with its program in a file");
    expect(reason("x={x}")).toMatch(/^an assignment's value/);
    expect(reason("for i in {x}; do :; done")).toMatch(/^in the word list of a for loop/);
  });
});

describe("refused positions", () => {
  const refused: [string, RegExp][] = [
    ["{x}", /command-name position|cannot follow/],
    ["{x} arg", /cannot follow/],
    ["a{x} arg", /cannot follow/],
    ["nohup {x}", /cannot follow/],
    ["env {x}", /cannot follow/],
    ["timeout {x} cat", /cannot follow/],
    ["eval {x}", /argument of eval/],
    ["let {x}", /argument of let/],
    ["declare -i n={x}", /argument of declare/],
    ["typeset {x}", /argument of typeset/],
    ["local {x}", /argument of local/],
    ["export {x}", /argument of export/],
    ["readonly {x}", /argument of readonly/],
    ["read {x}", /argument of read/],
    ["unset {x}", /argument of unset/],
    ["trap {x} EXIT", /argument of trap/],
    ["source {x}", /argument of source/],
    [". {x}", /argument of \./],
    ["exit {x}", /argument of exit/],
    ["command -v {x}", /cannot follow/],
    ["exec {x}", /cannot follow/],
    ["exec cat {x} | sh -c {y}", /nested shell/],
    ["bash {x}", /cannot follow/],
    ["bash -c 'echo $1' {x}", /nested shell/],
    ["[[ {x} -gt 0 ]]", /inside \[\[ \]\]/],
    ["[[ a && {x} ]]", /inside \[\[ \]\]/],
    ["(( {x} ))", /inside \(\( \)\) arithmetic/],
    ["echo $(( {x} ))", /inside \$\(\( \)\) arithmetic/],
    ["echo $(( ({x}) ))", /arithmetic/],
    ["a[{x}]=1", /array assignment/],
    ["echo $'{x}'", /\$'…'/],
    ['echo $"{x}"', /\$"…"/],
    ["echo \\{x}", /backslash/],
    ['echo "\\{x}"', /backslash/],
    ["echo ${x}", /right after '\$'/],
    ['echo "${x}"', /right after '\$'/],
    ["echo ${#a} ${a:-${HOME}}", /with operators/],
    ["echo `echo \\`date\\` {x}`", /backquoted command that uses backslashes/],
    ["for {x} in a; do :; done", /variable name of a for loop/],
    // zsh subscripts and bash's $[ ]: arithmetic, wherever they stand.
    ["echo $[{x} + 1]", /\$\[ \] arithmetic/],
    ["echo \"$[ {x} ]\"", /\$\[ \] arithmetic/],
    ["echo $a[{x}]", /subscript/],
    ["echo \"$a[{x}]\"", /subscript/],
    ["echo $#a[{x}] $+a[1]", /subscript/],
    ["echo \"$#a[{x}]\"", /subscript/],
    ["echo $+a[{x}]", /subscript/],
    ["echo $^a[{x}] $=a[{y}] $~a[{x}]", /subscript/],
    ["echo ${a}[{x}]", /subscript/],
    ["echo $a[1][{x}]", /subscript/],
    ["echo ${#a}[{x}]", /subscript/],
    ["echo $1[{x}] $@[{x}]", /subscript/],
    ["cat f > /tmp/$a[{x}]", /subscript/],
    ["cat < $a[$(echo {x})]", /subscript/],
    ["echo $a[[{x}]]", /subscript/],
    ["echo $a:h{x}", /modifiers/],
    ["echo \"$a:s/b/{x}/\"", /modifiers/],
    ["echo $(echo $a:$(echo {x}))", /modifiers/],
  ];
  for (const [script, why] of refused) {
    it(`refuses ${JSON.stringify(script)}`, () => {
      const r = classify(script).find((c) => c.role !== "full" && c.role !== "inert");
      expect(r, script).toBeDefined();
      expect(r!.reason).toMatch(why);
    });
  }

  it("constructs that stop the reader refuse every placeholder of the script", () => {
    const whole: [string, string][] = [
      ["echo {x}\ncat <<E\nE", "here-document"],
      ["echo {x}; case a in a) ;; esac", "unbalanced )"],
      ["echo {x}; v=$(case a in a) echo; esac)", "case statement"],
      ["echo {x}; case a in a) echo; esac", "unbalanced )"],
      ["echo {x}; f() { :; }", "function definition"],
      ["echo {x}; function f { :; }", "function statement"],
      ["alias echo=eval; echo {x}", "alias"],
      ["hash -p /x cat; cat {x}", "hash"],
      ["echo {x} 'open", "unterminated single quote"],
      ['echo {x} "open', "unterminated double quote"],
      ["echo {x} $(open", "unclosed $("],
      ["echo {x} `open", "unclosed backquote"],
      ["echo {x} ${open", "unclosed ${"],
      ["echo {x} $((1", "unclosed arithmetic"],
      ["echo {x} $((1)", "arithmetic"],
      ["echo {x} $((1)))", "unbalanced )"],
      ["echo {x} )", "unbalanced )"],
      ["echo {x}; [[ a", "unclosed [["],
      ["echo {x}; select v in a; do :; done", "select statement"],
      ["echo {x}; coproc cat", "coproc statement"],
      ["echo {x} $[1", "unclosed [ ]"],
      ["echo {x} $a[1", "unclosed [ ]"],
      ["echo {x} $a['1']", "quotes inside a [ ]"],
      ["echo {x} \"$a[\"1\"]\"", "quotes inside a [ ]"],
      ["echo {x} $[a\\b]", "quotes inside a [ ]"],
      ["echo {x} $a[\n]", "quotes inside a [ ]"],
      ["echo {x} ${ echo; }", "${ …; } command"],
      ["echo {x} ${|REPLY=1;}", "${ …; } command"],
      ["echo {x} ${\techo; }", "${ …; } command"],
      ["echo {x} ${a:-\"}\"}", "quotes or a command inside ${…}"],
      ["echo {x} ${a:-'b'}", "quotes or a command inside ${…}"],
      ["echo {x} ${a:-`b`}", "quotes or a command inside ${…}"],
      ["echo {x} ${a:-\\}}", "quotes or a command inside ${…}"],
      ["echo {x} ${a:-$(b)}", "quotes or a command inside ${…}"],
      ["cat <(echo {x})", "process substitution"],
      ["cat >(echo {x})", "process substitution"],
      ["cat =(echo {x})", "process substitution"],
      ["echo *(e:'touch m':) {x}", "glob qualifier"],
      ["echo {x}(N)", "glob qualifier"],
      ["a=(1 {x})", "array"],
      ["echo @(a|b) {x}", "extglob"],
    ];
    for (const [script, what] of whole) {
      const rs = classify(script);
      expect(rs.length, script).toBeGreaterThan(0);
      for (const r of rs) {
        expect(r.role, script).toBe("refuse");
        expect(r.reason, script).toContain(what);
      }
    }
  });
});

describe("what the reader follows", () => {
  it("comments, reserved words, lists, subshells and groups", () => {
    expect(roles("echo hi # {x}\necho {y}")).toEqual(["undefined/comment", "full!/none"]);
    expect(roles("echo a#{x}")).toEqual(["full/none"]);
    expect(roles("if true; then echo {x}; elif false; then cat {y}; else :; fi")).toEqual(["full!/none", "full!/none"]);
    expect(roles("while false; do echo {x}; done; until true; do echo {y}; done")).toEqual(["full!/none", "full!/none"]);
    expect(roles("! echo {x} && { echo a; } || (echo {x}); echo {y}")).toEqual(["full!/none", "full!/none", "full!/none"]);
    expect(roles("echo {x} | cat & echo {y} |& cat")).toEqual(["full!/none", "full!/none"]);
    expect(roles("(( 1 )) && echo {x}")).toEqual(["full!/none"]);
    expect(roles("[[ -n a ]] && echo {x}")).toEqual(["full!/none"]);
    expect(roles("echo \\\n{x}")).toEqual(["full!/none"]);
    expect(roles("echo a\\\n{x}")).toEqual(["full/none"]);
    expect(roles("A=1 B=2 cat {x}")).toEqual(["full!/none"]);
    expect(roles("echo $HOME ${HOME} ${#x} $1 $@ ${10} {x}")).toEqual(["full!/none", "full!/none"]);
    expect(roles("echo a${HOME} {x}")).toEqual(["full/none", "full!/none"]);
    expect(roles('echo "a\\"b\\$c\\\\" {x}')).toEqual(["full!/none"]);
    expect(roles("x=$(echo a); echo {x}")).toEqual(["full!/none"]);
    expect(roles("echo $(echo $(echo {x}))")).toEqual(["full!/none"]);
    expect(roles("echo $( (echo {x}) )")).toEqual(["full!/none"]);
    expect(roles("echo \"$((1+2))\" {x}")).toEqual(["full!/none"]);
    expect(roles("echo ${x:-a} {y}")).toEqual(["full!/none"]);
    // What follows a subscript or modifier is outside it; `[` after a placeholder or literal is a glob.
    expect(roles("echo $a[1]{x} $a:h {y} ${a} [{x}] a[{y}] {x}[1] \"$a\"[{y}]")).toEqual(["full!/none", "full!/none", "full/none", "full/none", "full!/none", "full/none"]);
    expect(roles("echo $ {x} $[1] {y}; (echo {x}); a && (echo {y}) | (cat); echo `(echo {x})`")).toEqual(["full!/none", "full!/none", "full!/none", "full!/none", "full!/none"]);
    expect(roles("echo $( (echo {x}) ) $((1)) ${a:-b}x {y}")).toEqual(["full!/none", "full!/none"]);
  });

  it("launchers inside the script lead to the command they run", () => {
    expect(roles("timeout 5 cat -- {x}")).toEqual(["full/none"]);
    expect(roles("env -i A=b nice -n 3 echo {x}")).toEqual(["full!/none"]);
    expect(roles("command printf '%s' {x}")).toEqual(["full/none"]);
    expect(roles("exec -a n cat -- {x}")).toEqual(["full/none"]);
    expect(roles("busybox echo {x}")).toEqual(["full!/none"]);
    expect(roles("timeout 5 python3 -c 'print(1)' {x}")).toEqual(["inert/none"]);
    expect(reason("timeout 5 python3 {x}")).toBe("`timeout 5 python3 …` runs python3 with its program in a file");
  });

  it("the earlier refusal of a nested placeholder wins over a weaker outer role", () => {
    expect(roles("echo $(let {x})")).toEqual(["refuse/none"]);
    expect(roles("x=$(let {x})")).toEqual(["refuse/none"]);
    expect(roles("let $(echo {x})")).toEqual(["refuse/none"]);
    expect(reason("let $(echo {x})")).toMatch(/through a command substitution/);
  });
});

describe("exact roles and reasons", () => {
  const exact: [string, string[], string | undefined][] = [
    ["a{x} arg", ["refuse/none"], "in a command rye cannot follow (the program is not a literal word)"],
    ["1a={x}", ["refuse/none"], "in a command rye cannot follow (the program is not a literal word)"],
    ["ab={x}", ["inert/none"], "an assignment's value (the variable could later be read as arithmetic or a name)"],
    ["ab[{x}]=1", ["refuse/none"], "in an array assignment, whose subscript is arithmetic"],
    ["x=$(echo {x})", ["inert/none"], "an assignment's value (the variable could later be read as arithmetic or a name) (through a command substitution)"],
    ["printf -v v {x}", ["refuse/none"], "as an argument of printf with an option such as -v, which names a variable"],
    ["printf -- {x} a", ["inert/none"], "as an argument of printf, which is not one of rye's data commands"],
    ["echo hi >& {x}", ["inert/none"], "the target of a file-descriptor redirection"],
    ["cat <& {x}", ["inert/none"], "the target of a file-descriptor redirection"],
    ["echo hi &> {x}", ["refuse/none"], "after &>, which shells read differently"],
    ["echo hi &>> {x}", ["refuse/none"], "after &>>, which shells read differently"],
    ["cat <<< {x}", ["refuse/none"], "in a here-string"],
    ["echo {x} (b)", ["refuse/none"], "in a script with a function definition or array assignment, which rye does not read"],
    ["echo {x}; esac", ["refuse/none"], "in a script with a esac statement, which rye does not read"],
    ["for i do echo {x}; done", ["full!/none"], undefined],
    ["for i in a; do echo {x}; done", ["full!/none"], undefined],
    ["for {x} in a; do :; done", ["refuse/none"], "as the variable name of a for loop"],
    ["[[ {x} ]]", ["refuse/none"], "inside [[ ]], which evaluates operands as arithmetic"],
    ["bash -c 'echo $1' {x}", ["refuse/none"], "as an argument of a nested shell (bash)"],
    ["'for' {x}", ["inert/none"], "as an argument of for, which is not one of rye's data commands"],
    ["2>/dev/null echo {x}", ["full!/none"], undefined],
    ["echo a & let {x}", ["refuse/none"], "as an argument of let, which reads it as code, a name or arithmetic"],
    ["echo a |& let {x}", ["refuse/none"], "as an argument of let, which reads it as code, a name or arithmetic"],
    ["echo a\nlet {x}", ["refuse/none"], "as an argument of let, which reads it as code, a name or arithmetic"],
    // Reserved words count only in command position.
    ["echo case {x}", ["full!/none"], undefined],
    ["echo for {x}", ["full!/none"], undefined],
    ["echo [[ {x}", ["full!/none"], undefined],
    ["printf if {x}", ["full/none"], undefined],
    ["for i a {x}", ["inert/none"], "in the word list of a for loop (the loop variable could later be read as arithmetic or a name)"],
    ["for i in a do {x}", ["inert/none"], "in the word list of a for loop (the loop variable could later be read as arithmetic or a name)"],
  ];
  for (const [script, role, why] of exact) {
    it(JSON.stringify(script), () => {
      expect(roles(script)).toEqual(role);
      expect(reason(script)).toBe(why);
    });
  }

  it("a reserved word is skipped: the command after it is read", () => {
    for (const w of ["if", "then", "elif", "else", "while", "until", "do", "!"]) expect(roles(`${w} let {x}`), w).toEqual(["refuse/none"]);
    for (const w of ["if", "then", "elif", "else", "while", "until", "do", "!"]) expect(roles(`${w} echo {x}`), w).toEqual(["full!/none"]);
    for (const w of ["fi", "done", "}"]) expect(roles(`${w} echo {x}`), w).toEqual(["full!/none"]);
  });

  it("a script rye does not read refuses each placeholder with the whole record", () => {
    expect(classify("echo {x} <<E\nE")).toEqual([{ index: 0, quote: "none", role: "refuse", reason: "in a script with a here-document, which rye does not read", atWordStart: false, depth: 0 }]);
  });
});

describe("any text at all", () => {
  it("never throws and gives every placeholder a role and a reason unless it takes any value (property)", async () => {
    const fc = (await import("fast-check")).default;
    const piece = fc.constantFrom(
      "{x}", "{y}", "${HOME}", " ", "\n", ";", "&", "|", "&&", "(", ")", "((", "))", "$(", "`", "'", '"', "\\", "$", "{", "}", "[[", "]]",
      "<", ">", "<<", "<<<", ">&", "#", "=", "a=", "a[", "echo", "cat", "printf", "'%s'", "let", "for", "in", "do", "done", "if", "then", "fi",
      "case", "esac", "env", "-i", "timeout", "5", "sh", "-c", "--", "-n", "$'", "${", "${#", ":-", "x",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const script = pieces.join("");
        const placeholders = scriptPlaceholders(script, (n) => names.has(n));
        const recs = classifyScript(script, placeholders);
        expect(recs.length).toBe(placeholders.length);
        recs.forEach((r, i) => {
          expect(r.index).toBe(i);
          if (r.quote === "comment") return;
          expect(["full", "inert", "refuse"]).toContain(r.role);
          if (r.role !== "full") expect(typeof r.reason).toBe("string");
        });
      }),
      { numRuns: 3000 },
    );
  });
});
