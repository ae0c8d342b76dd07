import { describe, expect, it } from "vitest";
import { carriedBy, carriedRefusal, stdinNames } from "../../src/runtime/exec/carried-values.js";

// The carried-value rule as a pure function: which expansions of "$1" or a read variable count as
// data, and the reason each refused one gives.
const arg = (script: string) => carriedRefusal(script, { positional: [1], stdin: false });
const stdin = (script: string) => carriedRefusal(script, { positional: [], stdin: true });

describe("forms: only a double-quoted plain expansion is data", () => {
  it.each([`printf '%s' "$1"`, `printf '%s' "\${1}"`, `printf '%s' "x$1y"`, `cat -- "$@"`, `echo "$1"`, `echo $# "$1"`])("%s is accepted", (s) => {
    expect(arg(s)).toBeNull();
  });
  it.each([
    [`printf '%s' $1`, "outside double quotes"],
    [`printf '%s' "\${1@P}"`, "expansion form"],
    [`printf '%s' "\${#1}"`, "expansion form"],
    [`printf '%s' "\${1:-x}"`, "expansion form"],
    [`printf '%s' $~1`, "expansion form"],
    [`printf '%s' "$1[2]"`, "expansion form"],
    [`printf '%s' "$1:h"`, "expansion form"],
    [`echo $(( $1 + 1 ))`, "arithmetic"],
    [`case "$1" in x) ;; esac`, "which rye does not read"],
  ])("%s is refused (%s)", (s, why) => {
    expect(arg(s)?.why).toContain(why);
  });
});

describe("positions: only where any text is data", () => {
  it.each([`[ "$1" = x ]`, `test -n "$1"`, `[ ! "$1" != x ]`, `printf '<%s>' "$1"`, `cat -- "$1"`, `python3 {tool_path} "$1"`])("%s is accepted", (s) => {
    expect(arg(s)).toBeNull();
  });
  it.each([
    [`sed -e "$1"`, "argument of sed"],
    [`awk "$1"`, "argument of awk"],
    [`git -c "$1" status`, "argument of git"],
    [`X="$1" env`, "assignment's value"],
    [`export X="$1"`, "argument of export"],
    [`cat "$1"`, "start an argument read for options"],
    [`cat < "$1"`, "redirection's file name"],
    [`[ "$@" = x ]`, "argument of ["],
    [`[ "$1" -o x ]`, "argument of ["],
    [`printf "$1"`, "argument of printf"],
    [`printf '%s' "$1" | sed p`, "piped into"],
  ])("%s is refused (%s)", (s, why) => {
    expect(arg(s)?.why).toContain(why);
  });
});

describe("carriers", () => {
  it("stdin fills the names read, mapfile, readarray and vared take, and the defaults", () => {
    expect([...stdinNames(`IFS= read -r a b; mapfile -t arr; x=1`)].sort()).toEqual(["MAPFILE", "REPLY", "a", "arr", "b"]);
    expect(stdin(`read -r line; sed -e "$line"`)?.text).toBe("$line");
    expect(stdin(`read -r line; printf '%s' "$line"`)).toBeNull();
    expect(stdin(`read; sed -e "$REPLY"`)?.text).toBe("$REPLY");
  });
  it("positional parameters carry one by one until the script moves them", () => {
    const c = carriedBy(`printf x`, { positional: [2], stdin: false });
    expect([c("1"), c("2"), c("@"), c("*"), c("_"), c("argv"), c("OPTARG"), c("x")]).toEqual([false, true, true, true, true, true, true, false]);
    expect(carriedBy(`shift; printf x`, { positional: [2], stdin: false })("1")).toBe(true);
    expect(carriedBy(`printf x`, { positional: [], stdin: false })("@")).toBe(false);
    expect(carriedBy(`for f; do :; done`, { positional: [], stdin: true })("f")).toBe(true);
  });
  it("no channel, no judgement", () => {
    expect(carriedRefusal(`sed -e "$1"`, { positional: [], stdin: false })).toBeNull();
  });
});
