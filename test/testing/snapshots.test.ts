import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { lineDiff } from "../../src/testing/line-diff.js";
import { HI, hiCase, projectWith, ryeTest } from "./project.js";

const CASE = hiCase("inputs: {who: Ada}\nexpect:\n  prompt:\n    snapshot: true\n  metadata:\n    snapshot: true", "greets Ada");
const folder = (dir: string) => join(dir, ".ai", "tests", "__snapshots__", "directives", "t", "hi");

describe("snapshots", () => {
  test("written on the first run, matched on the next, a readable diff when the prompt changes, rewritten by --update", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    const first = await ryeTest(dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Snapshots: 2 written");
    const files = readdirSync(folder(dir)).sort();
    expect(files).toEqual([expect.stringMatching(/^greets-ada-[0-9a-f]{6}\.metadata\.snap$/), expect.stringMatching(/^greets-ada-[0-9a-f]{6}\.prompt\.snap$/)]);
    const promptFile = join(folder(dir), files[1]!);
    // The stored prompt is the prompt itself, as plain text: a pull request shows a changed prompt as a diff of it.
    expect(readFileSync(promptFile, "utf8")).toBe('<directive name="hi">\n<description>Say hi.</description>\nSay hi to Ada, 2 times, calmly.\n</directive>');
    const again = await ryeTest(dir);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain("Snapshots:");

    writeFileSync(join(dir, ".ai", "directives", "t", "hi.md"), HI.replace("Say hi to", "Wave at"));
    const changed = await ryeTest(dir);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain("does not match the snapshot .ai/tests/__snapshots__/directives/t/hi/");
    expect(changed.stdout).toContain("  <description>Say hi.</description>\n      - Say hi to Ada, 2 times, calmly.\n      + Wave at Ada, 2 times, calmly.\n        </directive>");
    expect(readFileSync(promptFile, "utf8")).toContain("Say hi to Ada");

    const updated = await ryeTest(dir, "--update");
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain("Snapshots: 1 updated");
    expect(readFileSync(promptFile, "utf8")).toContain("Wave at Ada, 2 times, calmly.");
    expect((await ryeTest(dir)).code).toBe(0);
  });

  test("a snapshot no case uses any more is reported by a whole run, and --update removes it", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    expect((await ryeTest(dir)).code).toBe(0);
    writeFileSync(join(dir, ".ai", "tests", "directives", "t", "hi.test.yaml"), CASE.replace("      metadata:\n        snapshot: true\n", ""));
    const [metadata] = readdirSync(folder(dir)).filter((f) => f.endsWith(".metadata.snap"));
    const run = await ryeTest(dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Obsolete snapshots, no case uses them (rye test --update removes them):\n  .ai/tests/__snapshots__/directives/t/hi/${metadata}\n`);
    expect((await ryeTest(dir, "t/hi")).stderr).not.toContain("Obsolete");
    expect((await ryeTest(dir, "--update")).stderr).toContain("Obsolete snapshots, removed:");
    expect(readdirSync(folder(dir)).filter((f) => f.endsWith(".metadata.snap"))).toEqual([]);
    expect(readdirSync(folder(dir)).filter((f) => f.endsWith(".prompt.snap"))).toHaveLength(1);
  });

  test("in CI mode (--ci or CI=true) a missing snapshot fails and nothing is written", async () => {
    const dir = projectWith({ "directives/t/hi.test.yaml": CASE });
    const r = await ryeTest(dir, "--ci");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("no stored snapshot");
    expect(existsSync(folder(dir))).toBe(false);
  });

  test("the diff keeps two lines of context and marks what it leaves out", () => {
    const stored = ["a", "b", "c", "d", "e", "f", "g", "h"].join("\n");
    expect(lineDiff(stored, stored.replace("g", "G"))).toBe(["  …", "  e", "  f", "- g", "+ G", "  h"].join("\n"));
    expect(lineDiff("x", "x\ny")).toBe("  x\n+ y");
    expect(lineDiff(stored, stored.replace("b", "B"))).toBe(["  a", "- b", "+ B", "  c", "  d", "  …"].join("\n"));
  });
});
