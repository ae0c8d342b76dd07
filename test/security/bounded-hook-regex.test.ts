// Hook conditions' `op: regex` (class 4, bounded work): a pattern from the project's config is matched
// against the caller's text by a linear-time matcher, never by V8's backtracking engine; a pattern it
// cannot run, or that JavaScript does not accept (Python's `(?P<n>…)`), is a located RYE3009 at build.
// The matcher must say exactly what `RegExp.prototype.test` says for every pattern it accepts.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readHookConfig } from "../../src/analyze/hooks.js";
import { build } from "../../src/index.js";
import { matches } from "../../src/runtime/context/condition.js";
import { compileLinear, MAX_STATES, regexProblem } from "../../src/runtime/context/linear-regex.js";
import { BIN, cleanEnv, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

/** Patterns built from the constructs the matcher accepts, nested (the catastrophic shapes included). */
const pattern: fc.Arbitrary<string> = fc.letrec((tie) => ({
  atom: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("a", "b", ".", "\\d", "\\w", "\\s", "\\W", "[ab]", "[^a]", "[a-c]", "\\.", "\\u0061", "\\u{62}", "\\x61", "\\p{L}", "é", "😀", "^", "$", "\\b", "\\B"),
    fc.tuple(tie("alt"), fc.constantFrom("(", "(?:", "(?<g>")).map(([x, open]) => `${open}${x})`),
  ),
  quantified: fc.tuple(tie("atom"), fc.constantFrom("", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?", "+?")).map(([a, q]) => (/^[\^$]|^\\[bB]$/.test(a as string) ? (a as string) : `${a}${q}`)),
  seq: fc.array(tie("quantified"), { minLength: 0, maxLength: 4 }).map((xs) => (xs as string[]).join("")),
  alt: fc.array(tie("seq"), { minLength: 1, maxLength: 3 }).map((xs) => (xs as string[]).join("|")),
})).alt as fc.Arbitrary<string>;

const text = fc.array(fc.constantFrom("a", "b", "c", "1", " ", "-", "é", "😀", "\n", "_"), { maxLength: 12 }).map((xs) => xs.join(""));

describe("the linear-time matcher answers as RegExp.prototype.test", () => {
  test("every accepted pattern, on every text (generated)", () => {
    fc.assert(
      fc.property(pattern, text, (p, s) => {
        if (regexProblem(p) !== null) return;
        expect(compileLinear(p).test(s), `/${p}/u on ${JSON.stringify(s)}`).toBe(new RegExp(p, "u").test(s));
      }),
      { numRuns: 3000 },
    );
  });

  test("the catastrophic shapes are accepted and answered without backtracking", () => {
    const hostile = `${"a".repeat(5000)}b`;
    for (const p of ["^(a+)+$", "^(a|a)*$", "^(a|aa)+$", "(\\s*)*x", "^(a*)*b?c$", "\\s*\\s*\\s*x", "(.*a){12}$"]) {
      expect(regexProblem(p), p).toBeNull();
      expect(compileLinear(p).test(hostile), p).toBe(false);
    }
    expect(compileLinear("^(a+)+b$").test(hostile)).toBe(true);
  });
});

describe("what the matcher refuses, and why", () => {
  for (const [p, why] of [
    ["(?P<n>a)", /not a valid JavaScript regular expression/],
    ["(?i)abc", /not a valid JavaScript regular expression/],
    ["(a)\\1", /backreference/],
    ["(?<n>a)\\k<n>", /backreference/],
    ["a(?=b)", /lookahead or lookbehind/],
    ["(?<!b)a", /lookahead or lookbehind/],
    ["a{1001}", new RegExp(`more than ${MAX_STATES}`)],
    ["(?:){999999999}", /repeats a part/],
    [`${"(".repeat(40)}a${")".repeat(40)}`, /nests groups/],
  ] as const) {
    test(p.length > 30 ? `${p.slice(0, 30)}…` : p, () => expect(regexProblem(p)).toMatch(why));
  }

  test("at run time a refused pattern is an error naming the rule, not a hang or V8's message", () => {
    expect(() => matches({ inputs: { text: "aaa" } }, { path: "inputs.text", op: "regex", value: "(a)\\1" })).toThrow(/is refused: .*backreference.*RYE3009/);
    expect(matches({ inputs: { text: `${"a".repeat(60)}b` } }, { path: "inputs.text", op: "regex", value: "^(a+)+$" })).toBe(false);
  });
});

describe("RYE3009 at build, located", () => {
  const config = (value: string) => `context_hooks:\n  - id: h\n    event: thread_started\n    condition:\n      all:\n        - path: inputs.text\n          op: regex\n          value: "${value}"\n    action: {primary: execute, item_type: knowledge, item_id: k}\n`;

  test("in hook_conditions.yaml: at the pattern; the hook configures nothing", () => {
    const read = readHookConfig(config("(?P<n>a)"), ".ai/config/agent/hook_conditions.yaml");
    expect(read.hooks).toEqual([]);
    expect(read.diagnostics.map((x) => [x.code, x.loc?.start.line, x.loc?.start.column])).toEqual([["RYE3009", 8, 19]]);
    expect(read.diagnostics[0]!.message).toMatch(/regex '\(\?P<n>a\)' is refused: it is not a valid JavaScript regular expression/);
    expect(readHookConfig(config("^(urgent|high)$"), "h.yaml").diagnostics).toEqual([]);
  });

  test("in a directive's <hooks>: at the pattern", () => {
    const text = '# d\n\n```xml\n<directive name="d" version="1.0.0">\n  <metadata>\n    <description>D.</description>\n    <hooks>\n      <hook id="h" event="thread_started">\n        <condition path="inputs.text" op="regex" value="(a)\\1" />\n        <action primary="execute" item_type="knowledge" item_id="k" />\n      </hook>\n    </hooks>\n  </metadata>\n</directive>\n```\n\nBody.\n';
    const { diagnostics } = build([{ kind: "directive", id: "d", path: "d.md", text }], "test");
    const found = diagnostics.filter((x) => x.code === "RYE3009");
    expect(found.map((x) => [x.loc?.start.line, x.loc?.start.column])).toEqual([[9, 57]]);
  });
});

// The attack itself, end to end: a project's hook config with `^(a+)+$` and a caller's input of 60
// characters. V8's engine would take longer than the age of the universe; the bounded process must
// answer. The hard timeout turns a hang into a failure (status null), not a stuck suite.
describe("rye preview with a catastrophic hook regex and a hostile input", () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir("rye-redos-");
    mkdirSync(join(dir, ".ai", "directives", "a"), { recursive: true });
    mkdirSync(join(dir, ".ai", "knowledge", "k"), { recursive: true });
    mkdirSync(join(dir, ".ai", "config", "agent"), { recursive: true });
    writeFileSync(join(dir, ".ai", "directives", "a", "d.md"), '# d\n\n```xml\n<directive name="d" version="1.0.0">\n  <metadata><description>D.</description></metadata>\n  <inputs><input name="text" type="string" required="true">T</input></inputs>\n</directive>\n```\n\nSay {input:text}.\n');
    writeFileSync(join(dir, ".ai", "knowledge", "k", "small.md"), "```yaml\nname: small\n```\n\nSMALL-KNOWLEDGE\n");
    writeFileSync(join(dir, ".ai", "config", "agent", "hook_conditions.yaml"), 'context_hooks:\n  - id: redos\n    event: thread_started\n    position: before\n    condition: {path: inputs.text, op: regex, value: "^(a+)+$"}\n    action: {primary: execute, item_type: knowledge, item_id: k/small}\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const preview = (input: string) =>
    spawnSync(process.execPath, [BIN, "preview", "a/d", "--thread", "--inputs", JSON.stringify({ text: input })], { cwd: dir, env: cleanEnv({ USER_SPACE: join(outsideOf(dir), "user") }), encoding: "utf8", timeout: 30_000 });

  test("a hostile input: answered, the hook not applied", () => {
    const r = preview(`${"a".repeat(60)}b`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("a".repeat(60));
    expect(r.stdout).not.toContain("SMALL-KNOWLEDGE");
  });

  test("rye build with a pattern JavaScript rejects: exit 1, RYE3009 at the pattern, nothing written", () => {
    const copy = tempDir("rye-redos-py-");
    cpSync(dir, copy, { recursive: true });
    const config = join(copy, ".ai", "config", "agent", "hook_conditions.yaml");
    writeFileSync(config, readFileSync(config, "utf8").replace("^(a+)+$", "(?P<n>a)"));
    const r = spawnSync(process.execPath, [BIN, "build", "--allow-unsigned"], { cwd: copy, env: cleanEnv({ USER_SPACE: join(copy, "user") }), encoding: "utf8", timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/hook_conditions\.yaml:5:55 - error RYE3009: The hook condition's regex '\(\?P<n>a\)' is refused: it is not a valid JavaScript regular expression/);
    expect(existsSync(join(copy, "out"))).toBe(false);
    rmSync(copy, { recursive: true, force: true });
  });

  test("a matching input: the hook applies", () => {
    const r = preview("a".repeat(60));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("SMALL-KNOWLEDGE");
  });
});
