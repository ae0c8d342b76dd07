import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { hiCase, projectWith, ryeTest } from "./project.js";

/** The RYE91xx diagnostics printed, as code, line and column (of the test file). */
function located(stderr: string): string[] {
  return [...stderr.matchAll(/^(\S+\.test\.yaml):(\d+):(\d+) - error (RYE91\d\d): (.*)$/gm)].map((m) => `${m[4]} ${m[2]}:${m[3]} ${m[5]}`);
}

/** Every located error line printed. */
function located2(stderr: string): string[] {
  return stderr.split("\n").filter((l) => / - error RYE\d+:/.test(l));
}

describe("test files are checked like sources, before any case runs", () => {
  test("an undeclared input: located at its key, with the nearest declared name (RYE9103)", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": hiCase("inputs:\n  who: Ada\n  tmies: 3\nexpect:\n  body:\n    contains: Ada") });
    const r = await ryeTest(dir);
    expect(r.code).toBe(2);
    expect(located(r.stderr)).toEqual(["RYE9103 5:7 't/hi' declares no input 'tmies'. Did you mean 'times'? Declared inputs: who, times, mood. To test the refusal, list it under refuses: unknown."]);
    expect(r.stderr).toContain("No case ran");
    expect(r.stdout).toBe("");
  });

  test("a required input left out without expecting the refusal (RYE9104), and the same case expecting it", async () => {
    const bad = projectWith({ "directives/t/hi.test.yaml": hiCase("inputs: {times: 1}\nexpect:\n  body:\n    contains: hi") });
    expect(located((await ryeTest(bad)).stderr)).toEqual([
      "RYE9104 2:11 This case omits the required input 'who' of 't/hi', so it can only be refused. Give it under inputs, or expect the refusal: refuses: { missing: [who] }.",
    ]);
    const good = projectWith({ "directives/t/hi.test.yaml": hiCase("inputs: {times: 1}\nrefuses:\n  missing: who") });
    expect((await ryeTest(good)).code).toBe(0);
  });

  test("expectations that can never be checked are errors (RYE9105): unknown field, unknown matcher, empty contains, bad pattern, nothing to check", async () => {
    const text = [
      "cases:",
      "  - name: one",
      "    inputs: {who: Ada}",
      "    expect:",
      "      promt:",
      "        contains: x",
      "      body:",
      "        contians: x",
      "      raw:",
      "        contains: \"\"",
      "      content:",
      "        matches: \"[\"",
      "      body.x:",
      "        equals: 1",
      "  - name: two",
      "    inputs: {who: Ada}",
      "",
    ].join("\n");
    const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": text }));
    expect(r.code).toBe(2);
    const found = located(r.stderr);
    expect(found.map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual(["RYE9105 5:7", "RYE9105 8:9", "RYE9105 10:19", "RYE9105 12:18", "RYE9105 13:7", "RYE9105 15:11"]);
    expect(found[0]).toContain("Did you mean 'prompt'?");
    expect(found[1]).toContain("Did you mean 'contains'?");
    expect(found[2]).toContain("is empty");
    expect(found[5]).toContain("neither expect: nor refuses:");
  });

  test("a test file for an item that does not exist (RYE9102), and YAML or shape errors (RYE9101)", async () => {
    const r = await ryeTest(projectWith({
      "directives/t/ih.test.yaml": hiCase("inputs: {who: Ada}\nexpect:\n  body:\n    contains: Ada"),
      "knowledge/t/manners.test.yaml": "cases:\n  - name: a\n    expcet: {}\n  - name: a\n    expect:\n      content:\n        contains: please\n",
      "knowledge/t/other.test.yaml": "cases: [\n",
    }));
    expect(r.code).toBe(2);
    const found = located(r.stderr);
    expect(found.find((l) => l.startsWith("RYE9102"))).toMatch(/^RYE9102 1:1 .*directive 't\/ih'.*Did you mean 't\/hi'\?/);
    expect(found.filter((l) => l.startsWith("RYE9101")).map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual(["RYE9101 3:5", "RYE9101 4:11", "RYE9101 2:1"]);
    expect(found.join("\n")).toContain("Did you mean 'expect'?");
    expect(found.join("\n")).toContain("two cases are named 'a'");
  });
});

describe("the test folders are walked within bounds", () => {
  test("a folder past the depth limit is a located RYE9101, not a stack overflow; a link loop is not followed", async () => {
    const deep = Array.from({ length: 40 }, (_, i) => `d${i}`).join("/");
    const dir = projectWith({ [`directives/${deep}/x.test.yaml`]: "cases: [\n", "directives/t/hi.test.yaml": hiCase("inputs: {who: Ada}\nexpect:\n  body:\n    contains: Ada") });
    symlinkSync(".", join(dir, ".ai/tests/directives/t/loop"));
    const r = await ryeTest(dir);
    expect(r.code).toBe(2);
    const found = located2(r.stderr);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^\.ai\/tests\/directives\/d0(\/d\d+){32}:1:1 - error RYE9101: .*more than 32 folders below \.ai\/tests\/directives/);
  });
});

describe("what runs", () => {
  const file = "cases:\n  - name: greets Ada\n    inputs: {who: Ada}\n    expect:\n      body:\n        contains: Ada\n  - name: greets Bo\n    inputs: {who: Bo}\n    expect:\n      body:\n        contains: Bo\n";
  const knowledge = "cases:\n  - name: says please\n    expect:\n      content:\n        contains: please\n";

  test("filters by id, kind:id, glob and case name (-t); no match exits 1", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": file, "knowledge/t/manners.test.yaml": knowledge });
    const names = async (...args: string[]) => JSON.parse((await ryeTest(dir, "--json", ...args)).stdout).results.map((x: { name: string }) => x.name);
    expect(await names()).toEqual(["greets Ada", "greets Bo", "says please"]);
    expect(await names("t/manners")).toEqual(["says please"]);
    expect(await names("directive:t/*")).toEqual(["greets Ada", "greets Bo"]);
    expect(await names("t/")).toEqual(["greets Ada", "greets Bo", "says please"]);
    expect(await names("-t", "Bo$")).toEqual(["greets Bo"]);
    const none = await ryeTest(dir, "nothing/here");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("No test case matched the filters");
    expect((await ryeTest(dir, "nothing/here", "--pass-with-no-tests")).code).toBe(0);
  });

  test("usage errors exit 2", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": file });
    expect((await ryeTest(dir, "--reporter", "xml")).code).toBe(2);
    expect((await ryeTest(dir, "--now", "yesterday")).code).toBe(2);
    expect((await ryeTest(dir, "-t", "(")).code).toBe(2);
    expect((await ryeTest(dir, "--out", "out", "--bundle", "b.mjs")).code).toBe(2);
  });

  test("skip and only", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": file.replace("  - name: greets Bo\n", "  - name: greets Bo\n    only: true\n") });
    const r = JSON.parse((await ryeTest(dir, "--json")).stdout);
    expect(r.results.map((x: { status: string }) => x.status)).toEqual(["skipped", "passed"]);
  });
});

describe("tools", () => {
  // The example project's python runtime and subprocess primitive, for a chain that compiles.
  const repoTools = fileURLToPath(new URL("../../.ai/tools/rye/core/", import.meta.url));
  const RUNTIME = Object.fromEntries(
    ["runtimes/python/script.yaml", "primitives/subprocess.yaml"].filter((f) => existsSync(join(repoTools, f))).map((f) => [`.ai/tools/rye/core/${f}`, readFileSync(join(repoTools, f), "utf8")]),
  );
  const TOOL = '__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rye/core/runtimes/python/script"\nCONFIG_SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}\n';

  test("a tool's parameters are checked against its CONFIG_SCHEMA; cases on a real run are skipped without --run", async () => {
    const bad = projectWith({ "tools/t/count.test.yaml": "cases:\n  - name: a\n    inputs: {txet: x}\n    expect:\n      plan.item_id:\n        equals: t/count\n" }, { ".ai/tools/t/count.py": TOOL, ...RUNTIME });
    const found = located((await ryeTest(bad)).stderr);
    expect(found.map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual(["RYE9104 2:11", "RYE9103 3:14"]);
    expect(found[1]).toContain("Did you mean 'text'?");
    const good = projectWith(
      { "tools/t/count.test.yaml": "cases:\n  - name: plan\n    inputs: {text: x}\n    expect:\n      plan.item_id:\n        equals: t/count\n  - name: refusal\n    inputs: {}\n    refuses:\n      error:\n        contains: x\n" },
      { ".ai/tools/t/count.py": TOOL, ...RUNTIME },
    );
    const r = JSON.parse((await ryeTest(good, "--json")).stdout);
    expect(r.results.map((x: { status: string }) => x.status)).toEqual(["passed", "skipped"]);
    expect(r.results[1].reason).toContain("--run");
  });
});

test("a refusal that could never be the payload: an undeclared input, or a missing input the case gives", async () => {
  const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": hiCase("inputs: {who: Ada}\nrefuses:\n  missing: [who, hwo]") }));
  expect(r.code).toBe(2);
  const found = located(r.stderr);
  expect(found.some((l) => l.startsWith("RYE9103 5:7") && l.includes("'hwo'") && l.includes("Did you mean 'who'?"))).toBe(true);
  expect(found.some((l) => l.startsWith("RYE9105 5:7") && l.includes("'who' is given under inputs"))).toBe(true);
});

test("a test file over the size limit is refused unread (RYE9101)", async () => {
  const big = `cases:\n  - name: a\n    inputs: {who: "${"x".repeat(1024 * 1024)}"}\n    expect:\n      body:\n        contains: x\n`;
  const r = await ryeTest(projectWith({ "directives/t/hi.test.yaml": big }));
  expect(r.code).toBe(2);
  expect(located(r.stderr)).toEqual([expect.stringMatching(/^RYE9101 1:1 Test file: the file is \d+ bytes, over the limit of 1048576 bytes, so it is not read/)]);
});
