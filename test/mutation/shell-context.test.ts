// The shell reader and classifier (src/runtime/exec/shell-lexer.ts, shell-context.ts,
// data-commands.ts): the role of each placeholder — full (any value), inert, or refused — and its
// quoting, for every construct the reader follows or refuses.
import { describe, expect, it } from "vitest";
import { fileWriteOf, redirectWriteOf, stringFormat } from "../../src/runtime/exec/data-commands.js";
import { scriptStdinRole } from "../../src/runtime/exec/script-stdin.js";
import { carriedUses, classifyScript, unseenProgramIn } from "../../src/runtime/exec/shell-context.js";
import { programStdinRole } from "../../src/runtime/exec/stdin-program.js";
import { MAX_SCRIPT_NESTING } from "../../src/runtime/exec/shell-lexer.js";
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
    // A substitution's output is taken only quoted, where it takes any text and cannot start an option.
    expect(roles('cat $(printf %s {x}) "$(echo a{y})" a$(printf %s {x}) a"$(printf %s {y})"')).toEqual(["refuse/none", "refuse/none", "refuse/none", "full/none"]);
    expect(roles("cat -- $(printf %s {x})")).toEqual(["refuse/none"]);
    expect(roles('cat -- "$(printf %s {x})" "`printf %s {y}`"')).toEqual(["full/none", "full/none"]);
    // Brace expansion can drop the text before a value: `{,}{x}` makes the value start two words.
    expect(roles("cat {,}{x} a{b,}{y} {a}{x} x{y} a}{x} '{,}'{y} \\{,}{x} \"{,}\"{y}")).toEqual(["full!/none", "full!/none", "full!/none", "full/none", "full/none", "full/none", "full/none", "full/none"]);
    expect(roles('cat {,}"$(printf %s {x})" a"$(printf %s {y})"')).toEqual(["refuse/none", "full/none"]);
    for (const c of ["ls", "mkdir", "touch", "head", "tail", "wc", "sort", "uniq", "cut", "basename", "dirname", "realpath"]) {
      expect(roles(`${c} -- {x}`), c).toEqual(["full/none"]);
    }
    // A data command that writes into a file its arguments name: a value never reaches a file.
    for (const c of ["cp", "mv", "ln", "tee", "sort -o out", "uniq in"]) expect(roles(`${c} -- {x}`), c).toEqual(["refuse/none"]);
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
    expect(roles("cat < {x}; cat < a >> {y}")).toEqual(["full/none", "full/none"]);
    // A file a value names is stdin whose text no check bounds: a data reader takes it, and writes it nowhere.
    expect(roles("cat < {x} >> {y}")).toEqual(["refuse/none", "refuse/none"]);
    expect(roles("xargs nice < {x}; sh < {y}")).toEqual(["refuse/none", "refuse/none"]);
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
    expect(roles('echo -- a"$(echo {x})"')).toEqual(["full!/none"]);
    expect(roles("echo a\"`echo {x}`\"")).toEqual(["full!/none"]);
    expect(roles('cat -- a"$(python3 -c {x})"')).toEqual(["inert/none"]);
    // Unquoted, or where the output could start an option, the substitution is refused whatever holds the value.
    expect(roles('echo "$(echo {x})" `echo {y}` "$(python3 -c {x})"')).toEqual(["refuse/none", "refuse/none", "refuse/none"]);
  });
});

describe("inert positions", () => {
  it("other commands, assignments, for lists and what flows into them", () => {
    expect(roles("python3 -c {x}")).toEqual(["inert/none"]);
    expect(roles("[ {x} -gt 0 ]")).toEqual(["inert/none"]);
    expect(roles("test -v {x}")).toEqual(["inert/none"]);
    expect(roles("cd {x}")).toEqual(["inert/none"]);
    // An assignment's value is refused whatever the name: a program can read it from its environment.
    expect(roles("x={x}")).toEqual(["refuse/none"]);
    expect(roles("x+={x} cat")).toEqual(["refuse/none"]);
    expect(roles("x=$(echo {x})")).toEqual(["refuse/none"]);
    expect(roles("for i in a {x} b; do echo $i; done")).toEqual(["inert/none"]);
    expect(roles("for i in {x}\ndo echo; done")).toEqual(["inert/none"]);
    expect(roles("cmd $(cat {x})")).toEqual(["refuse/none"]);
    expect(reason("python3 -c 'import sys' {x}")).toBe("as an argument of python3, which is not one of rye's data commands");
    // A value naming the file an interpreter runs names its program: refused (unseen-programs.ts).
    expect(reason("python3 {x}")).toBe("`python3 …` runs python3 with its program in a file");
    expect(reason("x={x}")).toMatch(/^as an assignment's value, which a program can read from its environment/);
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
    expect(roles("echo $(echo $(echo {x}))")).toEqual(["refuse/none"]);
    expect(roles("echo $( (echo {x}) )")).toEqual(["refuse/none"]);
    expect(roles('echo a"$(echo a"$(echo {x})")"')).toEqual(["full!/none"]);
    expect(roles("echo \"$((1+2))\" {x}")).toEqual(["full!/none"]);
    expect(roles("echo ${x:-a} {y}")).toEqual(["full!/none"]);
    // What follows a subscript or modifier is outside it; `[` after a placeholder or literal is a glob.
    expect(roles("echo $a[1]{x} $a:h {y} ${a} [{x}] a[{y}] {x}[1] \"$a\"[{y}]")).toEqual(["full!/none", "full!/none", "full/none", "full/none", "full!/none", "full/none"]);
    expect(roles("echo $ {x} $[1] {y}; (echo {x}); a && (echo {y}) | (cat); echo `(echo {x})`")).toEqual(["full!/none", "full!/none", "full!/none", "full!/none", "refuse/none"]);
    expect(roles("echo $( (echo {x}) ) $((1)) ${a:-b}x {y}")).toEqual(["refuse/none", "full!/none"]);
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
    ["ab={x}", ["refuse/none"], "as an assignment's value, which a program can read from its environment as code or a file to load (PYTHONPATH, NODE_OPTIONS, PERL5OPT, PS4)"],
    ["ab[{x}]=1", ["refuse/none"], "in an array assignment, whose subscript is arithmetic"],
    ["x=$(echo {x})", ["refuse/none"], "as an assignment's value, which a program can read from its environment as code or a file to load (PYTHONPATH, NODE_OPTIONS, PERL5OPT, PS4) (through a command substitution)"],
    ["cat $(echo {x})", ["refuse/none"], 'inside a command substitution outside double quotes, whose output the shell splits into words of any shape; quote it ("$(…)") or pass the value as a whole argument'],
    ['cat "$(echo {x})"', ["refuse/none"], "inside a command substitution whose output may start an argument read for options; put `--` before it or text before the substitution"],
    ['echo > "$(echo {x})"', ["refuse/none"], "inside a command substitution whose output, of a shape no check of the value bounds, lands in a redirection's file name"],
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

// The script-level rule (shell-context.ts with unseen-programs.ts): a script that holds a value runs
// no program text the build did not see. Each command's verdict, the reading of nested shells'
// literal scripts, the `{tool_path}` exception and what voids it, and which placeholders it reaches.
const unseenNames = new Set(["x", "y", "tool_path"]);
const unseenClassify = (script: string, options = {}) => classifyScript(script, scriptPlaceholders(script, (n) => unseenNames.has(n)), options);
const reasons = (script: string, options = {}) => unseenClassify(script, options).map((r) => `${r.role}${r.unseen === true ? "*" : ""}: ${r.reason ?? ""}`);
const first = (script: string) => unseenClassify(script)[0]!;

describe("commands that run program text the build never sees", () => {
  const unseen: [string, string][] = [
    ["echo {x}; sh f", "`sh f` runs a shell that reads its program from a file or stdin"],
    ["echo {x}; sh < f", "`sh` runs a shell that reads its program from a file or stdin"],
    ["echo {x}; bash -O extglob -c 'true'", "`bash -O extglob -c true` runs a shell with options rye does not read"],
    ['echo {x}; sh -c "$v"', "`sh -c …` runs a shell whose -c script is built at run time"],
    ["echo {x}; . ./f", "`. ./f` reads a file as shell code"],
    ["echo {x}; source f", "`source f` reads a file as shell code"],
    ["echo {x}; ./f a", "`./f a` names its program by a path, which the script may have written"],
    ["echo {x}; /usr/bin/printf a", "`/usr/bin/printf a` names its program by a path, which the script may have written"],
    ["echo {x}; $r a", "`… a`, a command rye cannot follow (the program is not a literal word), may run any program"],
    ["echo {x}; env --bogus true", "`env --bogus true`, a command rye cannot follow (env: unknown option --bogus), may run any program"],
    ["echo {x}; builtin . f", "`builtin . f` reads a file as shell code"],
    ["echo {x}; builtin source f", "`builtin source f` reads a file as shell code"],
    ["echo {x}; zsh -c 'true'", "`zsh -c true` runs zsh, which first reads startup files such as ~/.zshenv"],
    ["echo {x}; bash -lc 'true'", "`bash -lc true` runs a login shell, which first reads startup files such as ~/.profile"],
    ["echo {x}; bash -e -l -c 'true'", "`bash -e -l -c true` runs a login shell, which first reads startup files such as ~/.profile"],
    ["echo {x}; bash --login -c 'true'", "`bash --login -c true` runs a login shell, which first reads startup files such as ~/.profile"],
    ["echo {x}; BASH_ENV=f bash -c 'true'", "`bash -c true` runs a shell with environment assignments, which can name startup files it reads first"],
    ["echo {x}; env ENV=f sh -c 'true'", "`env ENV=f sh -c true` runs a shell with environment assignments, which can name startup files it reads first"],
    ["echo {x}; python3 f.py", "`python3 f.py` runs python3 with its program in a file"],
    ["echo {x}; python3 -m m", "`python3 -m m` runs a module that is looked up at run time"],
    ["echo {x}; python3", "`python3` runs python3, which reads its program from stdin"],
    ["echo {x}; python3 -X", "`python3 -X` runs python3, which reads its program from stdin"],
    ["echo {x}; python3 -Q", "`python3 -Q` runs python3 with options rye cannot read"],
    ['echo {x}; python3 -c "$(cat f)"', "`python3 -c …` runs python3 with program text built at run time"],
    ["echo {x}; node -e", "`node -e` runs node with program text built at run time"],
    ['echo {x}; eval "$v"', "`eval …` evaluates text built at run time"],
    ["echo {x}; trap \"$v\" EXIT", "`trap … EXIT` evaluates text built at run time"],
    ["echo {x}; find . -exec sh {} ;", "`find . -exec sh {}`: find is no launcher rye knows, and it may run sh"],
    ["echo {x}; flock l perl f", "`flock l perl f`: flock is no launcher rye knows, and it may run perl"],
    ["echo {x}; w busybox sh", "`w busybox sh`: w is no launcher rye knows, and it may run busybox"],
    ["echo {x}; echo f | xargs sh", "`xargs sh` runs a shell that reads its program from a file or stdin"],
    ["echo {x}; timeout 5 env sh f", "`timeout 5 env sh f` runs a shell that reads its program from a file or stdin"],
    ["echo {x}; echo $(sh f)", "`sh f` runs a shell that reads its program from a file or stdin"],
    ["echo {x}; sh -c 'sh f'", "`sh f` runs a shell that reads its program from a file or stdin, inside a nested shell's -c script"],
    ["echo {x}; sh -c 'cat <<E'", "a script rye cannot read (a here-document), inside a nested shell's -c script"],
    [`echo {x}; ./${"x".repeat(80)}`, `\`./${"x".repeat(55)}...\` names its program by a path, which the script may have written`],
  ];
  for (const [script, why] of unseen) {
    it(JSON.stringify(script), () => {
      expect(first(script)).toMatchObject({ role: "refuse", unseen: true, reason: why });
      expect(unseenProgramIn(script)).toBe(why);
    });
  }

  it("commands the build sees leave the script alone", () => {
    for (const script of ["echo {x}; find . -name '*.txt'", "echo {x}; builtin echo .", "echo {x}; A=1 cat f; sh -c 'true'", "echo {x}; env -i sh -c 'true'", "echo {x}; sh -c 'echo l' -l", "echo {x}; sh -c 'echo hi'", "echo {x}; python3 -c 'print(1)'", "echo {x}; python3 -c {y}", "echo {x}; node -e 'x' a", "echo {x}; perl -e 1", "echo {x}; eval 'a=1'", "echo {x}; trap 'rm f' EXIT", "echo {x}; exec 2>&1", "echo {x}; env", "echo {x}; git log", "echo {x}; sh -c {y}"]) {
      expect(first(script).unseen, script).toBeUndefined();
      expect(first(script).role, script).toBe("full");
    }
    expect(unseenProgramIn("git log; sh -c 'echo hi'")).toBeNull();
  });

  it("the verdict reaches every placeholder but a comment's, and never hides a nearer refusal", () => {
    expect(reasons("cat {x}; sh f # {y}")).toEqual(["refuse*: `sh f` runs a shell that reads its program from a file or stdin", "undefined: "]);
    expect(reasons("let {x}; cd {y}; sh f")).toEqual(["refuse: as an argument of let, which reads it as code, a name or arithmetic", "refuse*: `sh f` runs a shell that reads its program from a file or stdin"]);
    expect(unseenClassify("sh f # {x}")[0]).toMatchObject({ quote: "comment" });
    expect(unseenClassify("sh f # {x}")[0]!.role).toBeUndefined();
  });

  it("nested shells' literal scripts are read at most MAX_SCRIPT_NESTING deep", () => {
    const nest = (n: number, inner: string) => {
      let s = inner;
      for (let k = 0; k < n; k++) s = `sh -c ${s.replace(/[ '\\]/g, (c) => `\\${c}`)}`;
      return s;
    };
    expect(nest(2, "true")).toBe("sh -c sh\\ -c\\ true");
    expect(unseenProgramIn(nest(3, "true"))).toBeNull();
    expect(unseenProgramIn(nest(3, "sh f"))).toMatch(/^`sh f` runs a shell that reads its program from a file or stdin, inside a nested shell's -c script/);
    expect(MAX_SCRIPT_NESTING).toBe(128);
  });
});

describe("the tool's own file", () => {
  it("runs as the program, or as a shell's or interpreter's file, bare or quoted", () => {
    for (const script of ["{tool_path} {x}", "python3 {tool_path} {x}", "python3 -u \"{tool_path}\" {x}", "sh '{tool_path}' {x}", "node {tool_path} {x} | head -n 1", "echo a | perl {tool_path} {x} > out.txt"]) {
      const recs = unseenClassify(script);
      expect(recs.filter((r) => r.unseen === true), script).toEqual([]);
    }
  });

  it("is no exception where it is not the whole word, not a parameter, or not the tool's", () => {
    for (const script of ["python3 {tool_path}x {x}", 'python3 "{tool_path}"x {x}', "python3 a{tool_path} {x}", 'python3 \\"{tool_path}\\" {x}']) {
      expect(unseenClassify(script)[1]!.reason, script).toBe("`python3 … …` runs python3 with its program in a file");
    }
    expect(unseenClassify("python3 $(echo {tool_path}) {x}")[1]!.reason).toBe("`python3 … …` runs python3 with options rye cannot read");
    expect(reasons("python3 {tool_path} {x}", { tool: () => false })[1]).toBe("refuse*: `python3 … …` runs python3 with its program in a file");
    const spans = scriptPlaceholders("python3 {tool_path} {x}", (n) => unseenNames.has(n)).map(({ start, end }) => ({ start, end }));
    expect(classifyScript("python3 {tool_path} {x}", spans)[1]).toMatchObject({ unseen: true });
    const env = scriptPlaceholders("python3 {tool_path} {x}", (n) => unseenNames.has(n)).map((p) => ({ ...p, system: "env" as const }));
    expect(classifyScript("python3 {tool_path} {x}", env)[1]).toMatchObject({ unseen: true });
  });

  it("holds only while nothing in the script could rewrite it first", () => {
    const voided = (script: string) => unseenClassify(script).find((r) => r.unseen === true)?.reason;
    expect(voided("echo {x} > {y}; python3 {tool_path}")).toBe("the tool's own file runs after an output redirection to a name built at run time, which could rewrite it");
    expect(voided('echo {x} >> "$0"; python3 {tool_path}')).toBe("the tool's own file runs after an output redirection to a name built at run time, which could rewrite it");
    expect(voided("echo {x} >| $f; python3 {tool_path}")).toBe("the tool's own file runs after an output redirection to a name built at run time, which could rewrite it");
    expect(voided("cp {x} t; python3 {tool_path}")).toBe("the tool's own file runs after `cp … t`, which could rewrite it");
    expect(voided("python3 {tool_path}; dd of=t")).toBe("the tool's own file runs after `dd of=t`, which could rewrite it");
    expect(voided(`python3 {tool_path}; sed -i ${"s".repeat(70)} {x}`)).toBe(`the tool's own file runs after \`sed -i ${"s".repeat(53)}\`, which could rewrite it`);
    // Reading commands, literal targets and input redirections leave it standing.
    for (const script of ["echo {x} > log; cat < {y}; python3 {tool_path}", "printf '%s' {x} | python3 {tool_path} 2>&1 | tail -n 2", "ls; wc; cut; basename a; dirname a; realpath a; readlink a; stat a; du; true; false; head; python3 {tool_path} {x}"]) {
      expect(voided(script), script).toBeUndefined();
    }
    // Without a value in the script there is nothing to refuse.
    expect(unseenProgramIn("cp a b; python3 {tool_path}")).toBe("the tool's own file runs after `cp a b`, which could rewrite it");
    expect(unseenProgramIn("cat a; python3 {tool_path}")).toBeNull();
  });
});

// "A value never reaches a file" (data-commands.ts fileWriteOf and redirectWriteOf, fileRoles here,
// pipe-roles.ts, script-stdin.ts): which commands write into a file, and the role each channel's value gets there.
const fclassify = (script: string) => classifyScript(script, scriptPlaceholders(script, (n) => n === "x" || n === "y"));
const froles = (script: string) => fclassify(script).map((r) => `${r.role}${r.file === true ? "/file" : ""}`);
const freason = (script: string) => fclassify(script)[0]!.reason;

describe("the writer table", () => {
  it("data commands that write no data, and those that always do", () => {
    for (const c of ["echo", "printf", "cat", "ls", "head", "tail", "wc", "cut", "basename", "dirname", "realpath", "readlink", "stat", "du", "true", "false", "mkdir", "touch", "rm", "rmdir"]) {
      expect(fileWriteOf(c, ["a", "b", null]), c).toBeNull();
    }
    expect(fileWriteOf("cp", ["a", "b"])).toBe("`cp a b` writes into a file its arguments name");
    expect(fileWriteOf("mv", [])).toBe("`mv` writes into a file its arguments name");
    expect(fileWriteOf("ln", [null, "b"])).toBe("`ln … b` writes into a file its arguments name");
    // A data command nobody classified is a writer: the table is an allowlist.
    expect(fileWriteOf("newcmd", ["a"])).toBe("`newcmd a` writes into a file its arguments name");
    expect(fileWriteOf("cp", ["x".repeat(80)])).toBe(`\`cp ${"x".repeat(57)}\` writes into a file its arguments name`);
  });

  it("tee writes into each operand but /dev/null", () => {
    expect(fileWriteOf("tee", [])).toBeNull();
    expect(fileWriteOf("tee", ["-a", "/dev/null"])).toBeNull();
    expect(fileWriteOf("tee", ["-a", "f"])).toBe("`tee -a f` writes its input into a file");
    expect(fileWriteOf("tee", [null])).toBe("`tee …` writes its input into a file");
    expect(fileWriteOf("tee", ["--", "-a"])).toBe("`tee -- -a` writes its input into a file");
    expect(fileWriteOf("tee", ["-"])).toBe("`tee -` writes its input into a file");
  });

  it("uniq writes into its second operand, options and their arguments aside", () => {
    expect(fileWriteOf("uniq", ["in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-f", "1", "in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-cf", "1", "in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-f1", "in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-fc", "in"])).toBeNull();
    expect(fileWriteOf("uniq", ["-c", "in", "out"])).toBe("`uniq -c in out` writes into its second operand");
    expect(fileWriteOf("uniq", ["-f1", "in", "out"])).toBe("`uniq -f1 in out` writes into its second operand");
    expect(fileWriteOf("uniq", ["--skip-fields=1", "in", "out"])).toBe("`uniq --skip-fields=1 in out` writes into its second operand");
    expect(fileWriteOf("uniq", ["-", "out"])).not.toBeNull();
    expect(fileWriteOf("uniq", ["--", "-in", "out"])).not.toBeNull();
  });

  it("sort is data only with options on its list: -o, --output, --compress-program, -y and unknown words make it unproven", () => {
    const unproven = (args: (string | null)[]) => expect(fileWriteOf("sort", args), JSON.stringify(args)).toMatch(/has an option rye does not list for sort/);
    for (const args of [["-o", "f"], ["-of"], ["-uo", "f"], ["-ruof"], ["--output=f"], ["--output", "f"], ["--out=f"], ["--o", "f"], [null], ["-n", null, "--", "a"]]) unproven(args);
    // One option reader: -T, -k, -t, -S take the next word, so a `--` there is their argument, not the end.
    for (const args of [["-T", "--", "-o", "f"], ["-k", "--", "-of"], ["-S", "1", "--compress-program=sh"], ["--compress-program", "sh"], ["--compress-prog=sh"], ["-yo"], ["--=x"], ["--files0-from=f"], ["-r", "in", "-o", "f"]]) unproven(args);
    for (const args of [["-k", "o"], ["-ko"], ["-to"], ["-To"], ["-So"], ["-r", "in"], ["--", "-o", "f"], ["-"], ["--reverse"], ["--", null], ["--"], [], ["-S", "1", "-T", "/tmp", "--parallel=2", "-nru"], ["--key", "2", "--field-separator=,"]]) {
      expect(fileWriteOf("sort", args), JSON.stringify(args)).toBeNull();
    }
  });

  it("every data command is data only with its listed options", () => {
    for (const [c, bad] of [["cat", "--foo"], ["head", "-x"], ["tail", "--pid2"], ["wc", "--files0-from=f"], ["cut", "-o"], ["ls", "--dired2"], ["du", "--files0-from=f"], ["stat", "--cached=x"], ["printf", "-v"], ["touch", "-x"], ["rm", "--no-preserve-root"], ["uniq", "-x"], ["tee", "-x"]]) {
      expect(fileWriteOf(c!, [bad!, "a"]), `${c} ${bad}`).toMatch(/has an option rye does not list/);
    }
    for (const [c, args] of [["head", ["-n", "5"]], ["head", ["-5"]], ["tail", ["-n", "+2"]], ["cut", ["-d", ",", "-f", "1"]], ["ls", ["-la"]], ["wc", ["-l"]], ["echo", ["-n", "-x"]], ["mkdir", ["-p", "a"]], ["du", ["-sh", "a"]]] as const) {
      expect(fileWriteOf(c, [...args]), `${c} ${args.join(" ")}`).toBeNull();
    }
  });

  it("a redirection writes a file unless it reads, duplicates stdin, stdout or stderr, closes, or goes to /dev/null", () => {
    for (const [op, target] of [["<", "f"], ["<<<", "x"], ["<&", "0"], ["<&", "-"], [">&", "1"], [">&", "2"], [">&", "-"], [">", "/dev/null"], [">>", "/dev/null"], ["&>", "/dev/null"]] as const) {
      expect(redirectWriteOf(op, target), `${op} ${target}`).toBeNull();
    }
    expect(redirectWriteOf(">", "f")).toBe("`> f` sends output into a file");
    expect(redirectWriteOf(">", null)).toBe("`> …` sends output into a file");
    for (const op of [">>", ">|", "<>", "&>", "&>>"]) expect(redirectWriteOf(op, "f"), op).not.toBeNull();
    // Any other descriptor may have been opened onto a file (eval 'exec 3>F', builtin exec, {fd}>F).
    for (const [op, target] of [[">&", "3"], [">&", "10"], [">&", "0"], ["<&", "3"], ["<&", "1"], ["<&", "f"], [">&", "f"], [">&", "2f"], [">&", null]] as const) {
      expect(redirectWriteOf(op, target), `${op} ${target}`).not.toBeNull();
    }
    expect(redirectWriteOf(">", "/dev/nullx")).not.toBeNull();
  });
});

describe("a command's own output", () => {
  it("a value in a command whose output goes into a file is refused, by the file rule", () => {
    expect(froles("echo {x} > f")).toEqual(["refuse/file"]);
    expect(freason("echo {x} > f")).toBe("`echo … > f` sends its output into a file");
    expect(freason("> f echo {x}")).toBe("`echo … > f` sends its output into a file");
    expect(froles("echo {x} 2> f; echo {y} >> f")).toEqual(["refuse/file", "refuse/file"]);
    expect(froles("echo {x} 1<> f")).toEqual(["refuse/file"]);
    expect(froles("echo {x} >&f")).toEqual(["refuse/file"]);
    expect(froles("cp -- {x} t")).toEqual(["refuse/file"]);
    expect(froles("printf %s \"$(echo {x})\" > f")).toEqual(["refuse/file"]);
    // The value names only the output file: the command writes its own text, rule 8 judges the name.
    expect(froles("echo hi > {x}; cat a >> {y}")).toEqual(["full", "full"]);
    // stdout, stderr, a duplicated descriptor, /dev/null: no file.
    expect(froles("echo {x} 2>&1 >/dev/null; echo {y} >&2")).toEqual(["full", "full"]);
    expect(froles("echo {x} 2>/dev/null")).toEqual(["full"]);
    // A writer with no value in it changes nothing.
    expect(froles("cp a b; echo {x}")).toEqual(["full"]);
  });

  it("a comment's placeholder carries nothing", () => {
    expect(fclassify("echo hi > f # {x}").map((r) => [r.quote, r.role, r.file])).toEqual([["comment", undefined, undefined]]);
  });

  it("a compound command's or exec's redirection into a file refuses every value of the script", () => {
    for (const s of ["{ echo a; } > f; echo {x}", "(echo {x}) > f", "for a in b; do echo {x}; done > f", "if true; then echo {x}; fi 2> f", "exec > f; echo {x}", "exec 3> f; echo {x}", "echo {x}; exec >> f"]) {
      expect(froles(s), s).toEqual(["refuse/file"]);
      expect(unseenProgramIn(s.replace("{x}", "a")), s).toMatch(/sends its output into a file of a compound command or exec, where any command may write a value that a later command runs$/);
    }
    expect(freason("(echo {x}) > f")).toBe("`> f` sends its output into a file for every command after it or inside it");
    expect(freason("exec > f; echo {x}")).toBe("`exec > f` sends its output into a file for every command after it or inside it");
    for (const s of ["{ echo a; } > /dev/null; echo {x}", "(echo {x}) 2>&1", "exec 2>&1; echo {x}", "exec 3<f; echo {x}"]) expect(froles(s), s).toEqual(["full"]);
    expect(unseenProgramIn("exec 2>&1; echo a")).toBeNull();
    // A position refused for its own reason keeps it.
    expect(froles("eval {x}; exec > f")).toEqual(["refuse"]);
    expect(freason("eval {x}; exec > f")).toMatch(/^as an argument of eval/);
  });

  it("a file a value names as stdin is taken only by a data reader", () => {
    expect(froles("cat < {x}; sort -- - < {y}")).toEqual(["full", "full"]);
    expect(froles("xargs nice < {x}")).toEqual(["refuse"]);
    expect(freason("xargs nice cat < {x}")).toBe("as the file name of an input redirection: the file's text, which no check of the value bounds, reaches the stdin of xargs, which makes it the arguments, options or program of the command it runs");
    expect(froles("grep a < {x}")).toEqual(["refuse"]);
    expect(froles("sh < {x}")).toEqual(["refuse"]);
    expect(froles("sh -c 'xargs nice' < {x}")).toEqual(["refuse"]);
    expect(froles("sh -c 'cat' < {x}")).toEqual(["full"]);
    expect(froles("cat 0< {x}")).toEqual(["full"]);
    // Written on: refused by the file rule, the output name too.
    expect(froles("cat < {x} > {y}")).toEqual(["refuse/file", "refuse/file"]);
    expect(froles("cat <> {x}")).toEqual(["full"]);
  });

  it("carried values take the same rule", () => {
    const uses = (s: string) => carriedUses(s, [], (n) => n === "1").map((r) => `${r.role}${r.file === true ? "/file" : ""}`);
    expect(uses('printf %s "$1" > f')).toEqual(["refuse/file"]);
    expect(uses('printf %s "$1" | tee f')).toEqual(["refuse/file"]);
    expect(uses('printf %s -- "$1" | cat')).toEqual(["full"]);
  });
});

describe("pipes and the script's stdin", () => {
  it("a pipe into a writer refuses what writes into it", () => {
    expect(froles("echo {x} | tee f")).toEqual(["refuse/file"]);
    expect(freason("echo {x} | tee f")).toBe("through a pipe, `tee f` writes its input into a file");
    expect(froles("echo {x} | cat > f")).toEqual(["refuse/file"]);
    expect(freason("echo {x} | cat > f")).toBe("through a pipe, `> f` sends output into a file");
    expect(froles("echo {x} | sort -o f; echo {y} | uniq - f")).toEqual(["refuse/file", "refuse/file"]);
    expect(froles("echo {x} | tee /dev/null 2>/dev/null >&2; echo {y} | cat | tee")).toEqual(["full", "full"]);
    expect(froles("echo {x} | cat | tee f")).toEqual(["refuse/file"]);
    expect(froles("echo {x} | xargs echo")).toEqual(["refuse"]);
    expect(froles("echo {x} | sh -c 'cat > f'")).toEqual(["refuse"]);
    expect(froles("echo {x} | sh -c 'cat'")).toEqual(["full"]);
  });

  it("xargs builds a command from its stdin", () => {
    for (const argv of [["xargs"], ["xargs", "nice"], ["xargs", "-0", "echo"], ["/usr/bin/xargs", "cat"], ["nice", "xargs", "cat"]]) {
      expect(programStdinRole(argv).role, argv.join(" ")).toBe("refuse");
    }
    expect(programStdinRole(["cat"]).role).toBe("full");
  });

  it("a command of the script that reads its stdin may not write it into a file", () => {
    for (const s of ["cat > f", "cat 1>f", "cat >>f", "cat >| f", "cat &>f", "tee f", "sort -o f", "cp /dev/stdin f", "{ cat; } > f", "while read -r l; do echo \"$l\"; done > f", "cat | tee f", "cat | cat > f", "read l; echo x | tee f", "cat > \"$d/f\""]) {
      const role = scriptStdinRole(s);
      expect(role.role, s).toBe("refuse");
      expect(role.reason, s).toMatch(/^stdin of a command whose output goes into a file \(.*\), which a later command could run, inside a -c script that hands it its own stdin$/);
    }
    for (const s of ["cat", "cat > /dev/null", "cat 2>&1", "cat >&2", "echo hi > f; cat", "cat < a > f", "tee", "tee /dev/null", "echo a | tee f", "sort", "cat | cat"]) expect(scriptStdinRole(s).role, s).toBe("full");
  });
});
