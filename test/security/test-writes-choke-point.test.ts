// `rye test` changes files in one place: src/testing/snapshot-files.ts (snapshots and the
// --output-file report, never through a link). This scans the test runner's sources for calls that
// create, write, rename or remove a file and fails for any outside that module not on the short list
// below, each with its reason (and fails when a listed call is gone, so the list only shrinks). It
// does the same for `new RegExp(`: a pattern from a test file goes to the linear-time matcher. Then
// the --output-file path, which CI often names inside the checkout, is tried with planted links.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { hiCase, projectWith, ryeTest } from "../testing/project.js";
import { tempDir } from "./helpers.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const WRITER = "testing/snapshot-files.ts";

/** `file callee` → why this change of a file is not the writer's. */
const ALLOWED = new Map<string, string>([
  ["testing/load-in-memory.ts mkdirSync", "the run's own private folder (mkdtemp, 0700) for the compiled modules, outside the checkout"],
  ["testing/load-in-memory.ts writeFileSync", "the run's own private folder, files created exclusively (wx)"],
  ["testing/load-in-memory.ts rmSync", "removes the run's own private folder"],
  ["testing/load-bundle.ts rmSync", "removes the bytecode cache folder the bundle's tool run made for itself"],
]);

/** `file` → why a `new RegExp(` there is not a pattern from a project file. */
const REGEX_ALLOWED = new Map<string, string>([
  ["testing/select.ts", "a glob from the command line, every character escaped but * and ?"],
]);

const CHANGES = /(?<![\w$.])(writeFileSync|writeFile|appendFileSync|mkdirSync|mkdir|rmSync|rm|rmdirSync|unlinkSync|unlink|renameSync|rename|copyFileSync|cpSync|symlinkSync|linkSync|truncateSync|createWriteStream|writeNoFollow|openSync)\s*\(/g;
const WRITE_FLAGS = /O_WRONLY|O_CREAT|O_RDWR|["'`](?:w|wx|a|ax|r\+|w\+|a\+)["'`]/;

function* sources(): Generator<string> {
  const walk = function* (dir: string): Generator<string> {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      if (e.isDirectory()) yield* walk(full);
      else if (e.name.endsWith(".ts")) yield full;
    }
  };
  yield* walk(join(SRC, "testing"));
  for (const name of readdirSync(join(SRC, "cli", "commands"))) if (/^test.*\.ts$/.test(name)) yield join(SRC, "cli", "commands", name);
}

const codeLines = (text: string) => text.split("\n").map((l) => l.replace(/\/\/.*$/, "")).filter((l) => !/^\s*(\*|import\b)/.test(l));

function changeSites(): Set<string> {
  const sites = new Set<string>();
  for (const file of sources()) {
    const rel = relative(SRC, file).split("\\").join("/");
    if (rel === WRITER) continue;
    for (const line of codeLines(readFileSync(file, "utf8"))) {
      for (const m of line.matchAll(CHANGES)) if (m[1] !== "openSync" || WRITE_FLAGS.test(line)) sites.add(`${rel} ${m[1]}`);
    }
  }
  return sites;
}

function regexSites(): Set<string> {
  const sites = new Set<string>();
  for (const file of sources()) for (const line of codeLines(readFileSync(file, "utf8"))) if (/new RegExp\s*\(/.test(line)) sites.add(relative(SRC, file).split("\\").join("/"));
  return sites;
}

describe("the test runner's writes and patterns go through one module each", () => {
  test("no file is created, written, renamed or removed outside snapshot-files.ts, apart from the listed reasons", () => {
    const sites = changeSites();
    expect([...sites].filter((s) => !ALLOWED.has(s)).sort()).toEqual([]);
    expect([...ALLOWED.keys()].filter((s) => !sites.has(s))).toEqual([]);
  });

  test("no RegExp is built from a test file's pattern: matches: goes to the linear-time matcher", () => {
    const sites = regexSites();
    expect([...sites].filter((s) => !REGEX_ALLOWED.has(s)).sort()).toEqual([]);
    expect([...REGEX_ALLOWED.keys()].filter((s) => !sites.has(s))).toEqual([]);
    expect(readFileSync(join(SRC, "testing", "parse-expect.ts"), "utf8")).toMatch(/compileLinear\(/);
  });

  test("the scan sees a change of a file: an added writeFileSync in the runner is caught", () => {
    const line = 'writeFileSync(join(root, rel), text);';
    expect([...codeLines(line)[0]!.matchAll(CHANGES)].map((m) => m[1])).toEqual(["writeFileSync"]);
    expect([...codeLines('openSync(p, constants.O_WRONLY)')[0]!.matchAll(CHANGES)].map((m) => m[1])).toEqual(["openSync"]);
  });
});

const CASE = hiCase("inputs: {who: Ada}\nexpect:\n  prompt:\n    contains: Ada", "greets Ada");

describe("--output-file never writes through a link the checkout planted", () => {
  test.each(["junit", "json", "tap"])("a dangling link at the report's path (%s): refused, exit 2, its target not created", async (reporter) => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    const marker = join(tempDir("rye-home-"), ".bashrc");
    symlinkSync(marker, join(dir, "report.xml"));
    const r = await ryeTest(dir, "--reporter", reporter, "--output-file", "report.xml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: --output-file report.xml: refused: report.xml is a symbolic link");
    expect(existsSync(marker)).toBe(false);
  });

  test("a linked folder on the report's way inside the project: refused, nothing written there", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    const outside = tempDir("rye-elsewhere-");
    symlinkSync(outside, join(dir, "reports"));
    const r = await ryeTest(dir, "--reporter", "junit", "--output-file", "reports/junit.xml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("refused: reports/junit.xml has a link or a file where a folder is on its way");
    expect(readdirSync(outside)).toEqual([]);
  });

  test("a plain path is written", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    mkdirSync(join(dir, "reports"));
    writeFileSync(join(dir, "reports", "junit.xml"), "old");
    const r = await ryeTest(dir, "--reporter", "junit", "--output-file", "reports/junit.xml");
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "reports", "junit.xml"), "utf8")).toContain("<testsuites");
  });
});
