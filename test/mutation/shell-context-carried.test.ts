// The roles shell-context.ts gives the expansions of variables that carry a caller's value ("$1",
// "$@", a variable `read` fills), and the command-substitution rule. A carried value is checked by
// nothing, so a use of one is data only where any text is data: a string or file test's counted
// operand, a data command's argument that cannot start an option, an operand a program's grammar
// reads as data; a substitution's output only inside double quotes, in a full-role word.
import { describe, expect, it } from "vitest";
import { carriedUses, classifyScript, unseenProgramIn } from "../../src/runtime/exec/shell-context.js";
import { scriptPlaceholders } from "../../src/runtime/exec/shell-script.js";

const CARRIED = new Set(["1", "@", "*", "line"]);
const place = (script: string) => scriptPlaceholders(script, (n) => /^[A-Za-z_]+$/.test(n));
const uses = (script: string) => carriedUses(script, place(script), (n) => CARRIED.has(n));
const shape = (r: { role?: string; noDash?: boolean; target?: boolean; dashData?: boolean }) => `${r.role}${r.noDash ? "!" : ""}${r.target ? " target" : ""}${r.dashData ? " dash" : ""}`;
const roles = (script: string) => uses(script).map(shape);
const reasons = (script: string) => uses(script).map((r) => r.reason);
const placeholderRoles = (script: string) => classifyScript(script, place(script)).map(shape);
const notData = (name: string) => `as an argument of ${name}, which is not one of rye's data commands`;

describe("[ and test: an operand counted next to a literal operator is one string or one file", () => {
  it.each(["=", "==", "!="])("both operands of the string comparison %s take any text", (op) => {
    expect(roles(`[ "$1" ${op} x ]`)).toEqual(["full"]);
    expect(roles(`[ x ${op} "$1" ]`)).toEqual(["full"]);
    expect(roles(`test "$1" ${op} x`)).toEqual(["full"]);
    expect(roles(`[ ! "$1" ${op} x ]`)).toEqual(["full"]);
  });

  it.each(["-n", "-z", "-e", "-f", "-d", "-r", "-w", "-x", "-s", "-L", "-h", "-p", "-S", "-b", "-c"])("the operand of the file or string test %s takes any text", (op) => {
    expect(roles(`[ ${op} "$1" ]`)).toEqual(["full"]);
    expect(roles(`test ${op} "$1"`)).toEqual(["full"]);
    expect(roles(`[ ! ${op} "$1" ]`)).toEqual(["full"]);
  });

  it("a placeholder counted as an operand takes any value too", () => {
    expect(placeholderRoles("[ {x} = a ]")).toEqual(["full"]);
    expect(placeholderRoles("[ -n {x} ]")).toEqual(["full"]);
  });

  it("test has no closing bracket: a last `]` is an operand, and an unclosed [ still counts its words", () => {
    expect(roles(`test "$1" = ]`)).toEqual(["full"]);
    expect(roles(`[ -n "$1"`)).toEqual(["full"]);
    expect(roles(`[ "$1" = x`)).toEqual(["full"]);
  });

  it("any other shape keeps the inert role of an argument of [ (its count could make an operator)", () => {
    for (const s of [`[ -t "$1" ]`, `[ "$1" -o x ]`, `[ "$1" ]`, `[ "$1" = x y ]`, `[ -n "$1" x ]`, `[ "$1" -n ]`, `[ -o "$1" ]`]) {
      expect(reasons(s), s).toEqual([notData("[")]);
    }
    expect(reasons(`test -t "$1"`)).toEqual([notData("test")]);
  });

  it("a word that may expand to several words (\"$@\", \"$*\") is never counted as one operand", () => {
    expect(reasons(`[ "$@" = x ]`)).toEqual([notData("[")]);
    expect(reasons(`[ "$*" = x ]`)).toEqual([notData("[")]);
    expect(reasons(`[ -n "$@" ]`)).toEqual([notData("[")]);
    expect(roles(`[ "$1" = "$@" ]`)).toEqual(["full", "inert"]);
    expect(reasons(`[ "$1$@" = x ]`)).toEqual([notData("["), notData("[")]);
  });

  it("a [ with no words after it is read without failing", () => {
    expect(roles(`[; echo "$1"`)).toEqual(["full! dash"]);
  });

  it("a [ rye cannot follow refuses its operands", () => {
    expect(reasons(`timeout --foo [ -n "$1" ]`)).toEqual(["in a command rye cannot follow (timeout: unknown option --foo)"]);
  });
});

describe("a whole double-quoted expansion as an operand a program's grammar reads as data", () => {
  it.each([`python3 {tool_path} "$1"`, `python3 "{tool_path}" "$1"`, `python3 '{tool_path}' "$1"`, `python3 {tool_path} "\${1}"`, `python3 {tool_path} "$@"`, `python3 {tool_path} x "$1"`])("%s: full", (s) => {
    expect(roles(s)).toEqual(["full"]);
  });

  it("not a whole quoted expansion: split outside quotes, or text beside it", () => {
    expect(reasons(`python3 {tool_path} $1`)).toEqual(["outside double quotes, where the shell splits it into words and expands them as file patterns"]);
    expect(reasons(`python3 {tool_path} "x$1"`)).toEqual([notData("python3")]);
    expect(reasons(`python3 {tool_path} "$1"x`)).toEqual([notData("python3")]);
  });

  it("a program whose grammar rye does not know keeps the inert role", () => {
    expect(reasons(`foo "$1"`)).toEqual([notData("foo")]);
    expect(reasons(`foo -- "$1"`)).toEqual([notData("foo")]);
  });

  it("a nested shell's operands stay refused: the value is a positional parameter of a script read apart", () => {
    expect(reasons(`sh -c 'printf %s "$1"' sh "$1"`)).toEqual(["as an argument of a nested shell (sh)"]);
  });

  it("the same operand as a placeholder is judged by the argv rule, not here", () => {
    expect(placeholderRoles(`python3 {tool_path} "$1"`)).toEqual(["inert"]);
  });
});

describe("data commands: -- ends the options unless it is an option's argument", () => {
  it("after --, an argument cannot start an option", () => {
    expect(roles(`cat -- "$1"`)).toEqual(["full"]);
    expect(roles(`cat -n -- "$1"`)).toEqual(["full"]);
    expect(roles(`sort -T x -- "$1"`)).toEqual(["full"]);
    expect(roles(`sort -- -- "$1"`)).toEqual(["full"]);
  });
  it("a -- that is the argument of sort -T ends nothing: the value stands where sort reads an option, and a run-time word there is refused (it could be --compress-program=sh)", () => {
    expect(roles(`sort -T -- "$1"`)).toEqual(["refuse"]);
    expect(roles(`cat "$1"`)).toEqual(["full!"]);
  });
  it("echo reads no option that takes code: a leading - is data there", () => {
    expect(roles(`echo "$1"`)).toEqual(["full! dash"]);
    expect(roles(`echo -- "$1"`)).toEqual(["full! dash"]);
  });
  it("a redirection's file name is marked as one; other words are not", () => {
    expect(roles(`cat < "$1"`)).toEqual(["full target"]);
    expect(roles(`cat > "$1"`)).toEqual(["full target"]);
    expect(roles(`cat -- "$1" < x`)).toEqual(["full"]);
  });
});

describe("pipes: data piped into a program that is not a data command is only inert", () => {
  it.each(["|", "|&"])("%s into sed", (op) => {
    expect(reasons(`printf '%s' "$1" ${op} sed p`)).toEqual(["in output piped into the stdin of sed, which is not one of rye's data commands"]);
  });
  it("into cat the value stays data", () => {
    expect(roles(`printf '%s' "$1" | cat`)).toEqual(["full"]);
    expect(roles(`printf '%s' "$1"; sed p`)).toEqual(["full"]);
  });
});

describe("a value inside a command substitution", () => {
  const SUB = (word: string) => `"$(printf %s "$1")"`.replace(/^/, word);
  it("is taken inside double quotes, in a full word that cannot start an option", () => {
    expect(roles(`cat -- ${SUB("")}`)).toEqual(["full"]);
    expect(roles(`cat -- x${SUB("")}`)).toEqual(["full"]);
    expect(roles(`cat x${SUB("")}`)).toEqual(["full"]);
  });
  it("is refused where the word may start an option", () => {
    expect(reasons(`cat ${SUB("")}`)).toEqual(["inside a command substitution whose output may start an argument read for options; put `--` before it or text before the substitution"]);
  });
  it("is refused outside double quotes", () => {
    expect(reasons(`cat -- $(printf %s "$1")`)).toEqual(["inside a command substitution outside double quotes, whose output the shell splits into words of any shape; quote it (\"$(…)\") or pass the value as a whole argument"]);
  });
  it("is refused in a redirection's file name and where only inert text is taken", () => {
    expect(reasons(`cat < ${SUB("")}`)).toEqual(["inside a command substitution whose output, of a shape no check of the value bounds, lands in a redirection's file name"]);
    expect(reasons(`foo ${SUB("")}`)).toEqual(["inside a command substitution whose output, of a shape no check of the value bounds, lands where only inert text is taken"]);
  });
  it("keeps the reason of a word that is refused for its own position", () => {
    expect(reasons(`eval ${SUB("")}`)).toEqual(["as an argument of eval, which reads it as code, a name or arithmetic (through a command substitution)"]);
  });
});

describe("scripts rye cannot read, and uses of no carried variable", () => {
  it("a script with no carrying variable has no uses", () => {
    expect(uses(`echo hi`)).toEqual([]);
    expect(uses(`echo "$2" "$HOME"`)).toEqual([]);
  });
  it("an unreadable script yields one refused use when it names a carrying variable", () => {
    const reason = "in a script with an unbalanced ), which rye does not read";
    expect(uses(`case "$2" in x) printf '%s' "$1" ;; esac`)).toEqual([
      { index: -1, quote: "none", role: "refuse", reason, atWordStart: false, depth: 0, use: { name: "1", text: "$1" } },
    ]);
    expect(uses(`case "$2" in x) ;; esac`)).toEqual([]);
  });
  it("a fault that is not the script's (here the tool test throws) is not turned into a refusal", () => {
    const boom = () => {
      throw new Error("boom");
    };
    expect(() => classifyScript("echo {x}", place("echo {x}"), { tool: boom })).toThrow("boom");
  });
});

describe("unseenProgramIn: {name} with a name of letters, digits or _ is a value", () => {
  it("a value as the program is a program the build did not see", () => {
    for (const s of [`{ab} x`, `{1} x`, `{é} x`, `{a1} x`]) expect(unseenProgramIn(s), s).toContain("may run any program");
  });
  it("braces around anything else are literal text: a literal program", () => {
    for (const s of [`{a-b} x`, `{-a} x`, `{a-} x`, `{a.b} x`]) expect(unseenProgramIn(s), s).toBeNull();
  });
});
