// `rye build --check` runs the whole check: for every diagnostic fixture that holds an error, a
// tree containing it makes --check exit 1 and print exactly the errors `rye build` prints, even
// when out/ is up to date with the rest of the tree. A check that compared out/ alone would say
// "up to date" here.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { plainDirective, runRye, testUserSpace, writeTree } from "../helpers/cli.js";

const fixtures = fileURLToPath(new URL("../fixtures/diagnostics/", import.meta.url));
const tools = fileURLToPath(new URL("../fixtures/tools/", import.meta.url));
const INSTRUCTION = { ".ai/knowledge/rye/agent/core/DirectiveInstruction.md": "```yaml\nname: DirectiveInstruction\n```\n\nFollow the directive.\n" };

interface Expected {
  code: string;
  severity?: string;
}
const errorCodes = (list: Expected[]) => [...new Set(list.filter((d) => (d.severity ?? "error") === "error" && isError(d.code)).map((d) => d.code))].sort();
const CODES_BY_SEVERITY = await import("../../src/diagnostics/codes.js").then((m) => m.CODES as Record<string, readonly [string, string]>);
const isError = (code: string) => CODES_BY_SEVERITY[code]?.[0] === "error";

interface Case {
  name: string;
  files: Record<string, string>;
  /** A folder copied into the project, at `into` (default: the project's root). */
  copy?: string;
  into?: string;
  errors: string[];
}

/** Each fixture holding an error, as a tree to write into a fresh project. */
function cases(): Case[] {
  const out: Case[] = [];
  for (const f of readdirSync(fixtures).filter((f) => f.endsWith(".md")).sort()) {
    const name = f.slice(0, -3);
    const errors = errorCodes(JSON.parse(readFileSync(join(fixtures, `${name}.expected.json`), "utf8")));
    if (errors.length === 0) continue;
    const kind = name.endsWith("_knowledge") ? "knowledge" : "directives";
    out.push({ name, files: { [`.ai/${kind}/fixtures/${name}.md`]: readFileSync(join(fixtures, f), "utf8") }, errors });
  }
  for (const e of readdirSync(fixtures, { withFileTypes: true }).filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const errors = errorCodes(JSON.parse(readFileSync(join(fixtures, e.name, "expected.json"), "utf8")));
    if (errors.length === 0 || existsSync(join(fixtures, e.name, "system"))) continue;
    out.push({ name: e.name, files: {}, copy: join(fixtures, e.name, "project"), errors });
  }
  // Tool chains: each fixture's project/ holds the files under .ai/tools/.
  for (const e of readdirSync(tools, { withFileTypes: true }).filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const errors = errorCodes(JSON.parse(readFileSync(join(tools, e.name, "expected.json"), "utf8")));
    if (errors.length === 0 || existsSync(join(tools, e.name, "system"))) continue;
    out.push({ name: e.name, files: {}, copy: join(tools, e.name, "project"), into: ".ai/tools", errors });
  }
  return out;
}

const codesIn = (text: string) => [...new Set([...text.matchAll(/ - error (RYE\d{4})/g)].map((m) => m[1]!))].sort();

describe("rye build --check on a tree with an error", () => {
  const all = cases();
  test("there are error fixtures to check", () => expect(all.length).toBeGreaterThan(15));

  test.each(all.map((c) => [c.name, c] as const))("%s: exit 1 with the error a build reports, out/ not compared", async (_name, c) => {
    const dir = mkdtempSync(join(tmpdir(), "rye-check-err-"));
    const env = { USER_SPACE: testUserSpace() };
    // First a clean tree, built, so that out/ exists and is up to date for everything else.
    writeTree(dir, { ...INSTRUCTION, ".ai/directives/ok.md": plainDirective("ok") });
    expect((await runRye(["build", "--project", dir], dir, env)).code).toBe(0);
    expect((await runRye(["build", "--project", dir, "--check"], dir, env)).code).toBe(0);
    if (c.copy) cpSync(c.copy, join(dir, c.into ?? ""), { recursive: true });
    writeTree(dir, c.files);
    const built = await runRye(["build", "--project", dir], dir, env);
    const checked = await runRye(["build", "--project", dir, "--check"], dir, env);
    expect(built.code).toBe(1);
    expect(checked.code).toBe(1);
    expect(codesIn(checked.stderr)).toEqual(codesIn(built.stderr));
    for (const code of c.errors) expect(checked.stderr).toContain(`error ${code}`);
    expect(checked.stdout).not.toMatch(/up to date/);
    expect(checked.stderr).toMatch(/--check: \d+ errors? in the sources; out was not compared/);
  });
});

describe("rye build --check --json", () => {
  test("gives the diagnostics and the comparison in one report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-check-json-"));
    const env = { USER_SPACE: testUserSpace() };
    writeTree(dir, { ...INSTRUCTION, ".ai/directives/ok.md": plainDirective("ok", "Use {input:nope}.") });
    const failing = await runRye(["build", "--project", dir, "--check", "--json"], dir, env);
    expect(failing.code).toBe(1);
    const report = JSON.parse(failing.stdout);
    expect(report.upToDate).toBe(false);
    expect(report.errors).toBe(1);
    expect(report.diagnostics.map((d: { code: string }) => d.code)).toContain("RYE2001");
    expect(report.drift).toBeNull();

    writeTree(dir, { ".ai/directives/ok.md": plainDirective("ok") });
    const missing = JSON.parse((await runRye(["build", "--project", dir, "--check", "--json"], dir, env)).stdout);
    expect(missing.upToDate).toBe(false);
    expect(missing.drift.missing).toContain("directives/ok.js");
    expect((await runRye(["build", "--project", dir], dir, env)).code).toBe(0);
    const clean = await runRye(["build", "--project", dir, "--check", "--json"], dir, env);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ upToDate: true, errors: 0, drift: { missing: [], stale: [], extra: [] } });
  });
});
