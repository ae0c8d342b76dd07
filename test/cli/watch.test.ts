import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadProject } from "../../src/builder/load-project.js";
import { VERSION } from "../../src/version.js";
import { oneShot, rye, startWatch, testEnv, writeTree } from "./watch-cli.js";
import { plainDirective } from "../helpers/cli.js";

const directive = (name: string, body = "Do the thing.") => plainDirective(name, body, `${name} for the watch tests.`);

// With the default hook's knowledge item present, a clean tree reports nothing (no RYE3008).
const INSTRUCTION = "```yaml\nname: DirectiveInstruction\nversion: \"1.0.0\"\n```\n\nRun the directive below.\n";

function project(): string {
  return writeTree(mkdtempSync(join(tmpdir(), "rye-watch-")), {
    ".ai/knowledge/rye/agent/core/DirectiveInstruction.md": INSTRUCTION,
    ".ai/directives/t/one.md": directive("one"),
    ".ai/directives/t/two.md": directive("two"),
    ".ai/directives/u/three.md": directive("three"),
  });
}

const tmp = () => mkdtempSync(join(tmpdir(), "rye-noproject-"));

/** The first folder at or above `dir` holding .ai/, if any (then "no project" cannot be tested there). */
function projectAbove(dir: string): string | undefined {
  for (let d = dir; ; d = join(d, "..")) {
    if (existsSync(join(d, ".ai"))) return d;
    if (join(d, "..") === d) return undefined;
  }
}

describe("finding the project", () => {
  test("a --project that does not exist is a usage error and creates nothing", async () => {
    const parent = tmp();
    const missing = join(parent, "missing");
    const r = await rye(parent, testEnv(), ["build", "--project", missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${missing} does not exist`);
    expect(r.stdout).toBe("");
    expect(readdirSync(parent)).toEqual([]);
  });

  test("a --project without .ai/, or naming a file, is a usage error and creates nothing", async () => {
    const dir = tmp();
    const r = await rye(dir, testEnv(), ["build", "--project", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("holds no .ai/ folder");
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(join(dir, "file"), "x");
    const f = await rye(dir, testEnv(), ["build", "--project", "file"]);
    expect(f.code).toBe(2);
    expect(f.stderr).toContain("is not a folder");
    expect(readdirSync(dir)).toEqual(["file"]);
  });

  test("without --project, rye walks up from a subfolder to the nearest folder holding .ai/", async () => {
    const dir = project();
    const sub = join(dir, ".ai", "directives", "u");
    const r = await rye(sub, testEnv(), ["build", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).compiled).toEqual(["t/one", "t/two", "u/three"]);
    expect(existsSync(join(dir, "out", "directives", "u", "three.js"))).toBe(true);
    expect(readdirSync(sub)).toEqual(["three.md"]);
    // A nested project is nearer than the one around it.
    const inner = writeTree(join(dir, "nested"), { ".ai/directives/n/only.md": directive("only") });
    mkdirSync(join(inner, "deep"));
    const n = await rye(join(inner, "deep"), testEnv(), ["build", "--json"]);
    expect(JSON.parse(n.stdout).compiled).toEqual(["n/only"]);
    expect(existsSync(join(inner, "out", "directives", "n", "only.js"))).toBe(true);
  });

  test("no folder holding .ai/ up to the root is a usage error that creates nothing", async () => {
    const dir = tmp();
    // The walk must not find one above the temporary folder either, or this test proves nothing.
    const above = projectAbove(dir);
    if (above) return void console.warn(`skipped: ${above} holds .ai/`);
    const r = await rye(dir, testEnv(), ["build"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`neither ${dir} nor any folder above it holds .ai/`);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("the walk stops below the user space: its .ai/ is not a project unless named", async () => {
    const env = testEnv();
    const user = env.USER_SPACE!;
    writeTree(user, { ".ai/directives/mine/tool.md": directive("tool") });
    mkdirSync(join(user, "work"));
    const r = await rye(join(user, "work"), env, ["build"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("up to the user space");
    expect(readdirSync(user).sort()).toEqual([".ai", "work"]);
    const named = await rye(join(user, "work"), env, ["build", "--project", user, "--json"]);
    expect(named.code).toBe(0);
    expect(JSON.parse(named.stdout).compiled).toEqual(["mine/tool"]);
  });

  test("bundle and run tool find the project the same way", async () => {
    const env = testEnv();
    const parent = tmp();
    const missing = join(parent, "missing");
    expect((await rye(parent, env, ["bundle", "--project", missing])).code).toBe(2);
    expect(existsSync(missing)).toBe(false);
    const run = await rye(parent, env, ["run", "tool", "x/y", "--project", missing]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${missing} does not exist`);
    expect(readdirSync(parent)).toEqual([]);
    // A bundled tool too: refused before the bundle is even loaded.
    writeFileSync(join(parent, "bundle.mjs"), 'throw new Error("loaded");');
    const bundled = await rye(parent, env, ["run", "bundle.mjs", "tool", "x/y", "--project", missing]);
    expect(bundled.code).toBe(2);
    expect(bundled.stderr).toContain(`${missing} does not exist`);
    if (!projectAbove(parent)) {
      const nowhere = await rye(parent, env, ["run", "bundle.mjs", "tool", "x/y"]);
      expect(nowhere.code).toBe(2);
      expect(nowhere.stderr).toContain("no project found");
    }
    const dir = project();
    const sub = await rye(join(dir, ".ai", "directives"), env, ["run", "tool", "x/y"]);
    expect(sub.code).toBe(1);
    expect(sub.stderr).toContain(`No compiled tool at ${join(dir, "out", "tools", "x", "y.js")}`);
  });

  test("loadProject walks up the same way and throws where the CLI reports a usage error", () => {
    const dir = project();
    const env = testEnv();
    const loaded = loadProject({ cwd: join(dir, ".ai", "directives", "t"), env });
    expect(loaded.spaces.project).toBe(dir);
    expect(loaded.sources.filter((s) => s.kind === "directive").map((s) => s.id)).toEqual(["t/one", "t/two", "u/three"]);
    expect(() => loadProject({ project: join(dir, "nope"), cwd: dir, env })).toThrow(/does not exist/);
  });
});

describe("rye build --watch", () => {
  test("--check --watch and bundle --watch are usage errors that build nothing", async () => {
    const dir = project();
    const env = testEnv();
    const check = await rye(dir, env, ["build", "--check", "--watch"]);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain("--check and --watch cannot be combined");
    const bundle = await rye(dir, env, ["bundle", "--watch"]);
    expect(bundle.code).toBe(2);
    expect(bundle.stderr).toContain("--watch is not supported");
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  test("each cycle prints one timestamped line", async () => {
    const dir = project();
    const w = startWatch(dir, testEnv());
    try {
      let n = await w.settle(0);
      writeFileSync(join(dir, ".ai/directives/t/one.md"), directive("one", "Use {input:missing}."));
      n = await w.settle(n);
      writeFileSync(join(dir, ".ai/directives/t/one.md"), directive("one"));
      n = await w.settle(n);
      const lines = w.lines();
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] Compiled 3 of 3 directives to out in \d+ ms/);
      expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\] 2 of 3 directives compiled without errors; out was left unchanged/);
      expect(lines[2]).toMatch(/^\[\d\d:\d\d:\d\d\] Compiled 3 of 3 directives/);
      expect(w.stderr()).toContain("RYE2001");
    } finally {
      expect(await w.stop()).toBe(0);
    }
  });

  test("--watch --json prints one JSON object per line per cycle, with the version and counts", async () => {
    const dir = project();
    const w = startWatch(dir, testEnv(), ["--json"]);
    try {
      let n = await w.settle(0);
      writeFileSync(join(dir, ".ai/directives/u/three.md"), directive("three", "Use {input:missing}."));
      n = await w.settle(n);
      const reports = w.lines().map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(reports).toHaveLength(2);
      for (const r of reports) {
        expect(r.version).toBe(VERSION);
        expect(Date.parse(r.time as string)).not.toBeNaN();
      }
      expect(reports.map((r) => [r.errors, r.warnings, r.directives, r.compiled])).toEqual([
        [0, 0, 3, ["t/one", "t/two", "u/three"]],
        [1, 0, 3, ["t/one", "t/two"]],
      ]);
      expect((reports[1]!.diagnostics as { code: string; loc: { source: string } }[]).map((d) => [d.code, d.loc.source])).toEqual([["RYE2001", ".ai/directives/u/three.md"]]);
    } finally {
      expect(await w.stop()).toBe(1);
    }
  });

  test("a file saved by rename is still watched: later in-place edits are seen", async () => {
    const dir = project();
    const env = testEnv();
    const w = startWatch(dir, env, ["--json"]);
    const file = join(dir, ".ai/directives/t/two.md");
    const last = () => JSON.parse(w.lines().at(-1)!) as Record<string, unknown>;
    const same = async () => expect(last()).toEqual({ ...(await oneShot(dir, env)), time: last().time });
    try {
      let n = await w.settle(0);
      for (let i = 0; i < 2; i++) {
        // As sed -i and vim save: a new file renamed over the old one.
        writeFileSync(join(dir, ".ai/directives/t/.two.md.swp"), directive("two", `Version ${i}.`));
        renameSync(join(dir, ".ai/directives/t/.two.md.swp"), file);
        n = await w.settle(n);
        await same();
        writeFileSync(file, readFileSync(file, "utf8").replace(`Version ${i}.`, "Use {input:missing}."));
        n = await w.settle(n);
        expect(last().errors).toBe(1);
        await same();
        writeFileSync(file, directive("two"));
        n = await w.settle(n);
        expect(last().errors).toBe(0);
      }
    } finally {
      await w.stop();
    }
  });

  test("folders created, renamed and deleted, and .ai/ itself removed and restored", async () => {
    const dir = project();
    const env = testEnv();
    const w = startWatch(dir, env, ["--json"]);
    const last = () => JSON.parse(w.lines().at(-1)!) as Record<string, unknown>;
    try {
      let n = await w.settle(0);
      writeTree(dir, { ".ai/directives/new/deep/four.md": directive("four") });
      n = await w.settle(n);
      expect(last().compiled).toEqual(["new/deep/four", "t/one", "t/two", "u/three"]);
      renameSync(join(dir, ".ai/directives/new"), join(dir, ".ai/directives/moved"));
      n = await w.settle(n);
      expect(last().compiled).toEqual(["moved/deep/four", "t/one", "t/two", "u/three"]);
      // Edits inside the renamed folder are seen under its new name.
      writeFileSync(join(dir, ".ai/directives/moved/deep/four.md"), directive("four", "Use {input:missing}."));
      n = await w.settle(n);
      expect(last().errors).toBe(1);
      expect(last()).toEqual({ ...(await oneShot(dir, env)), time: last().time });
      rmSync(join(dir, ".ai/directives/moved"), { recursive: true });
      n = await w.settle(n);
      expect(last().compiled).toEqual(["t/one", "t/two", "u/three"]);
      renameSync(join(dir, ".ai"), join(dir, ".ai-away"));
      n = await w.settle(n);
      expect(last().error).toContain("holds no .ai/ folder any more");
      expect(existsSync(join(dir, "out", "directives", "t", "one.js"))).toBe(true);
      renameSync(join(dir, ".ai-away"), join(dir, ".ai"));
      n = await w.settle(n);
      expect(last().compiled).toEqual(["t/one", "t/two", "u/three"]);
      // The restored tree is watched again.
      writeFileSync(join(dir, ".ai/directives/t/one.md"), directive("one", "Use {input:missing}."));
      n = await w.settle(n);
      expect(last().errors).toBe(1);
    } finally {
      await w.stop();
    }
  });

  test("items reached through a symlinked folder are watched through their target", async () => {
    const dir = project();
    writeTree(dir, { "shared/four.md": directive("four") });
    symlinkSync(join(dir, "shared"), join(dir, ".ai/directives/linked"));
    const w = startWatch(dir, testEnv(), ["--json"]);
    const last = () => JSON.parse(w.lines().at(-1)!) as Record<string, unknown>;
    try {
      let n = await w.settle(0);
      expect(last().compiled).toEqual(["linked/four", "t/one", "t/two", "u/three"]);
      // The event names shared/four.md, never .ai/directives/linked/four.md.
      writeFileSync(join(dir, "shared/.four.tmp"), directive("four", "Use {input:missing}."));
      renameSync(join(dir, "shared/.four.tmp"), join(dir, "shared/four.md"));
      n = await w.settle(n);
      expect(last().errors).toBe(1);
      expect(last().compiled).toEqual(["t/one", "t/two", "u/three"]);
    } finally {
      await w.stop();
    }
  });

  test("a changed file readProject would report rather than read gives the one-shot report (BOM kept, NUL, too large)", async () => {
    const dir = project();
    const env = { ...testEnv(), RYE_MAX_FILE_SIZE: "2k" };
    const w = startWatch(dir, env, ["--json"]);
    const last = () => JSON.parse(w.lines().at(-1)!) as Record<string, unknown>;
    const file = join(dir, ".ai/directives/t/one.md");
    try {
      let n = await w.settle(0);
      const changes = [
        `\uFEFF${directive("one")}`,
        directive("one", "A NUL \u0000 byte."),
        directive("one", "Long. ".repeat(400)),
        directive("one"),
      ];
      for (const text of changes) {
        writeFileSync(file, text);
        n = await w.settle(n);
        expect(last()).toEqual({ ...(await oneShot(dir, env)), time: last().time });
      }
      expect(w.lines().map((l) => (JSON.parse(l) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code).join())).toEqual(["", "", "RYE1003", "RYE1005", ""]);
    } finally {
      await w.stop();
    }
  });

  test("events that never pause postpone a rebuild, but not forever", async () => {
    const dir = project();
    const w = startWatch(dir, testEnv(), ["--json"]);
    try {
      const n = await w.settle(0);
      writeFileSync(join(dir, ".ai/directives/t/one.md"), directive("one", "Use {input:missing}."));
      // A log written under .ai/ every 5 ms for three seconds: each event alone would restart the 80 ms wait.
      const until = Date.now() + 3000;
      let seenDuring = n;
      for (let i = 0; Date.now() < until; i++) {
        writeFileSync(join(dir, ".ai/directives/activity.log"), `${i}\n`);
        await new Promise((r) => setTimeout(r, 5));
        seenDuring = w.lines().length;
      }
      // A rebuild at least every 0.8 s (plus its own time) while the events go on.
      expect(seenDuring).toBeGreaterThanOrEqual(n + 2);
      expect((JSON.parse(w.lines()[n]!) as { errors: number }).errors).toBe(1);
      await w.settle(n);
    } finally {
      await w.stop();
    }
  });
});
