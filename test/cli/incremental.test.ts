import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { Progress, type Io } from "../../src/cli/io.js";
import { runOnce } from "../../src/cli/commands/build-once.js";
import { spacesFrom } from "../../src/project/read-spaces.js";
import { watchBuild } from "../../src/watch/watch.js";

// Incremental builds must give exactly what a build from scratch gives: every check below compares
// against `rye build --check`, which compiles everything anew without the cache.
const TEST_USER = mkdtempSync(join(tmpdir(), "rye-user-"));

function capture() {
  let text = "";
  return { stream: { write: (s: string) => ((text += s), true), isTTY: false } as unknown as Io["stdout"], text: () => text };
}

function ioFor(dir: string) {
  const out = capture();
  const err = capture();
  return { io: { stdout: out.stream, stderr: err.stream, cwd: dir, env: { USER_SPACE: TEST_USER } } as Io, out, err };
}

async function rye(dir: string, ...args: string[]) {
  const { io, out, err } = ioFor(dir);
  const code = await main(["build", "--project", dir, ...args], io);
  return { code, stdout: out.text(), stderr: err.text() };
}

const directive = (name: string, opts: { extendsId?: string; inputs?: string; body?: string; context?: string }) => `# ${name}

\`\`\`xml
<directive name="${name}" version="1.0.0"${opts.extendsId ? ` extends="${opts.extendsId}"` : ""}>
  <metadata>
    <description>${name} for the incremental tests.</description>
${opts.context ?? ""}  </metadata>
${opts.inputs ?? ""}</directive>
\`\`\`

<process>
${opts.body ?? "  Do the thing."}
</process>
`;

const knowledge = (title: string, body: string) => `\`\`\`yaml
name: ${title}
title: ${title}
\`\`\`

${body}
`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "rye-incr-"));
  const files: Record<string, string> = {
    ".ai/knowledge/t/rules.md": knowledge("rules", "Rule one: be brief."),
    ".ai/directives/t/base.md": directive("base", { context: "    <context>\n      <system>t/rules</system>\n    </context>\n" }),
    ".ai/directives/t/child.md": directive("child", {
      extendsId: "t/base",
      inputs: '  <inputs>\n    <input name="topic" type="string" required="true">Topic</input>\n  </inputs>\n',
      body: "  Write about {input:topic}.",
    }),
    ".ai/directives/t/caller.md": directive("caller", {
      body: '  `rye_execute(item_type="directive", item_id="t/child", parameters={"topic": "rye"})`',
    }),
    ".ai/directives/t/alone.md": directive("alone", {}),
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const mtimes = (dir: string) =>
  Object.fromEntries(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => [join(e.parentPath, e.name), statSync(join(e.parentPath, e.name)).mtimeMs]));

async function expectUpToDate(dir: string) {
  const check = await rye(dir, "--check");
  // --check prints the whole check's diagnostics, as a build does: warnings may be there, never an error.
  expect(check.stderr).not.toMatch(/ error RYE|out of date/);
  expect(check.code).toBe(0);
  expect(check.stdout).toContain("is up to date");
}

describe("incremental rye build", () => {
  test("a build with errors writes nothing and leaves the cache alone; a no-op build writes nothing either", async () => {
    const dir = project();
    expect((await rye(dir)).code).toBe(0);
    const before = mtimes(join(dir, "out"));
    const cache = statSync(join(dir, ".rye-cache", "build.json")).mtimeMs;
    const alone = join(dir, ".ai/directives/t/alone.md");
    const clean = readFileSync(alone, "utf8");
    appendFileSync(alone, "Unknown {input:nope} here.\n");
    const first = await rye(dir);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain("RYE2001");
    expect(first.stdout).toContain("3 of 4 directives compiled without errors; out was left unchanged");
    const second = await rye(dir);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(first.stderr);
    expect(mtimes(join(dir, "out"))).toEqual(before);
    expect(statSync(join(dir, ".rye-cache", "build.json")).mtimeMs).toBe(cache);
    writeFileSync(alone, clean);
    const noop = await rye(dir);
    expect(noop.code).toBe(0);
    expect(noop.stdout).toContain("(0 files written)");
    expect(mtimes(join(dir, "out"))).toEqual(before);
    expect(statSync(join(dir, ".rye-cache", "build.json")).mtimeMs).toBe(cache);
    await expectUpToDate(dir);
  });

  test("changing an extends parent's context knowledge rebuilds the child; the caller's files stay untouched", async () => {
    const dir = project();
    expect((await rye(dir)).code).toBe(0);
    const callerJs = join(dir, "out/directives/t/caller.js");
    const callerTime = statSync(callerJs).mtimeMs;
    writeFileSync(join(dir, ".ai/knowledge/t/rules.md"), knowledge("rules", "Rule one, revised: be very brief."));
    const r = await rye(dir);
    expect(r.code).toBe(0);
    // The knowledge's text lives in its module, which both directives import for their threads.
    expect(readFileSync(join(dir, "out/knowledge/t/rules.js"), "utf8")).toContain("be very brief");
    for (const d of ["child", "base"]) expect(readFileSync(join(dir, `out/directives/t/${d}.js`), "utf8")).toContain('from "../../knowledge/t/rules.js"');
    expect(statSync(callerJs).mtimeMs).toBe(callerTime);
    await expectUpToDate(dir);
  });

  test("changing the parent itself rebuilds its children", async () => {
    const dir = project();
    expect((await rye(dir)).code).toBe(0);
    writeFileSync(join(dir, ".ai/knowledge/t/extra.md"), knowledge("extra", "Extra context."));
    writeFileSync(join(dir, ".ai/directives/t/base.md"), directive("base", { context: "    <context>\n      <system>t/rules</system>\n      <before>t/extra</before>\n    </context>\n" }));
    expect((await rye(dir)).code).toBe(0);
    expect(readFileSync(join(dir, "out/directives/t/child.js"), "utf8")).toContain("t/extra");
    await expectUpToDate(dir);
  });

  test("a called directive gaining a required input fails its unchanged caller; deleting it warns and removes its files", async () => {
    const dir = project();
    expect((await rye(dir)).code).toBe(0);
    writeFileSync(
      join(dir, ".ai/directives/t/child.md"),
      directive("child", {
        extendsId: "t/base",
        inputs: '  <inputs>\n    <input name="topic" type="string" required="true">Topic</input>\n    <input name="tone" type="string" required="true">Tone</input>\n  </inputs>\n',
        body: "  Write about {input:topic} in a {input:tone} tone.",
      }),
    );
    const missing = await rye(dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/caller\.md:\d+:\d+ - error RYE6003: Call to directive 't\/child' is missing required inputs: tone\./);
    // The failed build left the previous output in place.
    expect(readdirSync(join(dir, "out/directives/t"))).toContain("caller.js");
    expect(readFileSync(join(dir, "out/directives/t/child.js"), "utf8")).not.toContain("tone");

    rmSync(join(dir, ".ai/directives/t/child.md"));
    const gone = await rye(dir);
    expect(gone.stderr).toContain("RYE6002");
    expect(readdirSync(join(dir, "out/directives/t"))).not.toContain("child.js");
    await expectUpToDate(dir);
  });

  test("an output file edited or deleted by hand is restored by the next build", async () => {
    const dir = project();
    expect((await rye(dir)).code).toBe(0);
    const js = join(dir, "out/directives/t/alone.js");
    const original = readFileSync(js, "utf8");
    writeFileSync(js, `${original}// tampered\n`);
    rmSync(join(dir, "out/directives/t/base.d.ts"));
    const r = await rye(dir);
    expect(r.stdout).toContain("(2 files written)");
    expect(readFileSync(js, "utf8")).toBe(original);
    await expectUpToDate(dir);
  });

  test("a corrupt cache is ignored: the build starts from scratch", async () => {
    const dir = project();
    expect((await rye(dir)).code).toBe(0);
    writeFileSync(join(dir, ".rye-cache", "build.json"), "{ not json");
    const r = await rye(dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("(0 files written)");
    await expectUpToDate(dir);
  });
});

describe("rye build --watch", () => {
  test("rebuilds on edits, and survives a file made invalid, renamed and deleted mid-watch", async () => {
    const dir = project();
    const { io, out, err } = ioFor(dir);
    const ac = new AbortController();
    const options = { project: dir, outDir: join(dir, "out"), spaces: spacesFrom(dir, {}, dir, io.env) };
    const watching = watchBuild(options, io, (o) => runOnce(o, io, false), { signal: ac.signal, debounceMs: 30 });
    const builds = () => out.text().split("\n").filter((l) => l.startsWith("Compiled ") || l.includes("directives compiled without errors")).length;
    const next = async (n: number) => {
      for (let i = 0; i < 400 && builds() < n; i++) await new Promise((r) => setTimeout(r, 25));
      expect(builds()).toBeGreaterThanOrEqual(n);
      // Let a burst of events settle into at most one more rebuild before the next step.
      await new Promise((r) => setTimeout(r, 120));
      return builds();
    };
    let n = await next(1);
    expect(out.text()).toContain("Compiled 4 of 4 directives");

    appendFileSync(join(dir, ".ai/directives/t/alone.md"), "Use {input:missing}.\n");
    n = await next(n + 1);
    expect(err.text()).toContain("RYE2001");
    expect(out.text().trimEnd().split("\n").at(-1)).toContain("3 of 4 directives compiled without errors; out was left unchanged");
    expect(readdirSync(join(dir, "out/directives/t"))).toContain("alone.js");

    renameSync(join(dir, ".ai/directives/t/alone.md"), join(dir, ".ai/directives/t/renamed.md"));
    n = await next(n + 1);
    expect(out.text().trimEnd().split("\n").at(-1)).toContain("out was left unchanged");

    rmSync(join(dir, ".ai/directives/t/renamed.md"));
    n = await next(n + 1);
    expect(out.text().trimEnd().split("\n").at(-1)).toContain("Compiled 3 of 3 directives");
    expect(readdirSync(join(dir, "out/directives/t"))).not.toContain("alone.js");

    writeFileSync(join(dir, ".ai/directives/t/alone.md"), directive("alone", {}));
    await next(n + 1);
    expect(out.text().trimEnd().split("\n").at(-1)).toContain("Compiled 4 of 4 directives");
    ac.abort();
    expect(await watching).toBe(0);
    await expectUpToDate(dir);
    // The cache written when watching stopped makes the next build a no-op.
    expect((await rye(dir)).stdout).toContain("(0 files written)");
  }, 30_000);
});

describe("build progress", () => {
  const io = (isTTY: boolean) => {
    const err = capture();
    (err.stream as { isTTY?: boolean }).isTTY = isTTY;
    return { io: { stdout: capture().stream, stderr: err.stream, cwd: "/", env: {} } as Io, err };
  };

  test("a counter on a terminal once a build has run for a second, cleared at the end", () => {
    const { io: tty, err } = io(true);
    const p = new Progress(tty, performance.now() - 2000);
    p.update(3, 10);
    expect(err.text()).toContain("building… 3/10");
    p.clear();
    expect(err.text().endsWith("\r\x1b[K")).toBe(true);
  });

  test("nothing for a short build, and nothing at all when stderr is not a terminal", () => {
    const short = io(true);
    const p = new Progress(short.io, performance.now());
    p.update(1, 10);
    p.clear();
    expect(short.err.text()).toBe("");
    const piped = io(false);
    const q = new Progress(piped.io, performance.now() - 2000);
    q.update(3, 10);
    q.clear();
    expect(piped.err.text()).toBe("");
  });
});
