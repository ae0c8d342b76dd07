import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";

const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));
/** A user space of the tests' own, so the signing key generated on first use never lands in a real home. */
const TEST_USER = mkdtempSync(join(tmpdir(), "rye-user-"));

function capture(isTTY = false) {
  let text = "";
  return { stream: { write: (s: string) => ((text += s), true), isTTY } as unknown as Io["stdout"], text: () => text };
}

async function rye(args: string[], opts: { env?: NodeJS.ProcessEnv; tty?: boolean } = {}) {
  const out = capture();
  const err = capture(opts.tty);
  const code = await main(args, { stdout: out.stream, stderr: err.stream, cwd: tmpdir(), env: { USER_SPACE: TEST_USER, ...opts.env } });
  return { code, stdout: out.text(), stderr: err.text() };
}

function project(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), "rye-proj-"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const BAD = `# Bad

\`\`\`xml
<directive name="bad" version="1.0.0">
  <metadata><description>d</description></metadata>
  <inputs><input name="topic" type="string" required="true">T</input></inputs>
</directive>
\`\`\`

Research {input:topic} and {input:topci}.
`;

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
      else out[rel + e.name] = readFileSync(join(d, e.name), "utf8");
    }
  };
  walk(dir, "");
  return out;
}

describe("rye build", () => {
  test("compiles the example project, deterministically, without rewriting unchanged files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-example-"));
    cpSync(repoAi, join(dir, ".ai"), { recursive: true });
    const first = await rye(["build", "--project", dir]);
    expect(first.stderr).not.toMatch(/ - error RYE/);
    expect(first.code).toBe(0);
    const files = snapshot(join(dir, "out"));
    expect(Object.keys(files)).toContain("directives/examples/greet.js");
    expect(Object.keys(files)).toContain("index.d.ts");
    const second = await rye(["build", "--project", dir]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("(0 files written)");
    expect(snapshot(join(dir, "out"))).toEqual(files);
  });

  test("an undeclared input fails the build naming file, line, column and code, with a frame", async () => {
    const dir = project({ ".ai/directives/bad.md": BAD });
    const { code, stderr } = await rye(["build", "--project", dir]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/bad\.md:10:28 - error RYE2001: Input 'topci' is not declared in <inputs>\. Did you mean 'topic'\?/);
    expect(stderr).toContain("> 10 | Research {input:topic} and {input:topci}.");
    expect(stderr).toContain("^^^^^^^^^^^^^");
    expect(stderr).not.toContain("\u001b[");
  });

  test("colour only on a TTY, never with NO_COLOR", async () => {
    const dir = project({ ".ai/directives/bad.md": BAD });
    expect((await rye(["build", "--project", dir], { tty: true })).stderr).toContain("\u001b[");
    expect((await rye(["build", "--project", dir], { tty: true, env: { NO_COLOR: "1" } })).stderr).not.toContain("\u001b[");
  });

  test("--json reports diagnostics with locations", async () => {
    const dir = project({ ".ai/directives/bad.md": BAD });
    const { code, stdout } = await rye(["build", "--project", dir, "--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.diagnostics[0]).toMatchObject({ code: "RYE2001", severity: "error", loc: { start: { line: 10, column: 28 } } });
  });

  test("GitHub Actions annotations", async () => {
    const dir = project({ ".ai/directives/bad.md": BAD });
    const { stdout } = await rye(["build", "--project", dir], { env: { GITHUB_ACTIONS: "true" } });
    expect(stdout).toMatch(/^::error file=.*bad\.md,line=10,col=28,.*::Input 'topci' is not declared/m);
  });

  test("a file that is not UTF-8 is RYE1003, located", async () => {
    const dir = project({ ".ai/directives/bin.md": Buffer.from([0xff, 0xfe, 0x00, 0x41]) });
    const { code, stderr } = await rye(["build", "--project", dir]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/bin\.md:1:1 - error RYE1003: Cannot read file: not valid UTF-8/);
  });

  test("two files for one item id: RYE1004 on the one that loses, by the fixed probing order", async () => {
    const dir = project({ ".ai/knowledge/k.md": "```yaml\nname: k\n```\nA", ".ai/knowledge/k.yaml": "name: k\n" });
    const { code, stderr } = await rye(["build", "--project", dir]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/k\.yaml:1:1 - error RYE1004: This file and '\.ai\/knowledge\/k\.md' are both knowledge 'k'/);
  });

  test("usage errors exit 2", async () => {
    expect((await rye(["build", "--bogus"])).code).toBe(2);
    expect((await rye(["nope"])).code).toBe(2);
  });
});

describe("rye build --check", () => {
  test.each([[["--emit-ts"]], [["--out", "gen/rye"]], [["--emit-ts", "--out", "gen/rye"]]])("output built with %j passes --check with the same flags (the signed options agree)", async (flags) => {
    const dir = mkdtempSync(join(tmpdir(), "rye-check-opts-"));
    cpSync(repoAi, join(dir, ".ai"), { recursive: true });
    const built = await rye(["build", "--project", dir, ...flags]);
    expect(built.code).toBe(0);
    const checked = await rye(["build", "--project", dir, "--check", ...flags]);
    expect(checked.code, checked.stderr).toBe(0);
    // And the signed options do count: the other choice of --emit-ts is drift.
    const other = flags.includes("--emit-ts") ? flags.filter((f) => f !== "--emit-ts") : [...flags, "--emit-ts"];
    expect((await rye(["build", "--project", dir, "--check", ...other])).code).toBe(1);
  });

  test("fresh output passes; stale, missing and extra files fail, and nothing is touched", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-check-"));
    cpSync(repoAi, join(dir, ".ai"), { recursive: true });
    expect((await rye(["build", "--project", dir, "--check"])).code).toBe(1);
    expect((await rye(["build", "--project", dir])).code).toBe(0);
    expect((await rye(["build", "--project", dir, "--check"])).code).toBe(0);
    const greet = join(dir, "out/directives/examples/greet.js");
    writeFileSync(greet, readFileSync(greet, "utf8") + "\n");
    writeFileSync(join(dir, "out/extra.js"), "");
    const before = snapshot(join(dir, "out"));
    const { code, stderr } = await rye(["build", "--project", dir, "--check"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/stale\s+\S*out\/directives\/examples\/greet\.js/);
    expect(stderr).toMatch(/extra\s+\S*out\/extra\.js/);
    expect(snapshot(join(dir, "out"))).toEqual(before);
  });
});
