// `rye test -t NAME` matches the user's pattern against case names the checkout writes, so it runs
// the linear-time matcher `matches:` uses, never V8's backtracking engine. A catastrophic pattern and
// name pair runs to the answer RegExp gives on a short name (a backtracking engine would not finish
// the selection); a pattern the matcher cannot follow is refused before anything runs, naming `-t`
// and why, with exit 2.
import { describe, expect, test } from "vitest";
import { caseNamePattern } from "../../src/testing/select.js";
import { projectWith, ryeTest } from "../testing/project.js";

const LONG = "a".repeat(60);
/** Each backtracks exponentially (or as a high power) on `${LONG}!`, where it finds no match. */
const CATASTROPHIC = ["(a+)+$", "(a|aa)+$", "(a|a?)+z", "(a*)*z", "(.*a){12}z"];

const caseNamed = (name: string) => `  - name: ${JSON.stringify(name)}\n    inputs: {who: Ada}\n    expect:\n      body:\n        contains: Ada\n`;
const project = () => projectWith({ "directives/t/hi.test.yaml": `cases:\n${caseNamed(`${LONG}!`)}${caseNamed("greets you")}${caseNamed("héllo wörld")}` });
const ran = async (...args: string[]) => {
  const r = await ryeTest(project(), "--json", ...args);
  return { code: r.code, names: r.stdout ? JSON.parse(r.stdout).results.map((x: { name: string }) => x.name) : [], stderr: r.stderr };
};

describe("-t matches case names in time linear in the name", () => {
  test.each(CATASTROPHIC)("%s against a long case name: the run ends, selecting as RegExp does on a short name (none)", async (pattern) => {
    expect(new RegExp(pattern, "u").test("aaaa!")).toBe(false);
    const r = await ran("-t", pattern);
    expect(r.names).toEqual([]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("No test case matched the filters");
  });

  test("a catastrophic shape that matches still selects its case", async () => {
    const r = await ran("-t", "^(a+)+!$");
    expect(r.names).toEqual([`${LONG}!`]);
    expect(r.code).toBe(0);
  });

  test.each([
    ["you$", ["greets you"]],
    ["^greets", ["greets you"]],
    ["a{60}", [`${LONG}!`]],
    ["\\p{L}+ w\\u00f6rld", ["héllo wörld"]],
    ["[!]|you", [`${LONG}!`, "greets you"]],
    ["(?:gree|hé)l?", ["greets you", "héllo wörld"]],
  ])("ordinary pattern %s selects as RegExp would", async (pattern, want) => {
    const r = await ran("-t", pattern);
    expect(r.names).toEqual(want);
    expect(r.code).toBe(0);
  });

  test.each([
    ["(a)\\1", "backreference"],
    ["(?<x>a)\\k<x>", "backreference"],
    ["(?=a)a", "lookahead"],
    ["(?<!b)a", "lookbehind"],
    ["(", "not a valid JavaScript regular expression"],
  ])("%s is refused before any case runs: exit 2, the message names -t and why", async (pattern, why) => {
    const r = await ran("-t", pattern);
    expect(r.code).toBe(2);
    expect(r.names).toEqual([]);
    expect(r.stderr).toContain(`rye test: -t '${pattern}' cannot be matched: `);
    expect(r.stderr).toContain(why);
  });

  test("the matcher gives RegExp's answer on names of every shape (agreement on short names)", () => {
    const names = ["", "a", "aa!", "greets you", "héllo", "a\nb", "A-1_z"];
    for (const source of ["^a", "a$", "(a|b)+", "\\w+", "[^a]", ".", "^$", "a?!", "\\bA", "é"]) {
      const p = caseNamePattern(source);
      if ("problem" in p) throw new Error(p.problem);
      for (const name of names) expect(p.test(name), `${source} on ${JSON.stringify(name)}`).toBe(new RegExp(source, "u").test(name));
    }
  });
});
