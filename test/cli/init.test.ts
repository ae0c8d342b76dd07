import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runRye, runRyeProcess, testUserSpace } from "../helpers/cli.js";
import { TEMPLATE_FILES } from "../../src/init/project-template.js";

const TEST_USER = testUserSpace();
const rye = (args: string[], cwd: string) => runRye(args, cwd, { USER_SPACE: TEST_USER });

describe("rye init", () => {
  test("scaffolds a project that builds with nothing above info, and a tool that runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-init-"));
    const init = await rye(["init"], dir);
    expect(init.code).toBe(0);
    for (const [path] of TEMPLATE_FILES) expect(init.stdout).toContain(`created  ${path}`);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("/out/\n/.rye-cache/\n");

    const built = await rye(["build", "--json"], dir);
    expect(built.code).toBe(0);
    const report = JSON.parse(built.stdout) as { compiled: string[]; diagnostics: { severity: string }[] };
    expect(report.compiled).toEqual(["hello/summarize"]);
    expect(report.diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
    expect(existsSync(join(dir, "out", "directives", "hello", "summarize.js"))).toBe(true);

    // `rye run tool` imports out/: a real process from dist/ (see runRyeProcess).
    const ran = runRyeProcess(["run", "tool", "hello/word_count", "--params", '{"text": "one two three"}', "--project", dir], dir, { USER_SPACE: TEST_USER });
    expect(ran.stderr).toBe("");
    expect(JSON.parse(ran.stdout)).toMatchObject({ status: "success", data: { success: true, count: 3 } });
    expect(ran.code).toBe(0);

  });

  test("never overwrites: a second run and a run over edited files change nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-init-"));
    mkdirSync(join(dir, ".ai", "knowledge", "hello"), { recursive: true });
    writeFileSync(join(dir, ".ai", "knowledge", "hello", "tone.md"), "mine");
    writeFileSync(join(dir, ".gitignore"), "node_modules\nout/");
    const first = await rye(["init", "."], dir);
    expect(first.stdout).toContain("skipped  .ai/knowledge/hello/tone.md (exists)");
    expect(readFileSync(join(dir, ".ai", "knowledge", "hello", "tone.md"), "utf8")).toBe("mine");
    // `out/` already covers the output folder; only the cache line is added, after a newline.
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules\nout/\n/.rye-cache/\n");

    const again = await rye(["init"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("created");
    expect(again.stdout).toContain("Nothing to do");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("node_modules\nout/\n/.rye-cache/\n");
  });

  test("takes one folder at most, and creates it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-init-"));
    expect((await rye(["init", "a", "b"], dir)).code).toBe(2);
    expect(existsSync(join(dir, "a"))).toBe(false);
    expect((await rye(["init", "new"], dir)).code).toBe(0);
    expect(existsSync(join(dir, "new", "rye.config.json"))).toBe(true);
  });
});

describe("rye init writes through no link", () => {
  test("a .gitignore or .ai that is a link out of the folder is left alone, and what it points at is unchanged", async () => {
    const outside = mkdtempSync(join(tmpdir(), "rye-init-outside-"));
    writeFileSync(join(outside, "victim"), "mine\n");
    mkdirSync(join(outside, "folder"));
    const dir = mkdtempSync(join(tmpdir(), "rye-init-links-"));
    symlinkSync(join(outside, "victim"), join(dir, ".gitignore"));
    symlinkSync(join(outside, "folder"), join(dir, ".ai"));
    const { code, stdout } = await runRye(["init", dir], dir);
    expect(code).toBe(0);
    expect(readFileSync(join(outside, "victim"), "utf8")).toBe("mine\n");
    expect(readdirSync(join(outside, "folder"))).toEqual([]);
    expect(stdout).toMatch(/skipped\s+\.ai\/directives/);
  });
});
